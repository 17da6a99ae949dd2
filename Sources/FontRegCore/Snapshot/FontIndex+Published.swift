extension FontIndex {
    /// The bytes of the snapshot to publish for clients (the public part only: never the
    /// registry part, which names the files of private registrations and the scan problems).
    ///
    /// Served mapped with the rules the file holds, that is a copy of the file's public part
    /// with the generation set; otherwise the index is laid out afresh.
    /// - Parameters:
    ///   - rules: the rules in force.
    ///   - generation: the generation to record.
    package func publishedBytes(rules: RuleSet, generation: Int) -> [UInt8] {
        if case .mapped(let inPlace) = storage, let mapped = inPlace as? MappedIndex {
            func wire(_ set: RuleSet) -> [String] { set.rules.map { $0.source + "\u{0}" + RuleSet.ruleJSON($0) } }
            if wire(mapped.snapshot.rules) == wire(rules) {
                return mapped.snapshot.publicBytes(generation: UInt64(max(0, generation)))
            }
        }
        return SnapshotWriter.bytes(of: self, rules: rules, generation: generation)
    }
}
