import FontRegCore
import FontRegProtocol
import Varlink

extension VarlinkServiceInfo {
    /// fontregd's own description.
    package static let fontregd = VarlinkServiceInfo(
        vendor: "fontreg", product: "fontregd", version: FontRegVersion.current,
        url: "https://fontreg.io")
}

extension VarlinkInterfaceDescription {
    /// The registry interface, `io.fontreg.Registry`, embedded from `io.fontreg.Registry.varlink`.
    package static let registry = VarlinkInterfaceDescription(
        name: RegistryInterface.name,
        text: String(decoding: PackageResources.io_fontreg_Registry_varlink, as: UTF8.self))
}
