extension FamilyEntry {
    /// Creates the entry of a family read in place from a mapped snapshot: nothing is decoded
    /// until a resolve asks for it.
    ///
    /// - Parameters:
    ///   - name: the family name.
    ///   - mapped: the family record.
    convenience init(name: String, mapped: MappedFamily) {
        self.init(name: name, mapped: mapped, defaultRule: mapped.defaultRule(name: name))
    }
}
