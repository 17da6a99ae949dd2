/// A file or folder the scanner could not use, and why; the rest of the scan goes on.
public struct ScanProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of problem it is: what code decides by, where ``reason`` is for people.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The path does not exist (or a component of it is not a directory).
        case missing
        /// The scanning user may not read or list it.
        case permissionDenied
        /// Opening, listing or mapping it failed otherwise, or it changed while it was read.
        case unreadable
        /// A symbolic link, a directory loop or a path outside the allowed roots: not followed.
        case notFollowed
        /// Not a regular file (a FIFO, a device, a socket, a directory where a file was expected).
        case notRegularFile
        /// A file of a user's own registration that another uid owns.
        case notOwned
        /// Larger than the configured limit of a font file.
        case tooLarge
        /// Read, but not a font: empty, no font signature, no faces, or refused by the font library.
        case notAFont
        /// The sandboxed parser stopped, timed out or could not start on it.
        case parserFailed
        /// A rule file that could not be read (`RuleSet.problemReports`).
        case ruleFile
        /// Anything else (the index file, a configured path, a problem from an older client).
        case other
    }

    /// The path as it was found.
    public var path: String
    /// What was wrong, in words a person can act on.
    public var reason: String
    /// What kind of problem it is.
    public var kind: Kind

    package init(path: String, reason: String, kind: Kind) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    /// Reads a problem; one without a known `kind` (an earlier or later release) is ``Kind/other``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        reason = try container.decode(String.self, forKey: .reason)
        kind = try container.decodeIfPresent(String.self, forKey: .kind).flatMap(Kind.init(rawValue:)) ?? .other
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

extension ScanProblem.Kind {
    /// The kind's byte in the index file and in the sandboxed parsers' replies; never reused.
    var code: UInt8 {
        switch self {
        case .other: 0
        case .missing: 1
        case .permissionDenied: 2
        case .unreadable: 3
        case .notFollowed: 4
        case .notRegularFile: 5
        case .notOwned: 6
        case .tooLarge: 7
        case .notAFont: 8
        case .parserFailed: 9
        case .ruleFile: 10
        }
    }

    /// The kind of a byte ``code`` wrote; `nil` for an unknown byte.
    init?(code: UInt8) {
        guard let kind = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = kind
    }
}
