import FontRegSystem

/// Where an installed `fontregd` finds the fonts and rules installed beside it.
///
/// `scripts/install.sh` and the Debian package put the binary in `PREFIX/bin` and the bundled
/// fonts and rules in `PREFIX/share/fontreg/{fonts,rules}`. The daemon's defaults follow the
/// prefix its own executable lives under, so an install under `/usr/local` serves its own fonts
/// without a config file. A binary run from a build directory has no such layout and keeps the
/// plain defaults (`/usr/share/fontreg/fonts`, no rules).
package struct InstallLayout: Sendable, Hashable {
    /// The bundled font directory of the install.
    package var fontsDirectory: String
    /// The bundled rules directory of the install, when it exists.
    package var rulesDirectory: String?
    /// The config file of an install outside `/usr` and `/usr/local` (`PREFIX/etc/fontreg/fontregd.conf`),
    /// where `scripts/install.sh` puts it; nil for those two, whose file is `/etc/fontreg/fontregd.conf`.
    package var configFile: String?

    /// The layout around the running executable, if it is installed in `PREFIX/bin` or `PREFIX/sbin`.
    package static let current: InstallLayout? = executablePath().flatMap { around(executable: $0) }

    /// The layout around an executable path, if `PREFIX/share/fontreg/fonts` exists beside its `bin`.
    ///
    /// - Parameter executable: the absolute path of the `fontregd` binary.
    /// - Returns: the install's directories, or nil when the binary is not part of an install.
    package static func around(executable: String) -> InstallLayout? {
        var components = executable.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard components.count >= 2, ["bin", "sbin"].contains(components[components.count - 2]) else { return nil }
        components.removeLast(2)
        let prefix = "/" + components.joined(separator: "/")
        let share = (prefix == "/" ? "" : prefix) + "/share/fontreg"
        guard isDirectory(share + "/fonts") else { return nil }
        let systemPrefix = ["/usr", "/usr/local"].contains(prefix)
        return InstallLayout(
            fontsDirectory: share + "/fonts", rulesDirectory: isDirectory(share + "/rules") ? share + "/rules" : nil,
            configFile: systemPrefix ? nil : prefix + "/etc/fontreg/fontregd.conf")
    }

    private static func executablePath() -> String? {
        guard let path = try? Syscall.linkText(ofPath: "/proc/self/exe"), !path.isEmpty else { return nil }
        return path
    }

    private static func isDirectory(_ path: String) -> Bool {
        (try? Syscall.status(ofPath: path, followLinks: true))?.kind == .directory
    }
}
