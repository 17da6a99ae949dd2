/// A reply-cache key together with the view it was answered for, so that one user's cached
/// reply is never served to a user who sees other faces (issue 15).
struct VisibleKey<Base: Hashable & Sendable>: Hashable, Sendable {
    /// ``VisibleView/key`` of the view.
    package let view: String
    /// The query's own key.
    package let base: Base

    package init(view: String, base: Base) {
        self.view = view
        self.base = base
    }
}
