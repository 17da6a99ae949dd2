import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Foundation
import Varlink

/// The JSON `fontresolve` prints: sorted keys, two-space indentation, the same text the daemon's `JSONValue` writes.
package enum JSONOutput {
    /// Any encodable value as JSON text; compact (one line) when `pretty` is false.
    package static func text<T: Encodable>(_ value: T, pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let parsed = try? JSONParser.parse(Array(data)) else {
            preconditionFailure("the client's own output types always encode to valid JSON")
        }
        return pretty ? parsed.prettyPrinted() : parsed.description
    }
}
