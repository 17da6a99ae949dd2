/// Resolves queries against a ``MappedSnapshot`` with the same steps, and the same answers, as ``Resolver``.
public struct SnapshotResolver: Sendable {
    /// The mapped faces to resolve against.
    public let snapshot: MappedSnapshot
    /// The family rules and aliases.
    public let rules: RuleSet
    /// The system fallback: the best system sans-serif for an OpenType weight and style.
    public let systemFallback: (@Sendable (_ weight: Int, _ italic: Bool) -> FaceRecord?)?

    /// Creates a resolver over a mapped snapshot and rules.
    ///
    /// - Parameters:
    ///   - snapshot: the mapped faces.
    ///   - rules: the family rules and aliases.
    ///   - systemFallback: the face to use for an unknown family (weight, italic), or `nil` for none.
    public init(
        snapshot: MappedSnapshot, rules: RuleSet = .empty,
        systemFallback: (@Sendable (Int, Bool) -> FaceRecord?)? = nil
    ) {
        self.snapshot = snapshot
        self.rules = rules
        self.systemFallback = systemFallback
    }

    /// Resolves a query, reading only the family and faces it needs from the mapping.
    ///
    /// - Parameter query: the family, weight, style and Bold Text setting.
    /// - Returns: the face that serves the query, how it was found, and the trace.
    /// - Throws: ``ResolveError`` as ``Resolver/resolve(_:)`` does.
    public func resolve(_ query: ResolveQuery) throws(ResolveError) -> Resolution {
        try Resolver.resolve(query, in: snapshot, rules: rules, systemFallback: systemFallback)
    }
}
