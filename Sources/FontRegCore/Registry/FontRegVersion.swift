/// The version of fontreg, reported by `GetInfo`, `GetStatus` and `--version`.
public enum FontRegVersion {
    /// The version of this build.
    public static let current = "0.1.0"
    /// The date of this version (ISO 8601), shown in the man pages and the Debian changelog.
    public static let date = "2026-12-01"
}
