import FontRegJSON

/// Renders the report as JSON with sorted keys, so output is stable across runs.
package enum AuditJSONRenderer {
    /// The report as pretty JSON text (the one style of ``JSONBytesWriter``), ending in a newline.
    package static func render(_ report: AuditReport) -> String {
        guard let value = try? JSONValue(encoding: report) else {
            preconditionFailure("AuditReport holds only strings, numbers, booleans and arrays; encoding cannot fail")
        }
        return value.prettyPrinted() + "\n"
    }
}
