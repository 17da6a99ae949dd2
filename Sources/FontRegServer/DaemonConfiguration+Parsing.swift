import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Foundation
import Glibc
import Varlink

extension DaemonConfiguration {
    /// Names of settings that take a list; repeating them adds to the list.
    static let listSettings: Set<String> = ["fonts", "allow-uid", "allow-gid", "allow-root"]

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
            case "--no-system-fonts":
                overrides.append(("system-fonts", "no"))
                continue
            default: break
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
                guard index < arguments.count else { throw .missingValue(flag: argument) }
                value = arguments[index]
                index += 1
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
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if !required && errno == ENOENT { return [] }
            throw .unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > 1 << 20 { throw .unreadableFile(path: path, reason: "larger than 1 MiB") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadableFile(path: path, reason: "not UTF-8 text")
        }
        var pairs: [(String, String)] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
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
                throw .invalidValue(setting: name, value: value, expected: "an absolute path")
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
        default: throw .unknownFlag("--" + name)
        }
    }
}
