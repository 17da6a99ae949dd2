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

/// The daemon's side of sandboxed parsing: a few workers fed batches of descriptors while the walk goes on.
///
/// The scanner hands over files one at a time (``submit(_:)``) as it finds them and keeps
/// walking; the pool sends them to the workers (``FontParseWorker``) in batches of up to
/// ``SandboxedParsing/batchSize``, and keeps up to ``batchesAhead`` batches with each worker so that
/// a worker never waits for the walk, nor the walk for a worker: on two cores the walk and both
/// parsers run at once. The scanner picks the answers up (``collect(waiting:)``) between files,
/// and waits for them only when ``outstanding`` reaches its bound on open descriptors, and at
/// the end (``drain()``). A file that takes longer than the timeout (counted from the worker's
/// previous answer) has its worker killed; a worker that dies (a crash, the seccomp filter, a
/// resource limit) costs only the file it was reading: that file is reported with the reason,
/// the rest of what it held goes to a new worker. Workers start when a scan finds its first
/// file to parse and stop when the scan ends.
/// Not thread-safe: used by one scanner at a time (the registry's writer lock).
final class ParserPool {
    /// How the workers are started and limited.
    let settings: SandboxedParsing
    private var workers: [Worker?]
    /// Workers that ended before answering anything in a row: a parser that cannot start at all.
    private var failedStarts = 0
    /// The files handed over and not yet settled, by ticket.
    private var jobs: [Int: ParseJob] = [:]
    /// Tickets waiting for a worker, oldest first (a file whose worker died goes back to the front).
    private var queue: [Int] = []
    /// The ticket of the next file handed over.
    private var nextTicket = 0
    /// Answers not yet collected, in the order they were settled.
    private var settled: [(ticket: Int, reply: ParseReply)] = []
    /// Whether partial batches go out to any worker with room (the scan has found its last file).
    private var flushing = false

    /// How many batches a worker holds at most (sent, not yet answered): one to parse, one waiting,
    /// so that it starts the next file as soon as it has answered one.
    static let batchesAhead = 2

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

    /// The number of files handed over and not yet collected: each holds an open descriptor.
    var outstanding: Int { jobs.count + settled.count }

    /// The per-file timeout, in microseconds.
    private var timeout: UInt64 { UInt64(settings.timeoutSeconds * 1_000_000) }

    /// Hands a file to the workers; its answer comes back from ``collect(waiting:)`` or ``drain()``.
    ///
    /// - Returns: the ticket its answer carries.
    func submit(_ job: ParseJob) -> Int {
        let ticket = nextTicket
        nextTicket += 1
        jobs[ticket] = job
        queue.append(ticket)
        dispatch()
        return ticket
    }

    /// The answers settled so far, after sending what waits and reading what the workers sent.
    ///
    /// - Parameter waiting: whether to wait until at least one answer is settled (when any file is
    ///   outstanding); without it, only what is already there is read.
    /// - Returns: `(ticket, reply)` pairs: the file's faces (with its path and size), or the
    ///   problem, a crash or a timeout included.
    func collect(waiting: Bool) -> [(ticket: Int, reply: ParseReply)] {
        while pump(milliseconds: waiting && settled.isEmpty ? Int.max : 0) {}
        defer { settled = [] }
        return settled
    }

    /// Every outstanding answer: sends the last partial batches and waits for all of them.
    func drain() -> [(ticket: Int, reply: ParseReply)] {
        flushing = true
        defer { flushing = false }
        var answers: [(ticket: Int, reply: ParseReply)] = []
        while !jobs.isEmpty || !settled.isEmpty { answers += collect(waiting: true) }
        return answers
    }

    /// Parses the jobs in the workers and waits for all of them.
    ///
    /// - Returns: one reply per job, in the jobs' order.
    func parse(_ jobs: [ParseJob]) -> [ParseReply] {
        let tickets = jobs.map(submit)
        var replies: [Int: ParseReply] = [:]
        for (ticket, reply) in drain() { replies[ticket] = reply }
        return tickets.map { replies[$0]! }
    }

    /// Sends waiting files to workers with room: to an idle worker whatever waits, to a busy one
    /// only full batches (unless ``flushing``), up to ``batchesAhead`` batches each.
    private func dispatch() {
        for slot in workers.indices where !queue.isEmpty {
            while !queue.isEmpty {
                let holding = workers[slot]?.inFlight.count ?? 0
                let room = Self.batchesAhead * settings.batchSize - holding
                let size = min(settings.batchSize, room, queue.count)
                guard size > 0, holding == 0 || flushing || size == settings.batchSize else { break }
                guard let worker = workers[slot] ?? start() else {
                    let reason = "the font parser could not be started; see the daemon's log"
                    for ticket in queue { settle(ticket, .problem(reason)) }
                    queue = []
                    return
                }
                workers[slot] = worker
                let batch = Array(queue.prefix(size))
                if !send(batch, to: worker) {
                    // A worker that takes no request at all counts as one that could not start.
                    if worker.answered == 0 { failedStarts += 1 }
                    retire(slot)
                    break
                }
                queue.removeFirst(size)
                if worker.inFlight.isEmpty { worker.deadline = MonotonicClock.microseconds + timeout }
                worker.inFlight += batch
            }
        }
    }

    /// One round: sends what waits, waits up to `milliseconds` (and no later than the soonest
    /// deadline) for a worker to answer, reads one answer from each that did, kills the workers
    /// past their deadline.
    ///
    /// - Returns: whether a worker answered or ended, so that another round may find more.
    private func pump(milliseconds: Int) -> Bool {
        dispatch()
        let busy = workers.indices.filter { workers[$0].map { !$0.inFlight.isEmpty } ?? false }
        if busy.isEmpty { return false }
        let now = MonotonicClock.microseconds
        let soonest = busy.map { workers[$0]!.deadline }.min()!
        let wait = min(milliseconds, soonest > now ? Int((soonest - now + 999) / 1000) : 0)
        let ready =
            (try? PacketSocket.waitReadable(busy.map { workers[$0]!.socket.rawValue }, milliseconds: wait)) ?? []
        for index in ready { receive(slot: busy[index]) }
        let after = MonotonicClock.microseconds
        var ended = false
        for slot in busy where !ready.contains(where: { busy[$0] == slot }) {
            guard let worker = workers[slot], !worker.inFlight.isEmpty, worker.deadline <= after else { continue }
            worker.process.kill()
            _ = worker.process.wait(blocking: true)
            let ticket = worker.inFlight.removeFirst()
            settle(
                ticket,
                .problem(
                    "the font parser took longer than \(Self.seconds(settings.timeoutSeconds)) on this file; not indexed"
                ))
            queue.insert(contentsOf: worker.inFlight, at: 0)
            retire(slot)
            ended = true
        }
        return !ready.isEmpty || ended
    }

    /// Records the answer for a file and lets go of its job (and so of its descriptor).
    private func settle(_ ticket: Int, _ reply: ParseReply) {
        guard let job = jobs.removeValue(forKey: ticket) else { return }
        settled.append((ticket, Self.confirmed(reply, for: job)))
    }

    /// Reads one answer from a worker, or handles its death.
    private func receive(slot: Int) {
        guard let worker = workers[slot], let ticket = worker.inFlight.first else { return }
        let message = try? PacketSocket.receive(worker.socket.rawValue, capacity: FontParseWorker.replyCapacity + 4096)
        if let message, !message.bytes.isEmpty, !message.truncated,
            let (id, reply) = ParseReply.decode(message.bytes), id == UInt32(truncatingIfNeeded: ticket)
        {
            worker.inFlight.removeFirst()
            worker.deadline = MonotonicClock.microseconds + timeout
            worker.answered += 1
            failedStarts = 0
            settle(ticket, reply)
            return
        }
        // The socket closed or the worker spoke nonsense: it is gone, and so is this file.
        worker.process.kill()
        let ending = worker.process.wait(blocking: true)
        if worker.answered == 0, case .exited(let status) = ending, status != 0 {
            // It never started (no such user, no sandbox): no file is to blame.
            failedStarts += 1
            queue.insert(contentsOf: worker.inFlight, at: 0)
            retire(slot)
            return
        }
        worker.inFlight.removeFirst()
        settle(ticket, .problem(Self.describe(ending)))
        queue.insert(contentsOf: worker.inFlight, at: 0)
        retire(slot)
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
    private func send(_ batch: [Int], to worker: Worker) -> Bool {
        let batchJobs = batch.map { jobs[$0]! }
        let items = zip(batch, batchJobs).map { ticket, job in
            ParseRequestItem(id: UInt32(truncatingIfNeeded: ticket), size: job.size, path: job.path)
        }
        do {
            try PacketSocket.send(
                worker.socket.rawValue, ParseRequest.encode(items), descriptors: batchJobs.map(\.descriptor.rawValue))
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
