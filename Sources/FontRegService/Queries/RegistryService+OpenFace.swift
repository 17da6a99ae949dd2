import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

// Issue 15 (OpenFace): a face's file handed out as an open descriptor.
extension RegistryService {
    /// Answers `OpenFace`: the face's file opened read-only for the caller, passed with the reply.
    ///
    /// The file is opened with the caller's own credentials (uid, gid and supplementary groups
    /// taken by the opening thread, so that the kernel decides, ACLs included; no link followed,
    /// ``PeerFileAccess/openAsPeer(_:uid:gid:groups:)``), so the descriptor is one the caller
    /// could have opened itself; then its `fstat` must show the very
    /// file that was indexed (device, inode, size). One descriptor per call; a connection holds at
    /// most ``VarlinkConnection/maximumPendingDescriptors`` unread.
    func openFace(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let reader = try ParameterReader(call, allowed: ["postscriptName"])
        let name = try reader.string("postscriptName", maximumBytes: Self.maximumNameBytes)
        // Only a face the caller may see: other users' own fonts and disabled faces are not (the
        // platform's one visibility check, as GetFace uses it).
        guard let face = visibleFace(postscriptName: name, peer: peer) else {
            throw VarlinkError(RegistryInterface.ErrorName.faceNotFound, ["postscriptName": .string(name)])
        }
        guard let indexed = registry.indexedFile(path: face.file) else {
            throw Self.unavailable(name, "the file is no longer indexed; a Rescan is under way")
        }
        let opened: FileDescriptor
        let status: FileStatus
        do {
            (opened, status) = try PeerFileAccess.openAsPeer(
                face.file, uid: peer.uid, gid: peer.gid, groups: peer.groups)
        } catch {
            throw Self.refusal(error, name: name)
        }
        guard indexed.matches(status) else {
            throw Self.unavailable(name, "the file changed since it was indexed; a Rescan picks the change up")
        }
        var parameters: [String: JSONValue] = [
            "fileDescriptor": 0, "index": .int(face.index), "size": .int(Int(indexed.size)), "face": face.jsonValue,
        ]
        parameters["instance"] = face.instance.map { .int($0) } ?? .null
        return .replyWithDescriptors(
            parameters, descriptors: [opened],
            overLimit: VarlinkError(
                RegistryInterface.ErrorName.tooManyDescriptors,
                ["limit": .int(VarlinkConnection.maximumPendingDescriptors)]))
    }

    /// The typed error for a refusal: access denied, or the file unavailable with the reason.
    ///
    /// The reasons never say which directory refused or whether something exists beyond what
    /// the caller could see: a denial is the same error whatever denied it.
    private static func refusal(_ refusal: PeerFileAccess.Refusal, name: String) -> VarlinkError {
        switch refusal {
        case .permissionDenied:
            return VarlinkError(RegistryInterface.ErrorName.faceAccessDenied, ["postscriptName": .string(name)])
        case .symbolicLink:
            return unavailable(name, "the file is reached through a symbolic link; register the real path")
        case .notARegularFile:
            return unavailable(name, "the path no longer names a regular file; a Rescan picks the change up")
        case .system(let error) where error.errno == .permissionDenied || error.errno == .notPermitted:
            return VarlinkError(RegistryInterface.ErrorName.faceAccessDenied, ["postscriptName": .string(name)])
        case .system(let error) where error.errno == .noSuchFileOrDirectory:
            return unavailable(name, "the file is gone; a Rescan picks the change up")
        case .system(let error):
            return unavailable(name, "the file cannot be opened (\(error.description))")
        }
    }

    private static func unavailable(_ name: String, _ reason: String) -> VarlinkError {
        VarlinkError(
            RegistryInterface.ErrorName.faceFileUnavailable,
            ["postscriptName": .string(name), "reason": .string(reason)])
    }
}
