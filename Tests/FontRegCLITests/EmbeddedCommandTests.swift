import FontRegTestSupport
import Foundation
import Testing

/// `fontresolve` in embedded mode (`--fonts`, no daemon): each read command's output and exit status.
@Suite struct EmbeddedCommandTests {
    let fonts = ["--fonts", FontResolveProcess.fixtures]

    @Test func listPrintsOneAlignedRowPerFamily() throws {
        let output = try FontResolveProcess.run(["list"] + fonts)
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        Snapshot.expect(output.stdout, matches: "list-families.txt")
    }

    @Test func listFamilyPrintsItsFacesUprightsFirstLightestFirst() throws {
        let output = try FontResolveProcess.run(["list", "avenir-fixture"] + fonts)
        #expect(output.status == 0)
        Snapshot.expect(output.stdout, matches: "list-avenir-fixture.txt")
    }

    @Test func listNamesPrintsOnlyFamilyNames() throws {
        let output = try FontResolveProcess.run(["list", "--names"] + fonts)
        #expect(output.status == 0)
        let names = output.stdout.split(separator: "\n").map(String.init)
        #expect(names.count == 15)
        #expect(names.contains("Fixture Sans"))
        #expect(names.contains("SF Fixture Display"))
    }

    @Test func listUnknownFamilyExitsOneAndSuggestsTheClosest() throws {
        let output = try FontResolveProcess.run(["list", "Fixture Snas"] + fonts)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("No registered family is named \"Fixture Snas\""))
        #expect(output.stderr.contains("\"Fixture Sans\""))
    }

    @Test func listJSONIsAnArrayOfFamiliesWithSortedKeys() throws {
        let output = try FontResolveProcess.run(["list", "--json"] + fonts)
        #expect(output.status == 0)
        let families = try #require(try FontResolveProcess.json(output) as? [[String: Any]])
        #expect(families.count == 15)
        let avenir = try #require(families.first)
        #expect(avenir["name"] as? String == "Avenir Fixture")
        #expect(avenir["weights"] as? [Int] == [200, 400, 500, 600, 700, 800])
        #expect(avenir["hasItalic"] as? Bool == true)
        let firstObject = output.stdout.split(separator: "\n").prefix(8).joined(separator: "\n")
        #expect(firstObject.contains("\"faceCount\": 12,\n    \"files\""), "keys are sorted")
    }

    @Test func resolvePrintsTheFaceAndHowItWasFound() throws {
        let output = try FontResolveProcess.run(["resolve", "Avenir Fixture", "--weight", "semibold"] + fonts)
        #expect(output.status == 0)
        Snapshot.expect(output.stdout, matches: "resolve-avenir-semibold.txt")
    }

    @Test func explainPrintsTheTraceOfBoldText() throws {
        let output = try FontResolveProcess.run(
            ["explain", "Gothic Fixture Neo", "--weight", "700", "--bold-text"] + fonts)
        #expect(output.status == 0)
        Snapshot.expect(output.stdout, matches: "explain-gothic-bold-text.txt")
        let viaFlag = try FontResolveProcess.run(
            ["resolve", "Gothic Fixture Neo", "--weight", "700", "--bold-text", "--explain"] + fonts)
        #expect(viaFlag.stdout == output.stdout, "explain is resolve --explain")
    }

    @Test func resolveJSONParsesBackWithEveryDocumentedKey() throws {
        let output = try FontResolveProcess.run(
            ["resolve", "neue-fixture", "--weight", "bold", "--italic", "--json"] + fonts)
        #expect(output.status == 0)
        let reply = try #require(try FontResolveProcess.json(output) as? [String: Any])
        #expect(reply["postscriptName"] as? String == "NeueFixture-BoldItalic")
        #expect(reply["match"] as? String == "exact-name")
        #expect(reply["composedName"] as? String == "NeueFixture-BoldItalic")
        #expect(reply["requestedWeight"] as? Int == 700)
        #expect(reply["effectiveWeight"] as? Int == 700)
        #expect(reply["italic"] as? Bool == true)
        #expect(reply["index"] as? Int == 0)
        #expect((reply["file"] as? String)?.hasSuffix("families/NeueFixture-BoldItalic.ttf") == true)
        #expect((reply["trace"] as? [String])?.isEmpty == false)
        #expect((reply["face"] as? [String: Any])?["weight"] as? Int == 700)
    }

    @Test func resolveStrictUnknownFamilyExitsOneWithSuggestions() throws {
        let output = try FontResolveProcess.run(["resolve", "Hairline Fixtur", "--strict"] + fonts)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("Did you mean \"Hairline Fixture\""))
    }

    @Test func faceShowsTheRecordOfAPostScriptNameIgnoringCase() throws {
        let output = try FontResolveProcess.run(["face", "fixturevar-semibold"] + fonts)
        #expect(output.status == 0)
        Snapshot.expect(output.stdout, matches: "face-fixturevar-semibold.txt")
    }

    @Test func faceJSONIsTheFaceRecord() throws {
        let output = try FontResolveProcess.run(["face", "FixtureCollection-Italic", "--json"] + fonts)
        let face = try #require(try FontResolveProcess.json(output) as? [String: Any])
        #expect(face["index"] as? Int == 2)
        #expect(face["italic"] as? Bool == true)
        #expect(face["format"] != nil)
    }

    @Test func faceUnknownNameExitsOneAndNamesTheClosestFaces() throws {
        let output = try FontResolveProcess.run(["face", "FixtureSans-Bolt"] + fonts)
        #expect(output.status == 1)
        #expect(output.stderr.contains("\"FixtureSans-Bold\""))
    }

    @Test func statusListsRegisteredPathsAndEveryBadFile() throws {
        let output = try FontResolveProcess.run(["status"] + fonts)
        #expect(output.status == 0)
        Snapshot.expect(output.stdout, matches: "status-embedded.txt")
    }

    @Test func statusJSONCountsFacesAndProblems() throws {
        let output = try FontResolveProcess.run(["status", "--json"] + fonts)
        let status = try #require(try FontResolveProcess.json(output) as? [String: Any])
        #expect(status["mode"] as? String == "embedded")
        #expect(status["faces"] as? Int == 128)
        #expect((status["problems"] as? [Any])?.count == 5)
    }

    @Test func rulesSuggestDiscoversDemiBoldAndHeavy() throws {
        let output = try FontResolveProcess.run(["rules", "suggest", "Avenir Fixture"] + fonts)
        #expect(output.status == 0)
        Snapshot.expect(output.stdout, matches: "rules-suggest-avenir.txt")
        let rule = try #require(try FontResolveProcess.json(output) as? [String: Any])
        let names = try #require(rule["weightNames"] as? [String: String])
        #expect(names.values.contains("DemiBold"))
        #expect(names.values.contains("Heavy"))
    }

    @Test func rulesShowMarksWhichComposedNamesAreRegistered() throws {
        let output = try FontResolveProcess.run(["rules", "show", "Neue Fixture"] + fonts)
        #expect(output.status == 0)
        Snapshot.expect(output.stdout, matches: "rules-show-neue.txt")
    }

    @Test func rulesShowOfADirectoryExitsOneForAMalformedFile() throws {
        let directory = TemporaryDirectory()
        try Data(#"{"family": "Avenir Fixture", "weightNames": {"semibold": "DemiBold"}}"#.utf8).write(
            to: URL(fileURLWithPath: directory.file("avenir.json")))
        try Data("{\"family\": \"Broken\",\n  \"italicSuffix\": 3\n".utf8).write(
            to: URL(fileURLWithPath: directory.file("broken.json")))
        let output = try FontResolveProcess.run(["rules", "show", "--rules", directory.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("Avenir Fixture"))
        #expect(output.stderr.contains("broken.json"))
    }

    @Test func rulesFromADirectoryChangeTheComposedName() throws {
        let directory = TemporaryDirectory()
        try Data(#"{"family": "Avenir Fixture", "weightNames": {"semibold": "DemiBold", "extrabold": "Heavy"}}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.file("avenir.json")))
        let output = try FontResolveProcess.run(
            ["resolve", "Avenir Fixture", "--weight", "800", "--json", "--rules", directory.path] + fonts)
        #expect(output.status == 0)
        let reply = try #require(try FontResolveProcess.json(output) as? [String: Any])
        #expect(reply["composedName"] as? String == "AvenirFixture-Heavy")
        #expect(reply["match"] as? String == "exact-name")
    }

    @Test func aFontsPathThatDoesNotExistExits66() throws {
        let output = try FontResolveProcess.run(["list", "--fonts", "/nonexistent/fonts"])
        #expect(output.status == 66)
        #expect(output.stderr.contains("/nonexistent/fonts: no such file or directory"))
    }

    @Test func realFontsResolveAsAUserAsksForThem() throws {
        let output = try FontResolveProcess.run([
            "resolve", "Lato", "--weight", "semibold", "--italic", "--json", "--fonts", "fonts",
        ])
        let reply = try #require(try FontResolveProcess.json(output) as? [String: Any])
        #expect(reply["postscriptName"] as? String == "Lato-SemiboldItalic")
        let inter = try FontResolveProcess.run([
            "resolve", "inter", "--weight", "600", "--bold-text", "--json", "--fonts", "fonts",
        ])
        let interReply = try #require(try FontResolveProcess.json(inter) as? [String: Any])
        #expect(interReply["postscriptName"] as? String == "Inter-Bold")
    }
}
