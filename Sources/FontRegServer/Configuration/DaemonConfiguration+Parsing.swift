import FontRegCore
import FontRegService
import FontRegSystem
import Foundation

extension DaemonConfiguration {
    /// Names of settings that take a list; repeating them adds to the list.
    static let listSettings: Set<String> = ["fonts", "allow-uid", "allow-gid", "allow-root", "user-font-root"]
    /// Names of yes|no settings: `--name` alone means yes, `--no-name` means no.
    static let flagSettings: Set<String> = [
        "system-fonts", "watch", "verbose", "user-fonts", "share-user-fonts", "bold-text",
    ]
    /// Names of settings whose value is a path; relative ones on the command line are taken from the working directory.
    static let pathSettings: Set<String> = [
        "socket", "fonts", "rules", "state-dir", "cache-dir", "config", "allow-root", "fontconfig-config",
    ]
    /// The words that turn a setting taking a path off (`fontconfig-config = no`).
    static let offWords: Set<String> = ["no", "false", "off", "0", ""]
    /// The words a yes|no setting accepts.
    static let flagWords: Set<String> = ["yes", "true", "on", "1", "no", "false", "off", "0"]

    /// Parses the command line (without the program name) and reads the config file it names.
    ///
    /// - Returns: the command; for `.run`, the configuration with the file applied first and
    ///   the flags over it, and the flags themselves (to re-apply over the file on reload).
    /// - Throws: ``ConfigurationError``.
    package static func parse(arguments: [String]) throws(ConfigurationError) -> DaemonCommand {
        var overrides: [(String, String)] = []
        var configFile: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            default: break
            }
            if argument.hasPrefix("--no-"), flagSettings.contains(String(argument.dropFirst(5))) {
                overrides.append((String(argument.dropFirst(5)), "no"))
                continue
            }
            guard argument.hasPrefix("--") else { throw .unknownFlag(argument) }
            var name = String(argument.dropFirst(2))
            var value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
                guard settings.contains(where: { $0.name == name }) else { throw .unknownFlag("--" + name) }
            } else {
                guard settings.contains(where: { $0.name == name }) else { throw .unknownFlag(argument) }
                if flagSettings.contains(name),
                    index >= arguments.count || !flagWords.contains(arguments[index].lowercased())
                {
                    overrides.append((name, "yes"))
                    continue
                }
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw .missingValue(flag: argument)
                }
                value = arguments[index]
                index += 1
            }
            if pathSettings.contains(name), !(name == "fontconfig-config" && Self.offWords.contains(value.lowercased()))
            {
                value = absolute(value)
            }
            if name == "config" {
                configFile = value
                value = ""
                continue
            }
            overrides.append((name, value))
        }
        var configuration = DaemonConfiguration()
        if let configFile {
            configuration.configFile = configFile
            configuration.configFileGiven = true
        }
        configuration = try configuration.reloaded(overrides: overrides)
        return .run(configuration, overrides: overrides)
    }

    /// A command-line path made absolute against the working directory (an empty value stays empty).
    static func absolute(_ path: String) -> String {
        guard !path.isEmpty, !path.hasPrefix("/") else { return path }
        guard let base = Syscall.currentDirectory else { return path }
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return (base == "/" ? "" : base) + "/" + relative
    }

    /// A config-file line without its comment: `#` at the start or after a space or tab starts one.
    static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#" && (previous == " " || previous == "\t") { return line[..<index] }
            previous = line[index]
        }
        return line
    }

    /// This configuration's file and command-line flags applied afresh to the defaults (for start and SIGHUP).
    ///
    /// - Throws: ``ConfigurationError`` for a bad file or value; a missing default file is not an error.
    package func reloaded(overrides: [(String, String)]) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        configuration.configFile = configFile
        configuration.configFileGiven = configFileGiven
        let fileSettings = try DaemonConfiguration.readFile(configFile, required: configFileGiven)
        try configuration.apply(fileSettings)
        try configuration.apply(overrides)
        return configuration
    }

    /// Reads `name = value` lines from a config file.
    static func readFile(_ path: String, required: Bool) throws(ConfigurationError) -> [(String, String)] {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.open(path, as: .file).readAll(limit: 1 << 20)
        } catch {
            if !required && error.errno == .noSuchFileOrDirectory { return [] }
            if error.errno == .fileTooLarge { throw .unreadableFile(path: path, reason: "larger than 1 MiB") }
            throw .unreadableFile(path: path, reason: error.errno.message)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadableFile(path: path, reason: "not UTF-8 text")
        }
        var pairs: [(String, String)] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = withoutComment(rawLine).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else { throw .malformedLine(file: path, line: offset + 1) }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard settings.contains(where: { $0.name == name }), name != "config" else {
                throw .unknownSetting(file: path, line: offset + 1, name: name)
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Applies settings in order; list settings given here replace the previous list.
    mutating func apply(_ pairs: [(String, String)]) throws(ConfigurationError) {
        var replaced: Set<String> = []
        for (name, value) in pairs {
            if DaemonConfiguration.listSettings.contains(name), replaced.insert(name).inserted {
                switch name {
                case "fonts": fontDirectories = []
                case "allow-uid": access.allowedUIDs = []
                case "allow-gid": access.allowedGIDs = []
                case "allow-root": allowedRoots = []
                case "user-font-root": platform.userFontRoots = []
                default: break
                }
            }
            try set(name, value)
        }
    }

    private mutating func set(_ name: String, _ value: String) throws(ConfigurationError) {
        func number(_ expected: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let parsed = Int(value), range.contains(parsed) else {
                throw .invalidValue(setting: name, value: value, expected: expected)
            }
            return parsed
        }
        func path() throws(ConfigurationError) -> String {
            guard value.hasPrefix("/") else {
                throw .invalidValue(
                    setting: name, value: value,
                    expected: "an absolute path (in the config file; on the command line a relative one is fine)")
            }
            return value
        }
        func flag() throws(ConfigurationError) -> Bool {
            switch value.lowercased() {
            case "yes", "true", "on", "1": return true
            case "no", "false", "off", "0": return false
            default: throw .invalidValue(setting: name, value: value, expected: "yes or no")
            }
        }
        switch name {
        case "socket": socketPath = try path()
        case "socket-mode":
            guard let mode = UInt32(value, radix: 8), mode <= 0o777 else {
                throw .invalidValue(setting: name, value: value, expected: "octal permissions such as 0666")
            }
            socketMode = mode
        case "fonts": fontDirectories.append(try path())
        case "rules": rulesDirectory = value.isEmpty ? nil : try path()
        case "state-dir": stateDirectory = try path()
        case "cache-dir": cacheDirectory = try path()
        case "system-fonts": includeSystemFonts = try flag()
        case "allow-uid": access.allowedUIDs.insert(UInt32(try number("a uid", 0...Int(UInt32.max - 1))))
        case "allow-gid": access.allowedGIDs.insert(UInt32(try number("a gid", 0...Int(UInt32.max - 1))))
        case "allow-root": allowedRoots.append(try path())
        case "max-message-size":
            limits.maximumMessageSize = try number("a byte count from 1024 to 1073741824", 1024...(1 << 30))
        case "max-connections": limits.maximumConnections = try number("a count from 1 to 1000000", 1...1_000_000)
        case "max-connections-per-uid":
            limits.maximumConnectionsPerUID = try number("a count from 1 to 1000000", 1...1_000_000)
        case "idle-timeout":
            guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                throw .invalidValue(setting: name, value: value, expected: "seconds, 0 or more")
            }
            limits.idleTimeout = seconds
        case "threads": threads = try number("a count from 1 to 64", 1...64)
        case "watch": watch = try flag()
        case "debounce-ms": debounceMilliseconds = try number("milliseconds from 0 to 600000", 0...600_000)
        case "font-size-limit": fontSizeLimitMiB = try number("MiB from 1 to 4096", 1...4096)
        case "verbose": verbose = try flag()
        case "parse-fonts":
            guard value == "sandboxed" || value == "in-process" else {
                throw .invalidValue(setting: name, value: value, expected: "sandboxed or in-process")
            }
            parseSandboxed = value == "sandboxed"
        case "parse-worker-user":
            guard !value.isEmpty, value.count <= 64, !value.contains("/") else {
                throw .invalidValue(setting: name, value: value, expected: "a user name")
            }
            parseWorkerUser = value
        case "parse-timeout":
            guard let seconds = Double(value), seconds >= 0.1, seconds <= 600 else {
                throw .invalidValue(setting: name, value: value, expected: "seconds from 0.1 to 600")
            }
            parseTimeoutSeconds = seconds
        // Issue 15.
        case "user-fonts": platform.userFonts = try flag()
        case "user-font-root":
            guard value == "~" || value.hasPrefix("~/") || value.hasPrefix("/"),
                !value.split(separator: "/").contains("..")
            else {
                throw .invalidValue(
                    setting: name, value: value, expected: "~/DIR (in each user's home) or an absolute directory")
            }
            platform.userFontRoots.append(value)
        case "share-user-fonts": platform.shareUserFonts = try flag()
        case "max-persisted-per-user":
            platform.maximumPersistedEntriesPerUser = try number("a count from 0 to 1000000", 0...1_000_000)
        case "max-persisted-bytes-per-user":
            platform.maximumPersistedBytesPerUser = try number("a byte count from 0 to 16777216", 0...(16 << 20))
        case "bold-text": platform.boldText = try flag()
        case "fontconfig-config":
            fontconfigConfig = DaemonConfiguration.offWords.contains(value.lowercased()) ? nil : try path()
        case "bold-policy":
            guard let policy = BoldTextPolicy(name: value) else {
                throw .invalidValue(
                    setting: name, value: value,
                    expected: BoldTextPolicy.allCases.map(\.rawValue).joined(separator: ", "))
            }
            platform.boldPolicy = policy
        default: throw .unknownFlag("--" + name)
        }
    }
}
