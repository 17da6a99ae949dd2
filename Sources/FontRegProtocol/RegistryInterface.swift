/// Names of the registry's Varlink interface, its methods and its errors, in one place.
public enum RegistryInterface {
    /// The interface name.
    public static let name = "io.fontreg.Registry"

    /// The fully qualified name of a method or error of the interface.
    public static func qualified(_ member: String) -> String { "\(name).\(member)" }

    /// Error names, fully qualified; each is declared with its parameters in `io.fontreg.Registry.varlink`.
    public enum ErrorName {
        /// No registered family has the name asked for.
        public static let familyNotFound = qualified("FamilyNotFound")
        /// The family has no face that can serve the query.
        public static let noFaceInFamily = qualified("NoFaceInFamily")
        /// No face has the PostScript name asked for.
        public static let faceNotFound = qualified("FaceNotFound")
        /// The weight is neither a number in 1...1000 nor a known name.
        public static let invalidWeight = qualified("InvalidWeight")
        /// The Bold Text policy name is unknown.
        public static let invalidBoldPolicy = qualified("InvalidBoldPolicy")
        /// The path is already registered.
        public static let alreadyRegistered = qualified("AlreadyRegistered")
        /// The path is not registered.
        public static let notRegistered = qualified("NotRegistered")
        /// The path does not exist.
        public static let fileNotFound = qualified("FileNotFound")
        /// The file is not a usable font.
        public static let invalidFontData = qualified("InvalidFontData")
        /// The path is outside the directories the daemon may register.
        public static let pathNotAllowed = qualified("PathNotAllowed")
        /// The caller may not do this, or the daemon may not read the path.
        public static let permissionDenied = qualified("PermissionDenied")
        /// The change was made but could not be saved for the next start.
        public static let persistenceFailed = qualified("PersistenceFailed")
        /// The change would take the caller past their share of the persisted state (issue 24).
        public static let persistedStateLimitReached = qualified("PersistedStateLimitReached")
        /// The message is longer than the daemon accepts.
        public static let messageTooLarge = qualified("MessageTooLarge")
        /// The daemon has as many connections as it accepts.
        public static let tooManyConnections = qualified("TooManyConnections")
        /// The message is not a valid Varlink call.
        public static let invalidMessage = qualified("InvalidMessage")
        // Issue 15: enable/disable.
        /// Nothing disabled matches what `Enable` named.
        public static let notDisabled = qualified("NotDisabled")
        // Issue 12 (fallback by coverage):
        /// The text of `ResolveText` is longer than one call takes.
        public static let textTooLong = qualified("TextTooLong")
    }
}
