import FontRegCore
import FontRegJSON
import FontRegProtocol
import Varlink

extension RegistryService {
    /// The Varlink error for a resolver error.
    static func varlinkError(_ error: ResolveError) -> VarlinkError {
        switch error {
        case .familyNotFound(let family, let suggestions):
            return VarlinkError(
                RegistryInterface.ErrorName.familyNotFound,
                ["family": .string(family), "suggestions": .array(suggestions.map { .string($0) })])
        case .noFaceInFamily(let family):
            return VarlinkError(RegistryInterface.ErrorName.noFaceInFamily, ["family": .string(family)])
        }
    }

    /// The Varlink error for a registry error.
    static func varlinkError(_ error: RegistryError) -> VarlinkError {
        switch error {
        case .fileNotFound(let path):
            return VarlinkError(RegistryInterface.ErrorName.fileNotFound, ["path": .string(path)])
        case .alreadyRegistered(let path, let within):
            var parameters: [String: JSONValue] = ["path": .string(path)]
            if let within { parameters["within"] = .string(within) }
            return VarlinkError(RegistryInterface.ErrorName.alreadyRegistered, parameters)
        case .notRegistered(let path):
            return VarlinkError(RegistryInterface.ErrorName.notRegistered, ["path": .string(path)])
        case .invalidFontData(let path, let reason):
            return VarlinkError(
                RegistryInterface.ErrorName.invalidFontData, ["path": .string(path), "reason": .string(reason)])
        case .permissionDenied(let path):
            return VarlinkError(
                RegistryInterface.ErrorName.invalidFontData,
                ["path": .string(path), "reason": "the daemon's user may not read it (permission denied)"])
        }
    }

    /// The Varlink error for a refused path.
    static func varlinkError(_ refusal: PathRefusal, allowedRoots: [String]) -> VarlinkError {
        if case .notFound(let path) = refusal {
            return VarlinkError(RegistryInterface.ErrorName.fileNotFound, ["path": .string(path)])
        }
        return VarlinkError(
            RegistryInterface.ErrorName.pathNotAllowed,
            [
                "path": .string(refusal.path), "reason": .string(refusal.description),
                "allowedRoots": .array(allowedRoots.map { .string($0) }),
            ])
    }
}
