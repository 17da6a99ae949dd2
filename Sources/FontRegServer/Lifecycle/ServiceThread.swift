import Dispatch
import Foundation

/// A named thread that runs one body and can be waited for, so a service can prove at stop that
/// its thread has ended.
final class ServiceThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a thread called `name` running `body`.
    init(name: String, stackSize: Int? = nil, body: @escaping @Sendable () -> Void) {
        let thread = Thread { [finished] in
            body()
            finished.signal()
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Waits until the body has returned, at most until `deadline`.
    ///
    /// - Returns: whether the thread ended in time.
    @discardableResult
    func join(before deadline: DispatchTime) -> Bool {
        guard finished.wait(timeout: deadline) == .success else { return false }
        finished.signal()  // later joins return at once
        return true
    }
}
