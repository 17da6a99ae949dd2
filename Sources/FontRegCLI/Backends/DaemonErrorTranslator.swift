import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

/// Turns what the daemon and the socket say into sentences a person can act on, with the right exit status.
package struct DaemonErrorTranslator: Sendable {
    /// The socket, named in the sentences.
    package var socketPath: String

    package init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// The command error for a client error.
    package func translate(_ error: VarlinkClientError) -> CLIError {
        switch error {
        case .cannotConnect(_, let system):
            return connectError(errno: system.errno)
        case .connectionClosed:
            return .daemonUnreachable(
                socket: socketPath,
                reason: "the daemon closed the connection before replying (see its log: journalctl -u fontregd)")
        case .timedOut(let seconds):
            return .daemonUnreachable(
                socket: socketPath, reason: "no reply within \(Int(seconds)) s; the daemon may be overloaded or stuck")
        case .io(let system):
            return .daemonUnreachable(socket: socketPath, reason: "the connection failed (\(system))")
        case .malformedReply(.invalidField(name: "parameters", let expected)):
            // RegistryClient.unreadableReply: valid Varlink, but not the reply this version expects.
            return .failed(
                "fontregd at \(socketPath) sent \(expected) this fontresolve cannot read; are both the same version?")
        case .malformedReply(let problem):
            return .failed(
                "fontregd at \(socketPath) sent a reply that is not valid Varlink (\(problem)); is it a fontregd socket?"
            )
        case .remote(let remote):
            return translate(remote)
        }
    }

    /// The command error for a failed `connect`.
    func connectError(errno code: Errno) -> CLIError {
        if code != .noSuchFileOrDirectory, let status = try? Syscall.status(ofPath: socketPath, followLinks: true),
            status.kind != .socket
        {
            let kind = status.kind == .directory ? "a directory" : "not a socket but a file"
            return .daemonUnreachable(
                socket: socketPath,
                reason:
                    "the path is \(kind); give fontregd's socket with --socket PATH or \(SocketLocator.environmentVariable)=PATH (fontregd --help shows where it listens)"
            )
        }
        switch code {
        case .permissionDenied, .notPermitted:
            return .permissionDenied(
                """
                you may not connect to fontregd at \(socketPath) (permission denied): the socket or its \
                directory is closed to your user. Run as a user who may (the daemon's --socket-mode and \
                the directory's permissions decide), or run without a daemon with --fonts DIR.
                """)
        case .noSuchFileOrDirectory, .notDirectory:
            return .daemonUnreachable(
                socket: socketPath, reason: "no socket there; the daemon is not running, or listens elsewhere")
        case .connectionRefused:
            return .daemonUnreachable(
                socket: socketPath, reason: "nothing listens on the socket; the daemon has stopped")
        default:
            return .daemonUnreachable(socket: socketPath, reason: code.message)
        }
    }

    /// The command error for an error reply of the registry interface.
    package func translate(_ error: VarlinkError) -> CLIError {
        let p = error.parameters
        func string(_ key: String) -> String { p[key]?.stringValue ?? "?" }
        func strings(_ key: String) -> [String] { (p[key]?.arrayValue ?? []).compactMap(\.stringValue) }
        let names = RegistryInterface.ErrorName.self
        switch error.name {
        case names.familyNotFound:
            return .notFound(
                CLIAdvice.message(
                    ResolveError.familyNotFound(family: string("family"), suggestions: strings("suggestions"))))
        case names.noFaceInFamily:
            return .notFound(CLIAdvice.message(ResolveError.noFaceInFamily(family: string("family"))))
        case names.faceNotFound:
            return .notFound(
                "No registered face has the PostScript name \"\(string("postscriptName"))\". List the faces of a family with `fontresolve list FAMILY`."
            )
        case names.invalidWeight:
            return .usage(
                "fontresolve: unknown weight \"\(string("weight"))\"; use a number from 1 to 1000 or one of: \(strings("acceptedNames").joined(separator: ", "))",
                usage: ResolveCommand.spec.usage)
        case names.invalidBoldPolicy:
            return .usage(
                "fontresolve: unknown Bold Text policy \"\(string("boldPolicy"))\"; use one of: \(strings("acceptedPolicies").joined(separator: ", "))",
                usage: ResolveCommand.spec.usage)
        case names.alreadyRegistered:
            // Whoever asked, there is nothing to do: the daemon watches registered files. Only
            // administrators may force a re-read, so the advice names who may.
            return .failed(
                CLIAdvice.message(
                    RegistryError.alreadyRegistered(path: string("path"), within: p["within"]?.stringValue))
                    + " fontregd watches it; an administrator can force a re-read with `fontresolve rescan`.")
        case names.notRegistered:
            return .notFound(CLIAdvice.message(RegistryError.notRegistered(path: string("path"))))
        case names.fileNotFound:
            return .notFound(
                "\(string("path")): no such file or directory where fontregd runs. Check the path; the daemon reads it itself."
            )
        case names.invalidFontData:
            return .failed(
                CLIAdvice.message(RegistryError.invalidFontData(path: string("path"), reason: string("reason"))))
        case names.pathNotAllowed:
            let roots = strings("allowedRoots")
            return .permissionDenied(
                """
                fontregd refuses \(string("path")): \(string("reason")). It registers only paths inside \
                \(roots.isEmpty ? "the directories it is configured with" : roots.joined(separator: ", ")). \
                Move the fonts there, or ask the administrator to add an allow-root line to /etc/fontreg/fontregd.conf.
                """)
        case names.permissionDenied:
            let method = string("method").split(separator: ".").last.map(String.init) ?? "this change"
            let uid = p["uid"]?.intValue.map(String.init) ?? "?"
            let gid = p["gid"]?.intValue.map(String.init) ?? "?"
            return .permissionDenied(
                """
                fontregd refused \(method) to your user (uid \(uid), gid \(gid)): only the users and groups \
                in its allow-uid and allow-gid settings may change the registry; other users may register, \
                unregister, enable and disable only their own fonts, in ~/.local/share/fonts or ~/.fonts \
                (its user-font-root settings). Run the command as one of them (for example with sudo), or \
                ask the administrator to allow you.
                """)
        case "org.varlink.service.PermissionDenied":
            return .permissionDenied(
                "fontregd at \(socketPath) refused the call (permission denied). Run the command as a user the daemon allows, for example with sudo."
            )
        case names.notDisabled:
            return .notFound("\(string("target")) is not disabled (fontresolve status lists what is).")
        case names.persistenceFailed:
            return .failed(
                "fontregd could not save the registration to \(string("path")) (\(string("reason"))); nothing was changed. Check the daemon's state directory (its --state-dir), or register without --persist."
            )
        case names.persistedStateLimitReached:  // issue 24
            return .failed(error.explanation)
        default:
            return translateProtocolError(error)
        }
    }

    /// The command error for a limit or protocol error reply (connections, message size, malformed
    /// or unknown calls), or any other error the registry interface does not name.
    func translateProtocolError(_ error: VarlinkError) -> CLIError {
        let p = error.parameters
        func string(_ key: String) -> String { p[key]?.stringValue ?? "?" }
        let names = RegistryInterface.ErrorName.self
        switch error.name {
        case names.tooManyConnections:
            let limit = p["limit"]?.intValue ?? 0
            if p["scope"]?.stringValue == "uid" {
                return .daemonBusy(
                    socket: socketPath,
                    reason: "your user already holds \(limit) connections, the most one user may; close some")
            }
            return .daemonBusy(socket: socketPath, reason: "it already serves its limit of \(limit) connections")
        case names.messageTooLarge:
            return .failed(
                "the request is larger than fontregd accepts (\(p["limit"]?.intValue ?? 0) bytes); register fewer paths at a time."
            )
        case names.invalidMessage:
            return .failed(
                "fontregd rejected the message as malformed (\(string("reason"))); this is a bug, please report it with the command line."
            )
        case "org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound",
            "org.varlink.service.MethodNotImplemented", "org.varlink.service.InvalidParameter":
            return .failed(
                "fontregd at \(socketPath) does not understand this call (\(error)); it is probably older or newer than this fontresolve: update both to the same version."
            )
        // Issue 15 (OpenFace).
        case names.faceAccessDenied:
            return .permissionDenied(error.explanation)
        case names.faceFileUnavailable, names.tooManyDescriptors:
            return .failed(error.explanation)
        default:
            return .failed("fontregd answered with an error: \(error)")
        }
    }
}
