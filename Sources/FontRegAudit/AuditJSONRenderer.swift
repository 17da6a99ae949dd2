import FontRegCore
import FontRegJSON
import Foundation

/// Renders the report as JSON with sorted keys, so output is stable across runs.
package enum AuditJSONRenderer {
    package static func render(_ report: AuditReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report), let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("AuditReport holds only strings, numbers, booleans and arrays; encoding cannot fail")
        }
        return text + "\n"
    }
}
