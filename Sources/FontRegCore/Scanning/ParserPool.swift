import FontRegSystem
import Foundation

/// One font file waiting for a sandboxed parser: the descriptor the scanner opened and checked.
struct ParseJob {
    /// The path the scanner reached it by (for the faces' `file` and for problems).
    let path: String
    /// The open, checked descriptor that travels to the worker.
    let descriptor: FileDescriptor
    /// Its size, checked on that descriptor.
    let size: Int64
}

/// The daemon's side of sandboxed parsing: a few workers fed batches of descriptors.
///
/// Each worker (``FontParseWorker``) gets up to ``SandboxedParsing/batchSize`` files in one
/// message and answers one message per file. A file that takes longer than the timeout has its
/// worker killed; a worker that dies (a crash, the seccomp filter, a resource limit) costs only
/// the file it was reading: that file is reported with the reason, the rest of its batch goes
/// to a new worker. Workers start when a scan finds its first file to parse and stop when the scan ends.
/// Not thread-safe: used by one scanner at a time (the registry's writer lock).
final class ParserPool {
    /// How the workers are started and limited.
    let settings: SandboxedParsing
    private var workers: [Worker?]
    /// Workers that ended before answering anything in a row: a parser that cannot start at all.
    private var failedStarts = 0

    /// A running worker and the files it has been sent but not yet answered, oldest first.
    private final class Worker {
        let process: ChildProcess
        let socket: FileDescriptor
        var inFlight: [Int] = []
        var deadline: UInt64 = 0
        var answered = 0

        init(process: ChildProcess, socket: FileDescriptor) {
            self.process = process
            self.socket = socket
        }
    }

    /// Creates a pool; no worker starts until there is something to parse.
    init(settings: SandboxedParsing) {
        self.settings = settings
        workers = Array(repeating: nil, count: settings.workers)
    }

    /// Starts the workers that are not running, so that their start overlaps the rest of the walk.
    func prepare() {
        for slot in workers.indices where workers[slot] == nil { workers[slot] = start() }
    }

    /// Stops every worker: a worker lives one scan, so none idles between scans and none
    /// accumulates CPU time towards its `RLIMIT_CPU` over many.
    func finish() {
        for slot in workers.indices { retire(slot) }
    }

    /// Parses the jobs in the workers.
    ///
    /// - Returns: one reply per job, in the jobs' order: its faces (with the job's path and size),
    ///   or the problem, a crash or a timeout included.
    func parse(_ jobs: [ParseJob]) -> [ParseReply] {
        var replies = [ParseReply?](repeating: nil, count: jobs.count)
        var queue = Array(jobs.indices.reversed())  // popLast takes the next job
        var remaining = jobs.count
        let timeout = UInt64(settings.timeoutSeconds * 1_000_000)
        while remaining > 0 {
            for slot in workers.indices where queue.count > 0 && (workers[slot]?.inFlight.isEmpty ?? true) {
                guard let worker = workers[slot] ?? start() else {
                    let reason = "the font parser could not be started; see the daemon's log"
                    while let next = queue.popLast() {
                        replies[next] = .problem(reason)
                        remaining -= 1
                    }
                    break
                }
                workers[slot] = worker
                var batch: [Int] = []
                while batch.count < settings.batchSize, let next = queue.popLast() { batch.append(next) }
                if !send(batch, of: jobs, to: worker) {
                    queue.append(contentsOf: batch.reversed())
                    retire(slot)
                    continue
                }
                worker.inFlight = batch
                worker.deadline = MonotonicClock.microseconds + timeout
            }
            let busy = workers.indices.filter { workers[$0].map { !$0.inFlight.isEmpty } ?? false }
            if busy.isEmpty { continue }
            let now = MonotonicClock.microseconds
            let soonest = busy.map { workers[$0]!.deadline }.min()!
            let wait = soonest > now ? Int((soonest - now + 999) / 1000) : 0
            let ready =
                (try? PacketSocket.waitReadable(busy.map { workers[$0]!.socket.rawValue }, milliseconds: wait)) ?? []
            for index in ready {
                remaining -= receive(slot: busy[index], jobs: jobs, replies: &replies, queue: &queue, timeout: timeout)
            }
            let after = MonotonicClock.microseconds
            for slot in busy where !ready.contains(where: { busy[$0] == slot }) {
                guard let worker = workers[slot], !worker.inFlight.isEmpty, worker.deadline <= after else { continue }
                worker.process.kill()
                _ = worker.process.wait(blocking: true)
                let job = worker.inFlight.removeFirst()
                replies[job] = .problem(
                    "the font parser took longer than \(Self.seconds(settings.timeoutSeconds)) on this file; not indexed"
                )
                remaining -= 1
                queue.append(contentsOf: worker.inFlight.reversed())
                retire(slot)
            }
        }
        return replies.map { $0! }
    }

    /// Reads one answer from a worker, or handles its death.
    ///
    /// - Returns: how many jobs were settled (0 or 1).
    private func receive(
        slot: Int, jobs: [ParseJob], replies: inout [ParseReply?], queue: inout [Int], timeout: UInt64
    ) -> Int {
        guard let worker = workers[slot], let job = worker.inFlight.first else { return 0 }
        let message = try? PacketSocket.receive(worker.socket.rawValue, capacity: FontParseWorker.replyCapacity + 4096)
        if let message, !message.bytes.isEmpty, !message.truncated,
            let (id, reply) = ParseReply.decode(message.bytes), id == UInt32(job)
        {
            worker.inFlight.removeFirst()
            worker.deadline = MonotonicClock.microseconds + timeout
            worker.answered += 1
            failedStarts = 0
            replies[job] = Self.confirmed(reply, for: jobs[job])
            return 1
        }
        // The socket closed or the worker spoke nonsense: it is gone, and so is this file.
        worker.process.kill()
        let ending = worker.process.wait(blocking: true)
        if worker.answered == 0, case .exited(let status) = ending, status != 0 {
            // It never started (no such user, no sandbox): no file is to blame.
            failedStarts += 1
            queue.append(contentsOf: worker.inFlight.reversed())
            retire(slot)
            return 0
        }
        worker.inFlight.removeFirst()
        replies[job] = .problem(Self.describe(ending))
        queue.append(contentsOf: worker.inFlight.reversed())
        retire(slot)
        return 1
    }

    /// The reply with the daemon's own path and size in every face: a worker is not trusted to name files.
    private static func confirmed(_ reply: ParseReply, for job: ParseJob) -> ParseReply {
        guard case .faces(var faces) = reply else { return reply }
        for index in faces.indices {
            faces[index].file = job.path
            faces[index].fileSize = job.size
        }
        return .faces(faces)
    }

    /// Sends a batch: the items in one message, their descriptors attached.
    private func send(_ batch: [Int], of jobs: [ParseJob], to worker: Worker) -> Bool {
        let items = batch.map { ParseRequestItem(id: UInt32($0), size: jobs[$0].size, path: jobs[$0].path) }
        do {
            try PacketSocket.send(
                worker.socket.rawValue, ParseRequest.encode(items),
                descriptors: batch.map { jobs[$0].descriptor.rawValue })
            return true
        } catch {
            return false
        }
    }

    /// Starts a worker, or `nil` when it cannot be (after repeated failures, nothing more is tried).
    private func start() -> Worker? {
        guard failedStarts <= 2, let (ours, theirs) = try? PacketSocket.pair(),
            let process = try? ChildProcess(
                executable: settings.executable, arguments: settings.workerArguments, descriptor: theirs.rawValue)
        else { return nil }
        return Worker(process: process, socket: ours)
    }

    /// Stops and forgets the worker in a slot; the next batch starts a new one.
    private func retire(_ slot: Int) {
        if let worker = workers[slot] {
            worker.process.kill()
            _ = worker.process.wait(blocking: true)
        }
        workers[slot] = nil
    }

    /// Why a worker ended, as the problem of the file it was reading.
    static func describe(_ ending: ChildProcess.Ending?) -> String {
        switch ending {
        case .signaled(SIGSYS):
            return "the font parser made a forbidden system call on this file and was stopped (signal 31, SIGSYS)"
        case .signaled(SIGXCPU):
            return "the font parser used up its CPU time on this file (signal 24, SIGXCPU)"
        case .signaled(let signal):
            let name = strsignal(signal).map { String(cString: $0) } ?? "unknown signal"
            return "the font parser crashed on this file (signal \(signal), \(name))"
        case .exited(let status):
            return "the font parser stopped on this file (exit status \(status))"
        case nil:
            return "the font parser stopped answering on this file"
        }
    }

    /// Seconds as a person writes them: `5 s`, `0.5 s`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
