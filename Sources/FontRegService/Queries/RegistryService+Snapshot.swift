import FontRegCore
import Synchronization

extension RegistryService {
    /// What the daemon may publish in its snapshot, which every user who may connect can read.
    package struct SnapshotSource: Sendable {
        /// The faces every user sees, or `nil` when the snapshot must not be published now.
        package var index: FontIndex?
        /// Changes whenever what is published would change (index generation, platform state, settings).
        package var stamp: String
    }

    /// The index every user sees, when a snapshot can answer every user exactly as the socket does.
    ///
    /// **The one place where what is published is decided** (issue 13). The snapshot holds one
    /// view for everyone, so it is published only while every user's view is the same and a
    /// query means the same thing for all: no private registration, nothing disabled, no user's
    /// own Bold Text setting, and no daemon-wide Bold Text default or policy that the daemon
    /// would add to a query, and no indexed file that not every user may read. Otherwise the file is withdrawn and clients use the socket, which
    /// applies each user's view (issue 15).
    package func snapshotSource() -> SnapshotSource {
        let index = registry.index
        let (privateRoots, state, epoch) = platform.live.withLock {
            ($0.privateRoots().count, $0.state, $0.epoch)
        }
        let platformSettings = settings.withLock { $0.platform }
        // A face whose file not every user may read is never published (issue 24, ``FileReadability``).
        let (restricted, version) = readability(index)
        let uniform =
            restricted.isEmpty && privateRoots == 0 && state.disabled.isEmpty && state.boldText.isEmpty
            && !platformSettings.boldText
            && platformSettings.boldPolicy == nil
        return SnapshotSource(
            index: uniform ? index : nil,
            stamp:
                "g\(index.generation)e\(epoch)r\(version)b\(platformSettings.boldText)p\(String(describing: platformSettings.boldPolicy))"
        )
    }
}
