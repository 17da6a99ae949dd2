import FontRegJSON

/// Answers the `org.varlink.service` introspection methods for a set of interfaces.
package struct VarlinkIntrospection: Sendable {
    /// What `GetInfo` reports.
    package let info: VarlinkServiceInfo
    /// Every interface served, `org.varlink.service` included.
    package let interfaces: [VarlinkInterfaceDescription]

    /// - Parameters:
    ///   - info: the service description.
    ///   - interfaces: the service's own interfaces; `org.varlink.service` is added first.
    package init(info: VarlinkServiceInfo, interfaces: [VarlinkInterfaceDescription]) {
        self.info = info
        self.interfaces = [.service] + interfaces.filter { $0.name != VarlinkInterfaceDescription.service.name }
    }

    /// Whether the service has an interface of this name.
    package func serves(_ interface: String) -> Bool {
        interfaces.contains { $0.name == interface }
    }

    /// Answers a call to `org.varlink.service`.
    ///
    /// - Returns: the reply parameters.
    /// - Throws: the Varlink error to send back (`MethodNotFound`, `InvalidParameter`, `InterfaceNotFound`).
    package func handle(_ call: VarlinkCall) throws(VarlinkError) -> [String: JSONValue] {
        switch call.methodName {
        case "GetInfo":
            _ = try ParameterReader(call, allowed: [])
            return [
                "vendor": .string(info.vendor), "product": .string(info.product),
                "version": .string(info.version), "url": .string(info.url),
                "interfaces": .array(interfaces.map { .string($0.name) }),
            ]
        case "GetInterfaceDescription":
            let reader = try ParameterReader(call, allowed: ["interface"])
            let name = try reader.string("interface")
            guard let interface = interfaces.first(where: { $0.name == name }) else {
                throw VarlinkError.interfaceNotFound(name)
            }
            return ["description": .string(interface.text)]
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }
}
