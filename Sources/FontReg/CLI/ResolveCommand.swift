import Foundation

/// `fontresolve resolve FAMILY [--weight W] [--italic] [--bold-text] [--bold-policy P] [--strict] [--explain] [--json] --fonts DIR…`
public enum ResolveCommand {
    /// The one-line usage.
    public static let usage = "usage: fontresolve resolve FAMILY [--weight W] [--italic] [--bold-text] [--bold-policy P] [--strict] [--explain] [--json] [--fonts DIR]... [--rules DIR]"

    static let parser = ArgumentParser(
        options: ["weight", "bold-policy", "fonts", "rules", "socket"],
        flags: ["italic", "bold-text", "strict", "explain", "json", "system-fonts"])

    /// Parses the query flags of `resolve` into a ``ResolveQuery``.
    ///
    /// - Throws: ``UsageError`` for a missing family, an unknown weight or policy.
    public static func query(from arguments: ParsedArguments) throws(UsageError) -> ResolveQuery {
        guard arguments.positional.count == 1, let family = arguments.positional.first else {
            throw UsageError(arguments.positional.isEmpty ? "resolve needs a FAMILY" : "resolve takes one FAMILY; quote names with spaces: \"\(arguments.positional.joined(separator: " "))\"")
        }
        var weight = FontWeight.regular
        if let text = arguments.value("weight") {
            guard let parsed = FontWeight(parsing: text) else {
                throw UsageError("unknown weight \"\(text)\"; use a number from 1 to 1000 or one of: \(FontWeight.acceptedNames.joined(separator: ", "))")
            }
            weight = parsed
        }
        var policy: BoldTextPolicy?
        if let text = arguments.value("bold-policy") {
            guard let parsed = BoldTextPolicy(name: text) else {
                throw UsageError("unknown Bold Text policy \"\(text)\"; use one of: \(BoldTextPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            policy = parsed
        }
        return ResolveQuery(
            family: family, weight: weight, italic: arguments.has("italic"), boldText: arguments.has("bold-text"),
            boldPolicy: policy, strict: arguments.has("strict"))
    }

    /// Renders a resolution for people: the face, then (with `explain`) the trace.
    public static func render(_ resolution: Resolution, explain: Bool) -> String {
        let face = resolution.face
        var lines: [String] = []
        let marker = resolution.match == .systemFallback ? "  [SYSTEM FALLBACK]" : ""
        lines.append("\(face.postscriptName)\(marker)")
        lines.append("  file:      \(face.file)\(face.index > 0 || face.instance != nil ? " (face \(face.index)\(face.instance.map { ", instance \($0)" } ?? ""))" : "")")
        lines.append("  family:    \(face.family) \(face.subfamily)")
        lines.append("  weight:    \(face.weight)\(resolution.effectiveWeight != resolution.requestedWeight ? " (asked \(resolution.requestedWeight), Bold Text \(resolution.effectiveWeight))" : "")\(face.italic ? ", italic" : "")")
        lines.append("  match:     \(resolution.match.rawValue)\(resolution.composedName.map { " (composed name \($0))" } ?? "")")
        for warning in resolution.warnings { lines.append("  warning:   \(warning)") }
        if explain {
            lines.append("why:")
            for (n, step) in resolution.trace.enumerated() { lines.append("  \(n + 1). \(step)") }
        }
        return lines.joined(separator: "\n")
    }
}
