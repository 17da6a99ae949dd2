/// A mistake in the command line or the config file, with what to do about it.
package enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A flag the daemon does not know.
    case unknownFlag(String)
    /// A flag given without its value.
    case missingValue(flag: String)
    /// A value that does not fit the setting.
    case invalidValue(setting: String, value: String, expected: String)
    /// A config-file line naming no known setting.
    case unknownSetting(file: String, line: Int, name: String)
    /// A config-file line that is not `name = value`.
    case malformedLine(file: String, line: Int)
    /// The config file named with `--config` cannot be read.
    case unreadableFile(path: String, reason: String)

    package var description: String {
        switch self {
        case .unknownFlag(let flag):
            return "unknown option \(flag); run fontregd --help for the list"
        case .missingValue(let flag):
            return "option \(flag) needs a value; run fontregd --help"
        case .invalidValue(let setting, let value, let expected):
            return "'\(value)' is not a valid value for \(setting): expected \(expected)"
        case .unknownSetting(let file, let line, let name):
            return
                "\(file):\(line): unknown setting '\(name)'; the names are those of fontregd --help without the dashes"
        case .malformedLine(let file, let line):
            return "\(file):\(line): expected 'name = value' (or a # comment)"
        case .unreadableFile(let path, let reason):
            return "cannot read config file \(path): \(reason)"
        }
    }
}
