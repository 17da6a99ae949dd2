import FontRegCore
import Foundation

/// The snapshot fuzz target: hostile snapshot files through ``MappedSnapshot``'s checks and lookups.
///
/// An input that starts with the snapshot magic is a whole file. Any other input edits a valid
/// snapshot of the fixture fonts: its first byte says whether to recompute the checksum (bit 0,
/// so that edits reach the structural checks behind it) and how many edits follow (bits 1–6);
/// each edit is three bytes, a 16-bit little-endian offset and the byte to put there; the rest
/// of the input is a family name to resolve. Whatever opens is then asked for families, names,
/// every face and several resolutions.
///
/// Besides crashes and sanitizer reports it checks one property: bytes that open unchanged
/// (the valid snapshot itself) resolve exactly as the in-memory index does.
enum SnapshotFuzzTarget {
    /// The fixture index and its snapshot bytes, built once per process.
    nonisolated(unsafe) static var base: (index: FontIndex, bytes: [UInt8])? = nil

    /// Scans the fixture fonts (`FONTREG_FUZZ_FONTS`, else the repository's) and lays out their snapshot.
    static func makeBase() -> (index: FontIndex, bytes: [UInt8]) {
        let fonts =
            ProcessInfo.processInfo.environment["FONTREG_FUZZ_FONTS"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/fonts/families").path
        do {
            let registry = try FontRegistry(
                configuration: RegistryConfiguration(
                    fontDirectories: [fonts], cacheDirectory: NSTemporaryDirectory() + "fontreg-fuzz-\(getpid())"))
            return (registry.index, SnapshotWriter.bytes(of: registry.index))
        } catch {
            fatalError("fontreg-fuzz: cannot scan the fixture fonts at \(fonts): \(error)")
        }
    }

    /// Runs one input.
    static func run(_ input: UnsafeRawBufferPointer) {
        if base == nil { base = makeBase() }
        guard let base, let first = input.first else { return }
        var bytes: [UInt8]
        var name = "Fixture Sans"
        if input.starts(with: Array("FRSNAP".utf8)) {
            bytes = Array(input)
        } else {
            bytes = base.bytes
            let edits = Int(first >> 1) & 0x3f
            var at = 1
            for _ in 0..<edits where at + 3 <= input.count {
                let offset = Int(input[at]) | Int(input[at + 1]) << 8
                if offset < bytes.count { bytes[offset] = input[at + 2] }
                at += 3
            }
            if at < input.count { name = String(decoding: input[at...], as: UTF8.self) }
            if first & 1 != 0 { SnapshotWriter.reseal(&bytes) }
        }
        guard let snapshot = try? MappedSnapshot(bytes: bytes) else { return }
        exercise(snapshot, name: name, unchanged: bytes == base.bytes ? base.index : nil)
    }

    /// Every lookup the client makes, over whatever opened.
    static func exercise(_ snapshot: MappedSnapshot, name: String, unchanged index: FontIndex?) {
        let resolver = SnapshotResolver(snapshot: snapshot)
        for family in [name, "Fixture Sans", "Lato", "Nonexistent"] {
            for query in [
                ResolveQuery(family: family, weight: .bold, italic: true),
                ResolveQuery(family: family, weight: .light, boldText: true, strict: true),
            ] {
                let answer = Result { () throws(ResolveError) in try resolver.resolve(query) }
                if let index {
                    let expected = Result { () throws(ResolveError) in try Resolver(index: index).resolve(query) }
                    if answer != expected { fatalError("the mapped snapshot resolved \(query) differently") }
                }
            }
        }
        _ = snapshot.face(postscriptName: name)
        _ = snapshot.face(fullName: name)
        _ = snapshot.familyNames
        _ = snapshot.isCurrent
        _ = snapshot.rules
        for position in 0..<min(snapshot.familyCount, 64) {
            guard let entry = snapshot.family(at: position) else { continue }
            _ = entry.faces
            for style in FontStyle.allCases { _ = entry.registeredWeights(style: style) }
        }
        for position in 0..<min(snapshot.faceCount, 4096) { _ = snapshot.face(at: position) }
    }
}
