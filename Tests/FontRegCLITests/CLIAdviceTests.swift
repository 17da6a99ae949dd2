import FontRegJSON
import FontRegTestSupport
import Testing

@testable import FontRegCLI
@testable import FontRegCore
@testable import FontRegProtocol
@testable import FontRegSystem
@testable import Varlink

/// Wording by layer (issue 23 item 6): Core and Varlink state the fact and carry the data; the
/// words that say which `fontresolve` command to run, or what to do with `fontregd`, are the CLI's.
@Suite struct CLIAdviceTests {
    static let system = SystemError("connect", subject: "/s", errno: 111)

    /// Every lower-layer message a person may read from these types.
    static let lowerLayerMessages: [String] = {
        let registry: [RegistryError] = [
            .fileNotFound(path: "/f"), .alreadyRegistered(path: "/f"), .alreadyRegistered(path: "/f/a", within: "/f"),
            .notRegistered(path: "/f"), .invalidFontData(path: "/f", reason: "empty"), .permissionDenied(path: "/f"),
        ]
        let resolve: [ResolveError] = [
            .familyNotFound(family: "Nope", suggestions: []), .familyNotFound(family: "Latto", suggestions: ["Lato"]),
            .noFaceInFamily(family: "Lato"),
        ]
        let snapshot: [SnapshotError] = [
            .notASnapshot(path: "/s"), .versionMismatch(path: "/s", found: 1, expected: 2),
            .truncated(path: "/s", size: 1, expected: 2), .checksumMismatch(path: "/s"),
            .outOfBounds(path: "/s", what: "a name"), .unreadable(path: "/s", reason: "not a regular file"),
        ]
        let client: [VarlinkClientError] = [
            .cannotConnect(path: "/s", system), .io(system), .connectionClosed, .timedOut(seconds: 1),
            .malformedReply(.notAnObject(found: "an array")),
        ]
        let steps: [ResolveStep] = [
            .composedWrongWeight(
                registered: "Lato-Bold", weight: 800, otherFamily: nil, effective: 700, family: "Lato"),
            .notRegistered(family: "Nope", suggestions: []),
        ]
        return registry.map(\.description) + resolve.map(\.description) + snapshot.map(\.description)
            + client.map(\.description) + steps.map(\.description)
            + [TextResolveError.resolve(.familyNotFound(family: "Nope", suggestions: [])).description]
    }()

    @Test(arguments: lowerLayerMessages)
    func coreAndVarlinkMessagesNameNoProgram(message: String) {
        #expect(!message.contains("fontresolve"), "\(message)")
        #expect(!message.contains("fontregd"), "\(message)")
        #expect(!message.contains("--socket"), "\(message)")
    }

    @Test func theDaemonsFamilyNotFoundWithoutSuggestionsNamesTheCommandThatListsFamilies() {
        let error = VarlinkError(RegistryInterface.ErrorName.familyNotFound, ["family": "Nope", "suggestions": []])
        #expect(!error.explanation.contains("fontresolve"))
        let translated = DaemonErrorTranslator(socketPath: "/s").translate(error)
        #expect(translated.exitStatus == .failure)
        #expect(
            translated.description
                == "No registered family is named \"Nope\". List the registered families with `fontresolve list`, or register the family's files."
        )
    }

    @Test func theDaemonsNotRegisteredNamesTheCommandThatListsRegisteredPaths() {
        let error = VarlinkError(RegistryInterface.ErrorName.notRegistered, ["path": "/fonts"])
        let translated = DaemonErrorTranslator(socketPath: "/s").translate(error)
        #expect(
            translated.description == "/fonts is not registered. List the registered paths with `fontresolve status`.")
    }

    @Test func anUnreachableDaemonIsExplainedByTheCLIFromTheClientErrorsCase() {
        let unreachable = DaemonErrorTranslator(socketPath: "/s").translate(.connectionClosed)
        #expect(unreachable.exitStatus == .unavailable)
        #expect(unreachable.description.contains("journalctl -u fontregd"))
        #expect(unreachable.description.contains("systemctl start fontregd.socket"))
    }

    @Test(arguments: [
        (SnapshotError.notASnapshot(path: "/s"), "Remove it and let fontregd write a new one"),
        (.versionMismatch(path: "/s", found: 1, expected: 2), "Restart fontregd to rewrite it"),
        (.truncated(path: "/s", size: 1, expected: 2), "fontregd rewrites it on its next change"),
        (.checksumMismatch(path: "/s"), "Restart fontregd to rewrite it"),
    ])
    func aDamagedSnapshotsWarningSaysWhatSettlesIt(damage: SnapshotError, advice: String) throws {
        let warning = try #require(SnapshotBackend.warning(.invalid(damage)))
        #expect(warning.hasPrefix("fontresolve: warning: not using the daemon's snapshot: \(damage.description) "))
        #expect(warning.contains(advice))
        #expect(warning.hasSuffix("; asking the socket instead"))
        #expect(SnapshotBackend.warning(.absent) == nil)
    }

    @Test func anAmbiguousWeightNameFindingGetsTheCommandThatShowsTheFace() throws {
        let rule = FamilyRule(family: "Booky", familyName: "Booky", weightNames: [300: "Book"], source: "booky.json")
        let findings = RuleChecker.check(rule, faces: [], places: [:])
        let finding = try #require(findings.first { $0.kind == .ambiguousWeightName })
        #expect(finding.face == "Booky-Book")
        #expect(!finding.fix.contains("fontresolve"))
        #expect(CLIAdvice.withCommand(finding).fix.hasSuffix("; `fontresolve face Booky-Book` shows it"))
        let other = RuleChecker.Finding(
            kind: .inverted, face: nil, severity: "error", file: "f", line: nil, column: nil, family: "F",
            message: "m", fix: "swap")
        #expect(CLIAdvice.withCommand(other) == other)
    }

    @Test func anEmbeddedRunNamesTheCommandThatListsFamilies() throws {
        let output = try FontResolveProcess.run(["resolve", "Nope Sans", "--strict", "--fonts", Fixtures.families])
        #expect(output.status == 1)
        #expect(output.stderr.contains("No registered family is named \"Nope Sans\"."))
        #expect(output.stderr.contains("List the registered families with `fontresolve list`"))
    }
}
