/// Users' private registrations and their owners, keyed for ``AllowedRoots/enclosing(_:in:)``:
/// kept current by ``PlatformRegistry``'s `add` and `remove` (one entry each) and shared by
/// every view and owner lookup (issue 24: each of the 41 views a change warmed keyed all 10,240
/// private roots twice, 93 % of a user's `Register`; rebuilt once per epoch, still 30 %).
package struct PrivateRoots: Sendable {
    /// The owners by root (``AllowedRoots/lookup(_:)``'s keys: no trailing slash).
    private(set) var lookup: [String: UInt32] = [:]
    /// How many private registrations each owner has.
    private var counts: [UInt32: Int] = [:]

    /// The table of `list`.
    init(_ list: [(path: String, owner: UInt32)]) {
        for (path, owner) in list { insert(path, owner: owner) }
    }

    /// Adds a private registration (a path already there keeps its first owner).
    mutating func insert(_ path: String, owner: UInt32) {
        let key = Self.key(path)
        guard lookup[key] == nil else { return }
        lookup[key] = owner
        counts[owner, default: 0] += 1
    }

    /// Removes a private registration.
    mutating func remove(_ path: String) {
        guard let owner = lookup.removeValue(forKey: Self.key(path)) else { return }
        let left = (counts[owner] ?? 1) - 1
        counts[owner] = left > 0 ? left : nil
    }

    /// The key of a root, as ``AllowedRoots/lookup(_:)`` has it.
    private static func key(_ path: String) -> String {
        path.utf8.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// How many private registrations there are.
    var count: Int { lookup.count }

    /// Whether no registration is private.
    var isEmpty: Bool { lookup.isEmpty }

    /// The uids that own at least one private registration.
    var owners: Set<UInt32> { Set(counts.keys) }

    /// Whether `uid` owns at least one private registration (one look-up, no set built).
    func hasOwner(_ uid: UInt32) -> Bool { counts[uid] != nil }

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
