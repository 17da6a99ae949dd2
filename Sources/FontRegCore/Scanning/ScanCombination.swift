/// Root scans put together in order, as one walk of their roots finds them: each file once
/// (the first root reaching it keeps it), every problem, and the directory stamps.
///
/// Kept by the scanner between changes and changed at its end only (issue 24): it remembers
/// where each root's part begins, so the roots from a position on can be taken off again
/// (``truncate(to:)``) and others appended, without putting the roots before it together again.
struct ScanCombination {
    /// Where one root's part of ``result`` and ``stamps`` begins.
    private struct Mark {
        var files: Int
        var problems: Int
        var stamps: Int
        var claimed: Int
    }

    /// The files and problems of the roots put together.
    private(set) var result = ScanResult()
    /// The directory stamps of the roots, in order.
    private(set) var stamps: [DirectoryStamp] = []
    /// The identities of files met so far, each once, in the order they were first met: a
    /// later path to one of them is left out.
    private var seen: Set<FileIdentity> = []
    /// ``seen``'s identities in the order they were inserted, so that a truncation takes them out again.
    private var claimed: [FileIdentity] = []
    /// Where each root's part begins, by the root's position.
    private var marks: [Mark] = []

    /// The number of root positions put together (a `nil` scan counts as an empty one).
    var count: Int { marks.count }

    /// Puts one more root's scan after the others; `nil` adds nothing but takes a position.
    mutating func append(_ scan: RootScan?) {
        marks.append(
            Mark(
                files: result.files.count, problems: result.problems.count, stamps: stamps.count, claimed: claimed.count
            ))
        guard let scan else { return }
        // A root given twice is walked once but put in twice, as two walks would find it.
        stamps += scan.directories
        for entry in scan.entries {
            switch entry {
            case .file(let file):
                if seen.insert(file.identity).inserted {
                    claimed.append(file.identity)
                    result.files.append(file)
                }
            case .problem(let problem, let claimed):
                if let claimed {
                    guard seen.insert(claimed).inserted else { continue }
                    self.claimed.append(claimed)
                }
                result.problems.append(problem)
            case .pending: break
            }
        }
    }

    /// Takes off the roots from position `count` on, leaving what the first `count` roots put together.
    mutating func truncate(to count: Int) {
        guard count < marks.count else { return }
        let mark = marks[count]
        for identity in claimed[mark.claimed...] { seen.remove(identity) }
        claimed.removeSubrange(mark.claimed...)
        result.files.removeSubrange(mark.files...)
        result.problems.removeSubrange(mark.problems...)
        stamps.removeSubrange(mark.stamps...)
        marks.removeSubrange(count...)
    }
}
