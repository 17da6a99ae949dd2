/// Users' private registrations and their owners, keyed for ``AllowedRoots/enclosing(_:in:)``:
/// built once per change of the live registrations (``PlatformRegistry/Live/epoch``) and
/// shared by every view and owner lookup until the next (issue 24: each of the 41 views a
/// change warmed keyed all 10,240 private roots twice, 93 % of a user's `Register`).
package struct PrivateRoots: Sendable {
    /// Each private registration and its owner, in no particular order.
    let list: [(path: String, owner: UInt32)]
    /// The owners by root (``AllowedRoots/lookup(_:)``).
    let lookup: [String: UInt32]
    /// The uids that own at least one private registration.
    let owners: Set<UInt32>

    /// The table of `list`.
    init(_ list: [(path: String, owner: UInt32)]) {
        self.list = list
        lookup = AllowedRoots.lookup(list)
        owners = Set(list.map(\.owner))
    }

    /// Whether no registration is private.
    var isEmpty: Bool { list.isEmpty }

    /// The owner of a private face: the owner of the nearest private registration its file
    /// lies in (as many lookups as the path has components), `nil` for a public one.
    func owner(of file: String) -> UInt32? {
        AllowedRoots.enclosing(file, in: lookup)
    }

    /// Whether `path` lies in a private registration whose owner is not in `visible`.
    func hides(_ path: String, showing visible: Set<UInt32>) -> Bool {
        AllowedRoots.anyEnclosing(path, in: lookup) { !visible.contains($0) }
    }
}
