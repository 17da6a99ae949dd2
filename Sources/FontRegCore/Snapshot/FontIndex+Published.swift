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
        withPublishedParts(rules: rules, generation: generation) { parts in
            parts.reduce(into: [UInt8]()) { $0.append(contentsOf: $1) }
        }
    }

    /// ``publishedBytes(rules:generation:)`` as pieces to write one after the other, valid only
    /// inside `body`: served mapped with the rules the file holds, a patched copy of the
    /// file's header and the rest of its public part where it is mapped (no copy of it,
    /// ``MappedSnapshot/withPublicParts(generation:_:)``); otherwise the index laid out afresh,
    /// in one piece.
    ///
    /// - Parameters:
    ///   - rules: the rules in force.
    ///   - generation: the generation to record.
    ///   - body: what to do with the pieces.
    package func withPublishedParts<Result, Failure: Error>(
        rules: RuleSet, generation: Int, _ body: ([UnsafeRawBufferPointer]) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if case .mapped(let inPlace) = storage, let mapped = inPlace as? MappedIndex {
            if Self.sameRules(mapped.snapshot.rules, rules) {
                return try mapped.snapshot.withPublicParts(generation: UInt64(max(0, generation))) {
                    (head, rest) throws(Failure) -> Result in try body([head, rest])
                }
            }
        }
        let bytes = SnapshotWriter.bytes(of: self, rules: rules, generation: generation)
        // `withUnsafeBytes` rethrows untyped: the outcome is carried out as a `Result`.
        let outcome = bytes.withUnsafeBytes { all in
            Swift.Result { () throws(Failure) -> Result in try body([all]) }
        }
        return try outcome.get()
    }

    /// Whether two rule sets are the same on the wire (sources and rules alike).
    private static func sameRules(_ a: RuleSet, _ b: RuleSet) -> Bool {
        func wire(_ set: RuleSet) -> [String] { set.rules.map { $0.source + "\u{0}" + RuleSet.ruleJSON($0) } }
        return wire(a) == wire(b)
    }
}
