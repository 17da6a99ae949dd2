internal import CShim

/// The CPU priority of the calling thread, as the scheduler weighs it against other threads.
package enum ThreadPriority {
    /// Gives the calling thread (only it, not the process) the nice value `nice` (0 normal,
    /// up to 19 lowest), so slow work on it yields the CPU to threads that answer clients.
    ///
    /// Raising a thread's nice value needs no privilege. The corresponding call is
    /// `setpriority(PRIO_PROCESS, gettid(), nice)`.
    /// - Throws: ``SystemError`` when the kernel refuses.
    package static func setCurrentThreadNice(_ nice: Int32) throws(SystemError) {
        try Syscall.run("setpriority", subject: "the calling thread") { cshim_set_thread_nice(nice) }
    }
}
