import FontRegCore
import FontRegJSON

extension ResolveQuery {
    /// The query as `Resolve`'s parameters (and one element of `ResolveMany`'s `queries`).
    ///
    /// Flags that are off are left out, so the message stays short.
    var varlinkParameters: [String: JSONValue] { varlinkParameters(statingBoldText: false) }

    /// The query as `Resolve`'s parameters; with `statingBoldText`, `boldText` is sent even when off,
    /// so the daemon does not use the caller's Bold Text setting (issue 15).
    func varlinkParameters(statingBoldText: Bool) -> [String: JSONValue] {
        var parameters: [String: JSONValue] = ["family": .string(family), "weight": .string(String(weight.value))]
        if italic { parameters["italic"] = true }
        if boldText || statingBoldText { parameters["boldText"] = .bool(boldText) }
        if let boldPolicy { parameters["boldPolicy"] = .string(boldPolicy.rawValue) }
        if strict { parameters["strict"] = true }
        if style != .normal && style != .italic { parameters["style"] = .string(style.description) }
        if let width { parameters["width"] = .string(FontWidth.describe(width)) }
        if let opticalSize { parameters["opticalSize"] = .double(opticalSize) }
        if synthesis != .all { parameters["synthesis"] = .string(synthesis.description) }
        return parameters
    }
}
