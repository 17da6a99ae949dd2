import Glibc

/// The process's environment variables, read from `environ` without Foundation.
///
/// `ProcessInfo.processInfo.environment` sets up Foundation's `ProcessInfo` first, a measurable
/// part of a short-lived process's start (issue 29: `fontresolve`).
package enum ProcessEnvironment {
    /// Every `NAME=value` entry of `environ`; the first of two entries with one name wins, as
    /// `getenv` reads them.
    package static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
