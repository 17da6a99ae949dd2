import FontRegCore
import FontRegJSON
import FontRegSystem
import Varlink

/// Names of the registry's Varlink interface, its methods and its errors, in one place.
public enum RegistryInterface {
    /// The interface name.
    public static let name = "io.fontreg.Registry"

    /// The fully qualified name of a method or error of the interface.
    public static func qualified(_ member: String) -> String { "\(name).\(member)" }

    /// Error names, fully qualified; each is declared with its parameters in `io.fontreg.Registry.varlink`.
    public enum ErrorName {
        public static let familyNotFound = qualified("FamilyNotFound")
        public static let noFaceInFamily = qualified("NoFaceInFamily")
        public static let faceNotFound = qualified("FaceNotFound")
        public static let invalidWeight = qualified("InvalidWeight")
        public static let invalidBoldPolicy = qualified("InvalidBoldPolicy")
        public static let alreadyRegistered = qualified("AlreadyRegistered")
        public static let notRegistered = qualified("NotRegistered")
        public static let fileNotFound = qualified("FileNotFound")
        public static let invalidFontData = qualified("InvalidFontData")
        public static let pathNotAllowed = qualified("PathNotAllowed")
        public static let permissionDenied = qualified("PermissionDenied")
        public static let persistenceFailed = qualified("PersistenceFailed")
        public static let messageTooLarge = qualified("MessageTooLarge")
        public static let tooManyConnections = qualified("TooManyConnections")
        public static let invalidMessage = qualified("InvalidMessage")
    }
}
