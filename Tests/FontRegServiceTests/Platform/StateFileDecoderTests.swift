import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegJSON
@testable import FontRegService

/// Issue 29 item 3: the start-up reads the per-user state files the daemon wrote straight into
/// records (``StateFileDecoder``) instead of through a `JSONValue` tree. It must read those files
/// as the JSON parser reads them, and give up on anything else, so that what is refused (and moved
/// aside, losing only that uid's state) does not change.
@Suite("State file decoder: the daemon's own files read directly, the same as the JSON parser reads them")
struct StateFileDecoderTests {
    static let uid: UInt32 = 4311

    /// A user's part with registrations of every scope, disabled entries of every kind, non-ASCII paths.
    static var part: PlatformState {
        var part = PlatformState()
        for (index, scope) in RegistrationScope.allCases.enumerated() {
            part.registrations.append(
                RegistrationRecord(
                    path: "/home/\(uid)/fonts \(index)/Ünïcode ✓", owner: uid, scope: scope, isPrivate: index != 1))
        }
        for (index, kind) in DisabledEntry.Kind.allCases.enumerated() {
            part.disabled.append(
                DisabledEntry(kind: kind, value: "Lato \(index) Ä", owner: uid, systemWide: index == 0))
        }
        part.boldText[uid] = true
        return part
    }

    /// The bytes `PlatformStateStore` writes for `part`.
    static func written(_ part: PlatformState) throws -> [UInt8] {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        try store.save(part, replacing: PlatformState())
        return Array(try Data(contentsOf: URL(fileURLWithPath: store.path(of: uid))))
    }

    /// What the JSON parser path makes of `bytes`.
    static func parsed(_ bytes: [UInt8]) -> PlatformState? {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        return PlatformStateStore.part(value, of: uid)
    }

    @Test func aFileTheStoreWroteIsReadDirectlyAndEqualsWhatTheJSONParserReads() throws {
        var registrationsOnly = Self.part
        registrationsOnly.disabled = []
        registrationsOnly.boldText = [:]
        var boldOnly = PlatformState()
        boldOnly.boldText[Self.uid] = false
        for variant in [Self.part, registrationsOnly, boldOnly] {
            let bytes = try Self.written(variant)
            let direct = StateFileDecoder.part(bytes, of: Self.uid)
            #expect(direct != nil, "the daemon's own file takes the direct path")
            #expect(direct == variant)
            #expect(direct == Self.parsed(bytes))
        }
    }

    /// Files the JSON parser refuses, or reads with a subtlety (escapes, earlier names) the
    /// decoder leaves to it.
    static let variants: [String] = [
        #"{"version": 1, "uid": 4311, "registrations": [{}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [], "disabled": []}"#,
        #"{"version": 1, "uid": 4312, "registrations": [], "disabled": []}"#,
        #"{"version": 2, "uid": 4311, "registrations": [], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": []}"#,
        #"{"version": 1, "uid": 4311, "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [], "boldText": null}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [], "boldText": 1}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": []} x"#,
        #"{"version": 1, "uid": 04311, "registrations": [], "disabled": []}"#,
        #"{"version": 1.0, "uid": 4311, "registrations": [], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [], "extra": 1}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a", "owner": 4311, "scope": "persistent", "private": true}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a", "owner": 4312, "scope": "persistent", "private": true}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "a", "owner": 4311, "scope": "persistent", "private": true}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a", "owner": 4311, "scope": "forever", "private": true}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a", "owner": 4311, "scope": "runtime", "private": false}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a\/b\u00e9", "owner": 4311, "scope": "session", "private": true}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a", "path": "/b", "owner": 4311, "scope": "session", "private": true}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a", "owner": 4311, "scope": "session", "private": 1}], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [{"path": "/a", "owner": 4311, "scope": "session", "private": true},], "disabled": []}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [{"kind": "face", "value": "X", "owner": 4311, "global": true}]}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [{"kind": "face", "value": "", "owner": 4311, "systemWide": true}]}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [{"kind": "style", "value": "X", "owner": 4311, "systemWide": true}]}"#,
        #"{"version": 1, "uid": 4311, "registrations": [], "disabled": [{"kind": "file", "value": "/f", "owner": 4311, "systemWide": false}]}"#,
        "{\"version\": 1, \"uid\": 4311, \"registrations\": [{\"path\": \"/a\tb\", \"owner\": 4311, \"scope\": \"session\", \"private\": true}], \"disabled\": []}",
        "{not json",
        "",
    ]

    @Test(arguments: variants)
    func anyFileIsEitherLeftToTheJSONParserOrReadAsItReadsIt(text: String) {
        let bytes = Array(text.utf8)
        let direct = StateFileDecoder.part(bytes, of: Self.uid)
        if let direct { #expect(direct == Self.parsed(bytes), "read as the JSON parser reads it") }
        if Self.parsed(bytes) == nil { #expect(direct == nil, "a file the JSON parser refuses is refused") }
    }

    @Test func invalidUTF8InAPathIsLeftToTheJSONParser() {
        var bytes = Array(#"{"version": 1, "uid": 4311, "registrations": [{"path": "/a"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#"", "owner": 4311, "scope": "session", "private": true}], "disabled": []}"#.utf8)
        #expect(StateFileDecoder.part(bytes, of: Self.uid) == nil)
        #expect(Self.parsed(bytes) == nil)
    }

    @Test func aDamagedFileAmongDirectlyReadOnesLosesOnlyItsUidsState() throws {
        let directory = TemporaryDirectory()
        let store = PlatformStateStore(directory: directory.path)
        var state = PlatformState()
        for uid: UInt32 in [4321, 4322, 4323] {
            state.registrations.append(
                RegistrationRecord(path: "/home/\(uid)/fonts", owner: uid, scope: .persistent, isPrivate: true))
            state.disabled.append(DisabledEntry(kind: .face, value: "Face\(uid)", owner: uid, systemWide: false))
            state.boldText[uid] = uid != 4322
        }
        try store.save(state, replacing: PlatformState())
        // Well-formed JSON, one record's scope unknown: the whole file of 4322 is damage.
        let damaged =
            #"{"version": 1, "uid": 4322, "registrations": "#
            + #"[{"path": "/x", "owner": 4322, "scope": "forever", "private": true}], "disabled": []}"#
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: store.path(of: 4322)))
        let (loaded, problems) = store.load()
        var expected = state
        expected.registrations.removeAll { $0.owner == 4322 }
        expected.disabled.removeAll { $0.owner == 4322 }
        expected.boldText[4322] = nil
        #expect(loaded == expected)
        guard problems.count == 1, case .movedAside(_, uid: 4322) = problems[0] else {
            Issue.record("not reported as 4322's: \(problems)")
            return
        }
    }
}
