import FontRegSystem

/// One file the daemon asks a parser to read: its number in the batch, its size and its path.
///
/// The path names the faces' `file` and gives a family name to a face without one; the parser
/// never opens it. The bytes come from the descriptor passed with the request.
struct ParseRequestItem: Equatable {
    /// The file's number in the scanner's batch, echoed in the reply.
    let id: UInt32
    /// The size the daemon checked on its descriptor: what the parser maps.
    let size: Int64
    /// The path the scanner reached the file by.
    let path: String
}

/// The request message: files to read, each with its descriptor attached in order (`SCM_RIGHTS`).
enum ParseRequest {
    /// Encodes the items of one request.
    static func encode(_ items: [ParseRequestItem]) -> [UInt8] {
        var writer = BinaryWriter()
        writer.uint32(UInt32(items.count))
        for item in items {
            writer.uint32(item.id)
            writer.int(Int(item.size))
            writer.string(item.path)
        }
        return writer.output
    }

    /// Decodes a request, or `nil` when it is damaged.
    static func decode(_ bytes: [UInt8]) -> [ParseRequestItem]? {
        var reader = BinaryReader(bytes: bytes)
        let count = Int(reader.uint32())
        guard !reader.failed, count <= PacketSocket.maximumDescriptors else { return nil }
        var items: [ParseRequestItem] = []
        for _ in 0..<count {
            items.append(ParseRequestItem(id: reader.uint32(), size: Int64(reader.int()), path: reader.string()))
        }
        return reader.failed ? nil : items
    }
}

/// What a parser answers for one file: its faces, or why it has none.
///
/// The faces cross in the face cache's binary encoding (``FaceCache``), so every field the cache
/// keeps crosses too, and adding one to the cache adds it here.
enum ParseReply: Equatable {
    /// The file's faces.
    case faces([FaceRecord])
    /// Why the file gave no faces, in a person's words, and what kind of problem that is (the
    /// pool's own failures are ``ScanProblem/Kind/parserFailed``).
    case problem(String, kind: ScanProblem.Kind = .parserFailed)

    /// Encodes the reply to request item `id`.
    func encode(id: UInt32, path: String) -> [UInt8] {
        var writer = BinaryWriter()
        writer.uint32(id)
        switch self {
        case .faces(let faces):
            writer.bytes([0])
            let file = ScannedFile(
                path: path, identity: FileIdentity(device: 0, inode: 0), size: faces.first?.fileSize ?? 0,
                modified: 0, faces: faces)
            FaceCache.write(file, to: &writer)
        case .problem(let reason, let kind):
            writer.bytes([1])
            writer.string(reason)
            writer.bytes([kind.code])
        }
        return writer.output
    }

    /// Decodes a reply into its request number and content, or `nil` when it is damaged.
    static func decode(_ bytes: [UInt8]) -> (id: UInt32, reply: ParseReply)? {
        var reader = BinaryReader(bytes: bytes)
        let id = reader.uint32()
        let kind = reader.bytes(1)
        guard !reader.failed else { return nil }
        switch kind {
        case [0]:
            guard let file = FaceCache.readFile(&reader), !reader.failed else { return nil }
            return (id, .faces(file.faces))
        case [1]:
            let reason = reader.string()
            let kind = reader.bytes(1).first.flatMap(ScanProblem.Kind.init(code:))
            guard let kind, !reader.failed else { return nil }
            return (id, .problem(reason, kind: kind))
        default:
            return nil
        }
    }
}
