import FontRegJSON
import FontRegSystem

/// The version of fontreg, reported by `GetInfo`, `GetStatus` and `--version`.
public enum FontRegVersion {
    /// The version of this build.
    public static let current = "0.1.0"
}
