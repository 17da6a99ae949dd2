import FontRegProtocol
import Varlink

extension RegistryService {
    /// The io.fontreg errors the server sends when a client breaks one of its limits
    /// (declared in `io.fontreg.Registry.varlink`); the Varlink layer itself knows no such names.
    package static let limitErrors = VarlinkLimitErrors(
        messageTooLarge: RegistryInterface.ErrorName.messageTooLarge,
        invalidMessage: RegistryInterface.ErrorName.invalidMessage,
        tooManyConnections: RegistryInterface.ErrorName.tooManyConnections)
}
