import FontRegCore

/// What one user sees of the registry: the faces of public registrations and of the private
/// registrations they may see, without the disabled ones (issue 15).
package struct VisibleView: Sendable {
    /// Identifies the view for caches: empty for the whole index (nothing private, nothing
    /// disabled), else the generation, epoch and the private owners visible.
    package let key: String
    /// The faces resolved against.
    package let index: FontIndex
    /// The faces the user could see that are disabled, sorted as the index sorts faces.
    package let disabled: [FaceRecord]
    /// The index with the disabled faces left in, to say when a disabled face would have won
    /// (`nil` when nothing visible is disabled).
    let withDisabled: FontIndex?
    /// The private owners whose faces this view shows.
    package let owners: Set<UInt32>
    /// Every private registration and its owner (shared by the views of one epoch): a path in
    /// one whose owner is not in ``owners`` is hidden.
    let privateRoots: PrivateRoots?
    /// The restricted files the caller may not read, whose faces this view hides (``FileReadability``).
    let hiddenFiles: Set<String>
    /// `ResolveText`'s plans and coverage index for this view (the whole index's are the service's).
    let textPlans = FallbackPlanCache(capacity: 16)

    /// The whole index, for when nothing is private or disabled.
    init(whole index: FontIndex) {
        key = ""
        self.index = index
        disabled = []
        withDisabled = nil
        owners = []
        privateRoots = nil
        hiddenFiles = []
    }

    /// Builds the view of `index` for a user who sees the private faces of `owners`.
    ///
    /// - Parameters:
    ///   - index: the registry's whole index.
    ///   - key: the view's cache key.
    ///   - owners: the private owners whose faces are visible.
    ///   - privateRoots: every private registration and its owner, keyed (shared, not copied).
    ///   - disabledEntries: what is disabled.
    ///   - directories: the registry's roots in order, for duplicates.
    ///   - hiddenFiles: the files whose faces the user may not see (it could not read them).
    init(
        index: FontIndex, key: String, owners: Set<UInt32>, privateRoots: PrivateRoots,
        disabledEntries: [DisabledEntry], directories: [String], hiddenFiles: Set<String> = []
    ) {
        var visible: [FaceRecord] = []
        var off: [FaceRecord] = []
        // Each face's owner by its file's ancestors, not by asking every private root.
        for face in index.faces where !hiddenFiles.contains(face.file) {
            let owner = privateRoots.owner(of: face.file)
            if let owner, !owners.contains(owner) { continue }
            if disabledEntries.contains(where: { $0.disables(face, faceOwner: owner) }) {
                off.append(face)
            } else {
                visible.append(face)
            }
        }
        let problems = index.problems.filter { problem in
            !hiddenFiles.contains(problem.path) && !privateRoots.hides(problem.path, showing: owners)
        }
        self.key = key
        self.index = FontIndex(
            faces: visible, problems: problems, generation: index.generation, directories: directories)
        disabled = off
        withDisabled =
            off.isEmpty
            ? nil
            : FontIndex(
                faces: visible + off, problems: problems, generation: index.generation, directories: directories)
        self.owners = owners
        self.privateRoots = privateRoots
        self.hiddenFiles = hiddenFiles
    }

    /// About how many bytes the view holds: its faces (twice when disabled ones are kept too),
    /// at a few hundred bytes each, and the hidden files (the private roots are shared by every view).
    var estimatedBytes: Int {
        let faces = index.faceCount + (withDisabled?.faceCount ?? 0) + disabled.count
        return 1024 + faces * 512 + hiddenFiles.reduce(0) { $0 + $1.utf8.count + 16 }
    }

    /// Whether the view hides `path` (it lies in another user's private registration, or is a
    /// file the user may not read).
    package func hides(_ path: String) -> Bool {
        hiddenFiles.contains(path) || (privateRoots?.hides(path, showing: owners) ?? false)
    }
}
