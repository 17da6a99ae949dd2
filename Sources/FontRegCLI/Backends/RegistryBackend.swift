import FontRegCore
import FontRegProtocol

/// The registry a command talks to: the daemon over its socket, or an embedded registry in process.
///
/// Both answer with the same values, so every command prints the same output in either mode.
package protocol RegistryBackend: AnyObject {
    /// Resolves a query, as `Resolve` does.
    func resolve(_ query: ResolveQuery) throws(CLIError) -> ResolutionReply
    /// The query's family's faces in CSS order, as `Candidates` does.
    func candidates(_ query: ResolveQuery) throws(CLIError) -> CandidateList
    /// Resolves a query that states Bold Text off (`--no-bold-text`) or on, over any per-user setting.
    func resolve(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> ResolutionReply
    /// The candidates of a query that states Bold Text, over any per-user setting.
    func candidates(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> CandidateList
    /// The registered families, sorted by name.
    func families() throws(CLIError) -> [FamilySummary]
    /// The faces of one family (by any spelling of its name), or every face when `family` is `nil`.
    func faces(family: String?) throws(CLIError) -> [FaceRecord]
    /// The face with this PostScript name, ignoring case.
    func face(postscriptName: String) throws(CLIError) -> FaceRecord
    /// Registers files or directories (absolute paths).
    func register(paths: [String], persist: Bool) throws(CLIError) -> RegistrationReport
    /// Unregisters files or directories registered before (absolute paths).
    func unregister(paths: [String]) throws(CLIError) -> RegistrationReport
    /// Re-reads every registered directory and file.
    func rescan() throws(CLIError) -> RegistrationReport
    /// The family rules in force (the daemon's `ListRules`, or the embedded registry's `--rules`).
    func rules() throws(CLIError) -> RuleSet
    /// Counts, paths and problems of the registry.
    func status() throws(CLIError) -> RegistryStatus
    /// Calls `body` with the current state, then with every change, until it returns `false`.
    func watch(_ body: (RegistryEvent) -> Bool) throws(CLIError)
    /// Splits a text into runs with their faces, as `ResolveText` does (issue 12).
    /// With `statingBoldText`, an off `boldText` is sent as `false` (`--no-bold-text`), so the
    /// caller's Bold Text setting does not apply.
    func resolveText(_ text: String, _ query: TextQuery, explain: Bool, statingBoldText: Bool) throws(CLIError)
        -> TextReply
    /// What a face does not cover of a text, as `FaceCoverage` does (issue 12).
    func faceCoverage(postscriptName: String, text: String) throws(CLIError) -> FaceCoverageReply
}

extension RegistryBackend {
    /// Splits a text into runs, leaving an off `boldText` unsaid (the caller's setting applies).
    package func resolveText(_ text: String, _ query: TextQuery, explain: Bool) throws(CLIError) -> TextReply {
        try resolveText(text, query, explain: explain, statingBoldText: false)
    }
}
