/// The exit statuses of `fontresolve`, from the sysexits convention.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The command did what was asked.
    case success = 0
    /// Not found (family, face, path), a refused change, or an incomplete audit.
    case failure = 1
    /// `audit` only: an input file cannot be read.
    case auditInputUnreadable = 2
    /// A `--fonts` or `--rules` path that does not exist (`EX_NOINPUT`), for every command.
    case noInput = 66
    /// Bad usage: an unknown option, a missing argument, a weight that is not a weight (`EX_USAGE`).
    case usage = 64
    /// `audit` only: no input holds a text style, so nothing was audited (`EX_DATAERR`).
    case dataError = 65
    /// The daemon cannot be reached (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// `audit` only: the `--report` file cannot be written (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// Standard output could not be written (a full disk, an I/O error; `EX_IOERR`). A reader
    /// that went away (`EPIPE`) is not an error: nobody is left to read the rest.
    case outputError = 74
    /// The daemon or the socket refused permission (`EX_NOPERM`).
    case permissionDenied = 77
}
