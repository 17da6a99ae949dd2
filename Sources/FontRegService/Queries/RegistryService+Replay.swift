import FontRegCore
import FontRegJSON
import Synchronization
import Varlink

/// Whole-reply replay for `Resolve` and `Candidates` (issue 13).
///
/// A reply to one of them is a pure function of the request and of what the caller sees: the
/// index generation, the caller's view of it (private registrations, disabled faces), their Bold
/// Text setting and the daemon's Bold Text policy, and the rules (a reload empties the cache).
/// All of it but the rules is the **replay scope**, a string computed from one snapshot of that
/// state together with the reply, so a reply is only ever replayed to callers whose view, Bold
/// Text setting and policy are those it was computed with: a user's private faces never reach
/// another user whose view differs.
extension RegistryService {
    /// What a replayable call is answered from: one snapshot of the caller's view and preferences.
    struct ReplayContext {
        /// The faces the caller sees.
        let view: VisibleView
        /// The caller's Bold Text setting (their own, or the daemon's default).
        let boldText: Bool
        /// The daemon's Bold Text policy, if it sets one.
        let boldPolicy: BoldTextPolicy?

        /// Identifies everything besides the request that the reply depends on.
        var scope: String {
            "g\(view.index.generation)|\(view.key)|b\(boldText)|p\(boldPolicy?.rawValue ?? "-")"
        }

        /// The query with the caller's Bold Text setting and the daemon's policy where the call
        /// leaves them out (as ``RegistryService/applyingPreferences(_:parameters:uid:)``).
        func applyingPreferences(_ query: ResolveQuery, parameters: [String: JSONValue]) -> ResolveQuery {
            var query = query
            if parameters["boldText"] == nil || parameters["boldText"] == .null { query.boldText = boldText }
            if parameters["boldPolicy"] == nil || parameters["boldPolicy"] == .null, let boldPolicy {
                query.boldPolicy = boldPolicy
            }
            return query
        }
    }

    /// The caller's view and preferences now.
    func replayContext(for peer: PeerCredentials) -> ReplayContext {
        ReplayContext(
            view: view(for: peer), boldText: boldText(for: peer.uid).on,
            boldPolicy: settings.withLock { $0.platform.boldPolicy })
    }

    /// Answers a pure read from one snapshot of the caller's view, marked replayable in its scope.
    func replayable(
        _ call: VarlinkCall, peer: PeerCredentials, _ answer: (ReplayContext) throws(VarlinkError) -> CallOutcome
    ) -> CallOutcome {
        let context = replayContext(for: peer)
        do {
            return .replayable(try answer(context), scope: context.scope)
        } catch {
            return .replayable(.failure(error), scope: context.scope)
        }
    }

    /// The cache of whole replies the connections answer repeated calls from.
    package var replayCache: MessageReplyCache? { replayReplies }

    /// Moves when the index, the platform state, the settings or the rules change.
    package var replayScopeStamp: UInt64 {
        replayReplies.stamp &+ platform.changes.load(ordering: .acquiring)
    }

    /// The scope `peer`'s replayable calls are looked up in.
    package func replayScope(for peer: PeerCredentials) -> String? {
        replayContext(for: peer).scope
    }
}
