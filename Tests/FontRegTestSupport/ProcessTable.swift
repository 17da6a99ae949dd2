import Foundation

/// What `/proc` says of a test's processes: children, descriptors and environment.
package enum ProcessTable {
    /// The processes whose parent is `pid`, each with its `/proc/PID/status`.
    package static func children(of pid: Int32) -> [Int32: String] {
        var found: [Int32: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                status.contains("\nPPid:\t\(pid)\n")
            else { continue }
            found[child] = status
        }
        return found
    }

    /// The processes below `pid`: its children, theirs, and so on, each with its `/proc/PID/status`.
    package static func descendants(of pid: Int32) -> [Int32: String] {
        var found: [Int32: String] = [:]
        var parents = [pid]
        while let parent = parents.popLast() {
            for (child, status) in children(of: parent) where found[child] == nil {
                found[child] = status
                parents.append(child)
            }
        }
        return found
    }

    /// `pid`'s command line, its arguments joined by spaces (empty once it has ended).
    package static func commandLine(of pid: Int32) -> String {
        let data = FileHandle(forReadingAtPath: "/proc/\(pid)/cmdline").flatMap { try? $0.readToEnd() } ?? Data()
        return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
    }

    /// `pid`'s environment, `NAME=value` each (empty once it has ended).
    package static func environment(of pid: Int32) -> [String] {
        let data = FileHandle(forReadingAtPath: "/proc/\(pid)/environ").flatMap { try? $0.readToEnd() } ?? Data()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `pid`'s open descriptors and what each refers to (`socket:[123]`, a path…).
    package static func descriptors(of pid: Int32) -> [Int32: String] {
        var found: [Int32: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
            guard let fd = Int32(entry),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(entry)")
            else { continue }
            found[fd] = target
        }
        return found
    }
}
