/// What a change to the registry did: faces added and removed, and files that could not be used.
public struct RegistrationReport: Sendable, Hashable, Codable {
    /// Faces that are new in the index.
    public var added: [FaceRecord]
    /// Faces no longer in the index.
    public var removed: [FaceRecord]
    /// Files that could not be used, with the reason.
    public var problems: [ScanProblem]
    /// The index generation after the change.
    public var generation: Int

    package init(
        added: [FaceRecord] = [], removed: [FaceRecord] = [], problems: [ScanProblem] = [], generation: Int = 0
    ) {
        self.added = added
        self.removed = removed
        self.problems = problems
        self.generation = generation
    }
}
