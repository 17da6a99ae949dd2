import Testing

@testable import FontRegCore

/// The two worker modes read their command lines with one parser (``WorkerArguments``).
@Suite struct WorkerArgumentsTests {
    @Test func bothWorkersReadTheCommonOptionsAndTheCacheWorkerItsCaps() throws {
        let common = ["--user", "fontreg", "--memory-mib", "512", "--cpu-seconds", "7", "--test-faults"]
        let parser = try #require(FontParseWorker.parse(common))
        #expect(parser.user == "fontreg" && parser.memoryMiB == 512 && parser.cpuSeconds == 7 && parser.testFaults)
        let cache = try #require(
            FontconfigCacheWorker.parse(common + ["--max-entries", "10", "--max-directories", "3"]))
        #expect(cache.user == "fontreg" && cache.memoryMiB == 512 && cache.cpuSeconds == 7 && cache.testFaults)
        #expect(cache.maximumEntries == 10 && cache.maximumDirectories == 3)
        let defaults = try #require(FontParseWorker.parse([]))
        #expect(defaults.user == "nobody" && defaults.memoryMiB == 1024 && !defaults.testFaults)
    }

    @Test func anUnknownOptionAMissingValueOrANonNumberRefusesTheLine() {
        #expect(FontParseWorker.parse(["--max-entries", "10"]) == nil, "the parse worker has no caps")
        #expect(FontParseWorker.parse(["--user"]) == nil)
        #expect(FontParseWorker.parse(["--memory-mib"]) == nil)
        #expect(FontParseWorker.parse(["--cpu-seconds", "ten"]) == nil)
        #expect(FontParseWorker.parse(["--memory-mib", "-1"]) == nil)
        #expect(FontconfigCacheWorker.parse(["--max-directories", "3", "extra"]) == nil)
    }
}
