import FontRegCore
import FontRegJSON
import Varlink

extension VarlinkError {
    /// The error in words a person can act on, for clients such as `fontresolve` to print.
    public var explanation: String {
        func text(_ key: String) -> String { parameters[key]?.stringValue ?? "?" }
        func list(_ key: String) -> [String] { (parameters[key]?.arrayValue ?? []).compactMap(\.stringValue) }
        typealias Name = RegistryInterface.ErrorName
        switch name {
        case Name.familyNotFound:
            // Which command lists the families is the client's advice (fontresolve's CLIAdvice).
            return ResolveError.familyNotFound(family: text("family"), suggestions: list("suggestions")).description
        case Name.noFaceInFamily:
            return "The family \"\(text("family"))\" has no face that can serve this query."
        case Name.faceNotFound:
            return "No registered face has the PostScript name \"\(text("postscriptName"))\"."
        case Name.invalidWeight:
            return
                "\"\(text("weight"))\" is not a weight: use a number from 1 to 1000 or one of \(list("acceptedNames").joined(separator: ", "))."
        case Name.invalidBoldPolicy:
            return
                "\"\(text("boldPolicy"))\" is not a Bold Text policy: use one of \(list("acceptedPolicies").joined(separator: ", "))."
        case Name.alreadyRegistered:
            if let within = parameters["within"]?.stringValue {
                return "\(text("path")) is inside the registered directory \(within); its fonts are served already."
            }
            return "\(text("path")) is already registered; its fonts are served, and read again when its files change."
        case Name.notRegistered:
            return "\(text("path")) is not registered."
        case Name.fileNotFound:
            return "\(text("path")) does not exist where fontregd runs."
        case Name.invalidFontData:
            return "\(text("path")) is not a usable font: \(text("reason"))."
        case Name.pathNotAllowed:
            return "\(text("reason")). Allowed roots: \(list("allowedRoots").joined(separator: ", "))."
        case Name.permissionDenied:
            return
                "uid \(parameters["uid"]?.intValue ?? -1) may not change the registry; run as root or ask for allow-uid/allow-gid in fontregd.conf."
        case Name.persistenceFailed:
            return
                "fontregd could not save the registration to \(text("path")) (\(text("reason"))); nothing was changed."
        case Name.persistedStateLimitReached:  // issue 24
            let maximum = parameters["maximum"]?.intValue ?? 0
            let held = parameters["requested"]?.intValue ?? 0
            let what =
                text("setting") == "max-persisted-bytes-per-user"
                ? "\(maximum) bytes of saved state (this change would make \(held))"
                : "\(maximum) saved entries (this change would make \(held))"
            return
                "fontregd keeps at most \(what) for each user: persistent registrations, disabled fonts and the Bold Text setting (its \(text("setting")) setting). Nothing was changed; unregister or enable something first, register without --persist, or ask the administrator to raise \(text("setting"))."
        case Name.messageTooLarge:
            return
                "The request is longer than fontregd accepts (\(parameters["limit"]?.intValue ?? 0) bytes); send smaller batches."
        case Name.tooManyConnections where parameters["scope"]?.stringValue == "uid":
            return
                "Your user already holds \(parameters["limit"]?.intValue ?? 0) connections to fontregd, the most one user may; close some and try again."
        case Name.tooManyConnections:
            return
                "fontregd is serving its maximum of \(parameters["limit"]?.intValue ?? 0) connections; try again later."
        case Name.invalidMessage:
            return "fontregd could not read the request: \(text("reason"))."
        case Name.textTooLong:  // issue 12
            return
                "The text has \(parameters["bytes"]?.intValue ?? 0) UTF-8 bytes; fontregd resolves at most \(parameters["limit"]?.intValue ?? 0) per call. Split it into paragraphs."
        case "org.varlink.service.InvalidParameter":
            if let bytes = parameters["maximumBytes"]?.intValue {
                return "The parameter \"\(text("parameter"))\" is longer than fontregd accepts (\(bytes) bytes)."
            }
            if let count = parameters["maximumCount"]?.intValue {
                return "The parameter \"\(text("parameter"))\" has more elements than fontregd accepts (\(count))."
            }
            return "The parameter \"\(text("parameter"))\" is unknown or of the wrong type."
        case "org.varlink.service.MethodNotFound":
            return "fontregd has no method \(text("method")); is it an older version?"
        // Issue 15 (OpenFace).
        case Name.faceAccessDenied:
            return
                "You could not open the file of \"\(text("postscriptName"))\" yourself (its directory or the file denies your user), so fontregd does not open it for you."
        case Name.faceFileUnavailable:
            return "The file of \"\(text("postscriptName"))\" cannot be opened as it was indexed: \(text("reason"))."
        case Name.tooManyDescriptors:
            return
                "This connection holds \(parameters["limit"]?.intValue ?? 0) descriptors it has not read; read the replies before asking for more."
        default:
            return description
        }
    }
}
