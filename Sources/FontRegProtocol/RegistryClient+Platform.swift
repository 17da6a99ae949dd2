import FontRegCore
import FontRegJSON
import Varlink

/// Issue 15's calls: enable/disable and the Bold Text setting.
extension RegistryClient {
    /// Disables a face, a file or a family without unregistering it.
    ///
    /// - Parameters:
    ///   - target: a PostScript name, an absolute path, or a family name.
    ///   - kind: `face`, `file` or `family`; `nil` lets the daemon decide.
    /// - Returns: what was disabled and the faces it covers.
    @discardableResult
    public func disable(_ target: String, kind: String? = nil) throws(VarlinkClientError) -> EnablementReport {
        try enablement("Disable", target, kind: kind)
    }

    /// Enables what ``disable(_:kind:)`` disabled.
    @discardableResult
    public func enable(_ target: String, kind: String? = nil) throws(VarlinkClientError) -> EnablementReport {
        try enablement("Enable", target, kind: kind)
    }

    /// Sets the caller's own Bold Text setting; `nil` goes back to the daemon's default.
    @discardableResult
    public func setBoldText(_ on: Bool?) throws(VarlinkClientError) -> BoldTextSetting {
        let reply = try call("SetBoldText", ["boldText": on.map { .bool($0) } ?? .null], change: true)
        return try boldTextSetting(reply, method: "SetBoldText")
    }

    /// The caller's Bold Text setting and where it comes from.
    public func boldText() throws(VarlinkClientError) -> BoldTextSetting {
        try boldTextSetting(call("GetBoldText"), method: "GetBoldText")
    }

    /// The disabled faces the caller could see, of one family or of all (`ListFaces`' `disabled`).
    public func disabledFaces(family: String? = nil) throws(VarlinkClientError) -> [FaceRecord] {
        let reply = try call("ListFaces", family.map { ["family": .string($0)] } ?? [:])
        return reply["disabled"] == nil ? [] : try faces(reply["disabled"], method: "ListFaces")
    }

    private func enablement(_ method: String, _ target: String, kind: String?) throws(VarlinkClientError)
        -> EnablementReport
    {
        var parameters: [String: JSONValue] = ["target": .string(target)]
        if let kind { parameters["kind"] = .string(kind) }
        let reply = try call(method, parameters, change: true)
        guard let kind = reply["kind"]?.stringValue, let target = reply["target"]?.stringValue else {
            throw Self.unreadableReply(method)
        }
        return EnablementReport(kind: kind, target: target, faces: try faces(reply["faces"], method: method))
    }

    private func boldTextSetting(_ reply: [String: JSONValue], method: String) throws(VarlinkClientError)
        -> BoldTextSetting
    {
        guard case .bool(let on)? = reply["boldText"], let source = reply["source"]?.stringValue else {
            throw Self.unreadableReply(method)
        }
        return BoldTextSetting(boldText: on, source: source, boldPolicy: reply["boldPolicy"]?.stringValue)
    }
}
