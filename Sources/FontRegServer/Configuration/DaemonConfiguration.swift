import FontRegService
import Foundation

/// Everything `fontregd` can be told, from its config file and its command line.
///
/// Every setting has one name, used as `--name VALUE` on the command line and as
/// `name = VALUE` in the config file; settings that take a list may be repeated.
/// The command line wins over the file: a list given on the command line replaces the file's.
package struct DaemonConfiguration: Sendable, Hashable {
    /// Where the daemon listens when it is not socket-activated.
    package var socketPath = "/run/fontreg/fontregd.sock"
    /// The socket's permissions: open to every local user by default (queries are read-only).
    package var socketMode: UInt32 = 0o666
    /// Font directories, scanned recursively.
    package var fontDirectories = ["/usr/share/fontreg/fonts"]
    /// The directory of family rules, if any.
    package var rulesDirectory: String?
    /// Where registrations made with `persist` are kept.
    package var stateDirectory = "/var/lib/fontreg"
    /// fontconfig's cache for the daemon's private configuration.
    package var cacheDirectory = "/var/cache/fontreg"
    /// The config file read at start and on SIGHUP.
    package var configFile = "/etc/fontreg/fontregd.conf"
    /// Whether the config file was named explicitly (then it must exist).
    package var configFileGiven = false
    /// Whether fontconfig's system fonts are indexed too.
    package var includeSystemFonts = true
    /// Who may call Register, Unregister and Rescan.
    package var access = AccessPolicy()
    /// Directories inside which Register accepts paths (after resolving symlinks).
    package var allowedRoots = [
        "/usr/share/fonts", "/usr/local/share/fonts", "/usr/share/fontreg/fonts", "/var/lib/fontreg/fonts",
    ]
    /// Message size, connection and idle limits.
    package var limits = ServerLimits()

    /// The limits the server runs with: ``limits``, with the uids allowed to change the registry
    /// and groups (``access``) given the administrators' connection reserve.
    var serverLimits: ServerLimits {
        var limits = self.limits
        limits.privilegedUIDs = access.allowedUIDs.union([0])
        limits.privilegedGIDs = access.allowedGIDs
        return limits
    }
    /// Event-loop threads.
    package var threads = 2
    /// Whether font directories are watched with inotify.
    package var watch = true
    /// How long to wait after the last change in a watched directory before rescanning, in milliseconds.
    package var debounceMilliseconds = 500
    /// Font files larger than this many MiB are reported as problems and never read.
    var fontSizeLimitMiB = 64
    /// Whether to print debug lines (each connection).
    package var verbose = false
    /// Whether fonts are parsed in sandboxed worker processes (the default) or in the daemon itself (issue 15).
    var parseSandboxed = true
    /// The unprivileged user the font-parsing workers run as.
    var parseWorkerUser = "nobody"
    /// How long one font file may take to parse before its worker is killed, in seconds.
    var parseTimeoutSeconds = 5.0
    /// Users' own fonts and the Bold Text default (issue 15).
    package var platform = PlatformSettings()
    /// The fontconfig configuration the daemon keeps so that every fontconfig application sees
    /// the registry (issue 28), or `nil` for none: ``defaultFontconfigConfig`` unless set.
    package var fontconfigConfig: String? = DaemonConfiguration.defaultFontconfigConfig()

    /// The bridge file by default: `fontreg.conf` in the runtime directory systemd gives the
    /// service (`RuntimeDirectory=fontreg/fontconfig` in the shipped unit, so
    /// `/run/fontreg/fontconfig/fontreg.conf`); none for a daemon started by hand, which should
    /// not change what every fontconfig application on the machine sees unless told to.
    ///
    /// - Parameter environment: the process environment (`RUNTIME_DIRECTORY`, set by systemd).
    /// - Returns: the path, or `nil`.
    package static func defaultFontconfigConfig(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        // systemd lists several runtime directories separated by colons; the unit names one.
        guard let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, runtime.hasPrefix("/")
        else { return nil }
        return runtime + "/fontreg.conf"
    }

    /// The defaults; an installed binary's font and rules directories follow its prefix (``InstallLayout``).
    package init() {
        self.init(layout: InstallLayout.current)
    }

    /// The defaults for an install with this layout (nil: the plain `/usr/share/fontreg` defaults).
    ///
    /// - Parameter layout: where the install keeps its bundled fonts and rules.
    package init(layout: InstallLayout?) {
        guard let layout else { return }
        fontDirectories = [layout.fontsDirectory]
        rulesDirectory = layout.rulesDirectory
        if let file = layout.configFile { configFile = file }
        if !allowedRoots.contains(layout.fontsDirectory) { allowedRoots.append(layout.fontsDirectory) }
    }

    /// Every setting: its name, the value it takes, and what it does, for `--help` and the config file.
    package static let settings: [(name: String, value: String, help: String)] = [
        ("socket", "PATH", "Unix socket to listen on when not socket-activated (default /run/fontreg/fontregd.sock)"),
        ("socket-mode", "OCTAL", "permissions of that socket (default 0666: every local user may query)"),
        (
            "fonts", "DIR",
            "font directory, scanned recursively; repeat for more (default PREFIX/share/fontreg/fonts of the install, else /usr/share/fontreg/fonts)"
        ),
        ("rules", "DIR", "directory of family rules (default PREFIX/share/fontreg/rules of the install, if present)"),
        ("state-dir", "DIR", "where persisted registrations are kept (default /var/lib/fontreg)"),
        (
            "cache-dir", "DIR",
            "where the face cache is kept, so unchanged fonts are not read again (default /var/cache/fontreg)"
        ),
        ("config", "FILE", "config file of 'name = value' lines with these names (default /etc/fontreg/fontregd.conf)"),
        ("system-fonts", "yes|no", "also index fontconfig's system fonts (default yes; --no-system-fonts = no)"),
        ("allow-uid", "UID", "uid allowed to Register, Unregister, Rescan; repeat for more (default 0)"),
        ("allow-gid", "GID", "gid allowed to Register, Unregister, Rescan; repeat for more (default none)"),
        (
            "allow-root", "DIR",
            "directory inside which Register accepts paths; repeat for more (default /usr/share/fonts, /usr/local/share/fonts, /usr/share/fontreg/fonts, /var/lib/fontreg/fonts)"
        ),
        (
            "max-message-size", "BYTES",
            "longest message accepted; longer ones get MessageTooLarge and are disconnected (default 1048576)"
        ),
        ("max-connections", "N", "connections served at once (default 1024)"),
        (
            "max-connections-per-uid", "N",
            "connections one user may hold; root, allow-uid users and allow-gid members are exempt and keep a reserve of 8 (default 128)"
        ),
        (
            "idle-timeout", "SECONDS",
            "close connections silent this long with no call in progress, or this slow to send one message; 0 = never (default 300)"
        ),
        ("threads", "N", "event-loop threads (default 2)"),
        ("watch", "yes|no", "watch font directories with inotify and rescan after changes (default yes)"),
        ("debounce-ms", "MS", "wait this long after the last change before rescanning (default 500)"),
        ("font-size-limit", "MIB", "font files larger than this are reported and never read (default 64)"),
        ("verbose", "yes|no", "log every connection (default no; --verbose alone = yes)"),
        (
            "parse-fonts", "sandboxed|in-process",
            "parse font files in unprivileged, seccomp-confined worker processes (default sandboxed)"
        ),
        ("parse-worker-user", "USER", "the user the font-parsing workers run as (default nobody)"),
        (
            "parse-timeout", "SECONDS",
            "CPU time one font file may take to parse; then it is a problem (default 5)"
        ),
        // Issue 15: users' own fonts and Bold Text.
        (
            "user-fonts", "yes|no",
            "let every local user register fonts they own inside their user-font-root directories (default yes)"
        ),
        (
            "user-font-root", "DIR",
            "where users may register their own fonts; ~ is the user's home from the user database; repeat for more (default ~/.local/share/fonts, ~/.fonts)"
        ),
        (
            "share-user-fonts", "yes|no",
            "show users' own fonts to every user's queries, not only the owner's (default no)"
        ),
        // Issue 24: each user's share of the persisted state.
        (
            "max-persisted-per-user", "N",
            "persistent registrations, disabled entries and Bold Text settings one user may keep; root and allow-uid/allow-gid administrators have no limit (default 256)"
        ),
        (
            "max-persisted-bytes-per-user", "BYTES",
            "bytes of the state file those entries of one user may take; administrators have no limit (default 262144)"
        ),
        (
            "bold-text", "yes|no",
            "Bold Text for users who have not set their own with fontresolve bold-text (default no)"
        ),
        (
            "bold-policy", "POLICY",
            "Bold Text policy of queries that name none: next-heavier, ios-system, android or css-bolder (default the family rule's)"
        ),
        // Issue 28: the fontconfig bridge.
        (
            "fontconfig-config", "FILE|no",
            "keep FILE a fontconfig configuration showing every fontconfig application the registry; link it into /etc/fonts/conf.d (default $RUNTIME_DIRECTORY/fontreg.conf under systemd, the shipped unit's /run/fontreg/fontconfig/fontreg.conf; else no)"
        ),
    ]

    /// The `--help` text.
    static var helpText: String {
        var text = """
            Usage: fontregd [--socket PATH] [--fonts DIR]... [--rules DIR] [--state-dir DIR]
                            [--config FILE] [--no-system-fonts] [OPTION VALUE]...

            The fontreg daemon: serves the font registry over Varlink (interface
            io.fontreg.Registry) on a Unix socket. Runs in the foreground and logs to
            standard error. Under systemd it is socket-activated (fontregd.socket) and
            reports readiness with sd_notify. SIGHUP reloads the config file and rules
            and rescans; SIGTERM finishes in-flight calls and exits.

            Options (each may also be set in the config file as 'name = value'; '#'
            starts a comment, on a line of its own or after a value). Relative paths on
            the command line are taken from the working directory.

            """
        for setting in settings {
            let flag = "  --\(setting.name) \(setting.value)"
            text += flag.padding(toLength: max(flag.count + 2, 30), withPad: " ", startingAt: 0) + setting.help + "\n"
        }
        text += """
              --no-system-fonts           same as --system-fonts no (likewise --no-watch, --no-verbose)
              --watch, --verbose          a yes|no setting given alone means yes
              --help                      print this help and exit
              --version                   print the version and exit

            Exit status: 0 after SIGTERM, 64 for a usage or config error, 69 when the
            socket or the font index cannot be set up, 1 for other failures.

            """
        return text
    }
}
