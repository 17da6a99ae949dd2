import Foundation

/// Which target a run fuzzes: the protocol (the default) or the snapshot reader (`FONTREG_FUZZ_TARGET=snapshot`).
enum FuzzTargetChoice {
    /// Whether this run fuzzes the snapshot reader.
    static let snapshot = ProcessInfo.processInfo.environment["FONTREG_FUZZ_TARGET"] == "snapshot"
}
