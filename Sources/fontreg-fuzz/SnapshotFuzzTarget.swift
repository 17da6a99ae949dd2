import FontRegCore
import Foundation

/// The snapshot fuzz target: hostile snapshot files through ``MappedSnapshot``'s checks and every lookup a client makes.
///
/// Two forms of input:
/// - **A whole snapshot**: an input that starts with the snapshot magic (`FRSNAP`) is a whole
///   file, whose checksum the target recomputes before opening it, so that the fuzzer's changes
///   reach the structural checks and the lookups behind the checksum (a deliberate forger
///   recomputes it too). The seeds are real snapshots (`scripts/make-snapshot-seeds.sh`). The
///   names looked up are taken from the snapshot itself.
/// - **Edits of the fixture snapshot**: any other input edits a valid snapshot of the fixture
///   fonts: its first byte says whether to recompute the checksum (bit 0; without it the
///   checksum check is what refuses the edits) and how many edits follow (bits 1–6); each edit
///   is three bytes, a 16-bit little-endian offset and the byte to put there; the rest of the
///   input (at most 4 KiB) is a name to look up.
///
/// Each input is opened twice, with the whole file checked first and with the records checked at
/// access (as a client opens the published file; see ``MappedSnapshot/Checks``), and whatever opens
/// goes through every lookup (`SnapshotFuzzTarget+Lookups.swift`) and, through its text coverage
/// section (layout 8: the fixture snapshot carries one), `ResolveText`'s fallback. Besides
/// crashes and sanitizer reports it checks one property: bytes that open unchanged (the valid
/// fixture snapshot itself) answer exactly as the in-memory index they were written from.
enum SnapshotFuzzTarget {
    /// The fixture index and its snapshot bytes, built once per process.
    nonisolated(unsafe) static var base: (index: FontIndex, bytes: [UInt8])? = nil

    /// Scans the fixture fonts (`FONTREG_FUZZ_FONTS`, else the repository's) and lays out their snapshot.
    static func makeBase() -> (index: FontIndex, bytes: [UInt8]) {
        let fonts =
            ProcessInfo.processInfo.environment["FONTREG_FUZZ_FONTS"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/fonts/families").path
        // The cache is needed only while the registry is built: the index is kept in memory below.
        let cache = NSTemporaryDirectory() + "fontreg-fuzz-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        do {
            let registry = try FontRegistry(
                configuration: RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: cache))
            return (registry.index, SnapshotWriter.bytesWithTextCoverage(of: registry.index))
        } catch {
            fatalError("fontreg-fuzz: cannot scan the fixture fonts at \(fonts): \(error)")
        }
    }

    /// Runs one input.
    static func run(_ input: UnsafeRawBufferPointer) {
        if base == nil { base = makeBase() }
        guard let base, let first = input.first else { return }
        var bytes: [UInt8]
        var given: [String] = []
        if input.starts(with: Array("FRSNAP".utf8)) {
            bytes = Array(input)
            SnapshotWriter.reseal(&bytes)
        } else {
            bytes = base.bytes
            let edits = Int(first >> 1) & 0x3f
            var at = 1
            for _ in 0..<edits where at + 3 <= input.count {
                let offset = Int(input[at]) | Int(input[at + 1]) << 8
                if offset < bytes.count { bytes[offset] = input[at + 2] }
                at += 3
            }
            if at < input.count {
                given = [String(decoding: input[at..<min(input.count, at + maximumNameBytes)], as: UTF8.self)]
            }
            if first & 1 != 0 { SnapshotWriter.reseal(&bytes) }
        }
        let unchanged = bytes == base.bytes ? base.index : nil
        if let snapshot = try? MappedSnapshot(bytes: bytes) { exercise(snapshot, given: given, unchanged: unchanged) }
        // As a client opens the published file: the records checked as the lookups read them, the
        // checksum not at all, so every edit reaches the lookups whether resealed or not.
        if let lazy = try? MappedSnapshot(bytes: bytes, checks: .atAccess) {
            exercise(lazy, given: given, unchanged: unchanged)
            if unchanged != nil && lazy.damage != nil {
                fatalError("the valid snapshot was found damaged: \(lazy.damage!)")
            }
        }
    }
}
