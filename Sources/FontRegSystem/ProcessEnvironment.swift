import Glibc

/// The process's environment variables, read from `environ` without Foundation.
///
/// `ProcessInfo.processInfo.environment` sets up Foundation's `ProcessInfo` first, a measurable
/// part of a short-lived process's start (issue 29: `fontresolve`).
package enum ProcessEnvironment {
    /// Every `NAME=value` entry of `environ`, split at its first `=` byte (as `getenv` reads
    /// them); the first of two entries with one name wins, as `getenv` finds it.
    ///
    /// Works on the entries' bytes and sizes the dictionary once: splitting each entry at a
    /// `Character` and growing the dictionary took 0.8 M instructions for 43 variables, 8 % of a
    /// whole `fontresolve resolve` process (issue 29 item 1).
    package static func current() -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var variables = [String: String](minimumCapacity: count)
        for position in 0..<count {
            guard let entry = environ[position] else { break }
            let length = strlen(entry)
            entry.withMemoryRebound(to: UInt8.self, capacity: length) { start in
                let bytes = UnsafeBufferPointer(start: start, count: length)
                guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<equals]), as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)...]), as: UTF8.self)
                }
            }
        }
        return variables
    }
}
