import FontRegCore
import FontRegProtocol
import Varlink

extension RegistryBackend {
    /// An embedded registry or a snapshot has no per-user Bold Text setting: the query's `boldText`
    /// is all there is, stated or not.
    package func resolve(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> ResolutionReply {
        try resolve(query)
    }

    /// As ``resolve(_:statingBoldText:)``: without a per-user setting the query's `boldText` decides.
    package func candidates(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> CandidateList {
        try candidates(query)
    }
}

extension DaemonBackend {
    /// Resolves with `boldText` sent even when off, so the caller's setting does not apply.
    package func resolve(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> ResolutionReply {
        try translating { (client) throws(VarlinkClientError) in
            try client.resolve(query, statingBoldText: statingBoldText)
        }
    }

    /// The candidates with `boldText` sent even when off, so the caller's setting does not apply.
    package func candidates(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> CandidateList {
        try translating { (client) throws(VarlinkClientError) in
            try client.candidates(query, statingBoldText: statingBoldText)
        }
    }
}
