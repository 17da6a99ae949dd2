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
/// the end (``drain()``). Workers start when a scan finds its first file to parse and stop when
/// the scan ends.
///
/// Every file handed over comes back exactly once, as faces or as a problem, whatever the
/// workers do. A file is always in one of three places: waiting in the queue, held by one
/// worker, or settled; a worker that ends for any reason (a crash, the seccomp filter, a
/// resource limit, its own exit, a send it refuses, a kill from outside) gives back every file it
/// held. Only the file it was reading is blamed, and only when the worker ended by itself: the
/// rest go back to the front of the queue, at most ``maximumRequeues`` times each. A file may
/// take ``SandboxedParsing/timeoutSeconds`` of the worker's CPU time, and a busy worker may go
/// ``SandboxedParsing/stallSeconds`` of wall-clock time without answering; past either it is
/// killed. Waits are bounded by those limits, and a round in which nothing is held by any worker
/// never waits: the pool neither spins nor waits for answers no worker is working on.
/// Not thread-safe: used by one scanner at a time (the registry's writer lock).
final class ParserPool {
    /// How the workers are started and limited.
    let settings: SandboxedParsing
    private var workers: [Worker?]
    /// Workers that ended in a row without answering anything: a parser that cannot start at all.
    private var failedStarts = 0
    /// The files handed over and not yet settled, by ticket.
    private var jobs: [Int: ParseJob] = [:]
    /// Tickets waiting for a worker, oldest first (a file whose worker ended goes back to the front).
    private var queue: [Int] = []
    /// How many times each waiting ticket went back to the queue because its worker ended.
    private var requeues: [Int: Int] = [:]
    /// The ticket of the next file handed over.
    private var nextTicket = 0
    /// Answers not yet collected, in the order they were settled.
    private var settled: [(ticket: Int, reply: ParseReply)] = []
    /// Whether partial batches go out to any worker with room (the scan has found its last file).
    private var flushing = false

    /// How many batches a worker holds at most (sent, not yet answered): one to parse, one waiting,
    /// so that it starts the next file as soon as it has answered one.
    static let batchesAhead = 2
    /// How many times a file goes back to the queue, because workers holding it ended while
    /// reading other files, before it is reported instead of tried again.
    static let maximumRequeues = 3
    /// The longest a wait lasts before the workers' CPU time is read again (microseconds).
    static let budgetCheckInterval: UInt64 = 100_000

    /// A running worker and the files it has been sent but not yet answered, oldest first.
    private final class Worker {
        let process: ChildProcess
        let socket: FileDescriptor
        var inFlight: [Int] = []
        /// When it last answered or was given work while idle (monotonic microseconds).
        var since: UInt64 = 0
        /// Its CPU time then (microseconds).
        var cpuSince: UInt64 = 0
        var answered = 0

        init(process: ChildProcess, socket: FileDescriptor) {
            self.process = process
            self.socket = socket
        }

        /// Starts the budget of the file it reads next.
        func startBudget() {
            since = MonotonicClock.microseconds
            cpuSince = process.cpuMicroseconds ?? 0
        }
    }

    /// What one round of ``pump(waiting:)`` did.
    private enum Round {
        /// No worker holds a file: there is nothing to wait for.
        case idle
        /// A worker answered or ended.
        case progress
        /// Workers hold files, and none answered within the wait.
        case quiet
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
        for slot in workers.indices { release(slot) }
        failedStarts = 0
    }

    /// The number of files handed over and not yet collected: each holds an open descriptor.
    var outstanding: Int { jobs.count + settled.count }

    /// The process ids of the running workers (for the tests that kill them from outside).
    var workerProcessIDs: [Int32] { workers.compactMap { $0?.process.pid } }

    /// The per-file CPU budget, in microseconds.
    private var cpuBudget: UInt64 { UInt64(max(0, settings.timeoutSeconds) * 1_000_000) }

    /// The wall-clock time a busy worker may go without answering, in microseconds.
    private var stallBudget: UInt64 { UInt64(max(0, settings.stallSeconds) * 1_000_000) }

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
        rounds: while true {
            let mustWait = waiting && settled.isEmpty
            switch pump(waiting: mustWait) {
            case .progress: continue
            case .quiet: if !mustWait { break rounds }
            case .idle:
                settleStranded()
                break rounds
            }
        }
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
        return tickets.map { replies[$0] ?? .problem(Self.lostReason) }
    }

    /// Sends waiting files to workers with room: to an idle worker whatever waits, to a busy one
    /// only full batches (unless ``flushing``), up to ``batchesAhead`` batches each.
    ///
    /// A send the worker refuses ends that worker (``end(_:blaming:)``) and the same slot is
    /// tried again with a new one; each refusal settles a file or counts as a failed start, so
    /// the retries are bounded.
    private func dispatch() {
        var slot = 0
        while slot < workers.count, !queue.isEmpty {
            let holding = workers[slot]?.inFlight.count ?? 0
            let room = Self.batchesAhead * settings.batchSize - holding
            let size = min(settings.batchSize, room, queue.count)
            guard size > 0, holding == 0 || flushing || size == settings.batchSize else {
                slot += 1
                continue
            }
            guard let worker = workers[slot] ?? start() else {
                for ticket in queue { settle(ticket, .problem(Self.unstartableReason)) }
                queue = []
                requeues = [:]
                return
            }
            workers[slot] = worker
            let batch = Array(queue.prefix(size))
            do {
                try send(batch, to: worker)
            } catch {
                refused(slot, errno: error.errno)
                continue
            }
            queue.removeFirst(size)
            for ticket in batch { requeues[ticket] = nil }
            if worker.inFlight.isEmpty { worker.startBudget() }
            worker.inFlight += batch
        }
    }

    /// Ends a worker that refused a send. A peer that is gone (`EPIPE`, `ECONNRESET`) ended by
    /// itself, so the file it was reading is blamed; any other refusal is the socket's, not a
    /// file's, and counts as a failed start.
    private func refused(_ slot: Int, errno code: Errno) {
        guard let worker = workers[slot] else { return }
        if code == .brokenPipe || code == .connectionReset, !worker.inFlight.isEmpty {
            readLastAnswers(slot)
            end(slot, blaming: nil)
        } else {
            failedStarts += 1
            release(slot)
        }
    }

    /// One round: sends what waits, waits (when asked, and no longer than the nearest budget
    /// check) for a worker to answer, reads one answer from each that did, and kills the workers
    /// past their CPU or stall budget.
    private func pump(waiting: Bool) -> Round {
        dispatch()
        let busy = workers.indices.filter { workers[$0].map { !$0.inFlight.isEmpty } ?? false }
        if busy.isEmpty { return .idle }
        let wait = waiting ? Int(nearestCheck(busy) / 1000) : 0
        let ready =
            (try? PacketSocket.waitReadable(busy.map { workers[$0]!.socket.rawValue }, milliseconds: wait)) ?? []
        for index in ready { receive(slot: busy[index]) }
        var ended = false
        for (index, slot) in busy.enumerated() where !ready.contains(index) {
            guard let worker = workers[slot], !worker.inFlight.isEmpty, let reason = overBudget(worker) else {
                continue
            }
            end(slot, blaming: reason)
            ended = true
        }
        return !ready.isEmpty || ended ? .progress : .quiet
    }

    /// How long the next wait may last (microseconds): until the nearest stall deadline, and
    /// no longer than half the nearest remaining CPU budget (CPU time cannot pass faster than
    /// wall-clock time for a one-threaded parser) nor ``budgetCheckInterval``; at least 1 ms.
    private func nearestCheck(_ busy: [Int]) -> UInt64 {
        let now = MonotonicClock.microseconds
        var wait = Self.budgetCheckInterval
        for slot in busy {
            guard let worker = workers[slot] else { continue }
            let stalled = now &- worker.since
            wait = min(wait, stallBudget > stalled ? stallBudget - stalled : 0)
            let spent = (worker.process.cpuMicroseconds ?? worker.cpuSince) &- worker.cpuSince
            wait = min(wait, cpuBudget > spent ? (cpuBudget - spent) / 2 : 0)
        }
        return max(wait, 1000)
    }

    /// Why a busy worker is to be killed, or `nil` while it is within its budgets.
    private func overBudget(_ worker: Worker) -> String? {
        if let cpu = worker.process.cpuMicroseconds, cpu &- worker.cpuSince >= cpuBudget {
            return "the font parser used more than \(Self.seconds(settings.timeoutSeconds)) of CPU time on this file;"
                + " not indexed"
        }
        if MonotonicClock.microseconds &- worker.since >= stallBudget {
            return "the font parser stopped answering for \(Self.seconds(settings.stallSeconds)) on this file;"
                + " not indexed"
        }
        return nil
    }

    /// Records the answer for a file and lets go of its job (and so of its descriptor).
    private func settle(_ ticket: Int, _ reply: ParseReply) {
        requeues[ticket] = nil
        guard let job = jobs.removeValue(forKey: ticket) else { return }
        settled.append((ticket, Self.confirmed(reply, for: job)))
    }

    /// Settles, as problems, files no worker holds and none waits for: none should exist, and
    /// should one, its scan reports it instead of waiting for it for ever.
    private func settleStranded() {
        guard !jobs.isEmpty else { return }
        var accounted = Set(queue)
        for worker in workers.compactMap({ $0 }) { accounted.formUnion(worker.inFlight) }
        for ticket in jobs.keys.sorted() where !accounted.contains(ticket) {
            settle(ticket, .problem(Self.lostReason))
        }
        if settled.isEmpty {
            // Files wait and no worker can take them: report them rather than wait.
            for ticket in queue { settle(ticket, .problem(Self.unstartableReason)) }
            queue = []
        }
    }

    /// Reads one answer from a worker, or handles its end.
    private func receive(slot: Int) {
        guard let worker = workers[slot], !worker.inFlight.isEmpty else { return }
        // The socket closed or the worker spoke nonsense: it is gone, and so is the file it read.
        if !readAnswer(worker) { end(slot, blaming: nil) }
    }

    /// Reads one message from a worker and settles the file it answers.
    ///
    /// - Returns: whether it was the answer to the worker's oldest file; `false` at the end of
    ///   the stream or for anything else.
    private func readAnswer(_ worker: Worker) -> Bool {
        guard let ticket = worker.inFlight.first, let message = Self.nextMessage(worker.socket),
            !message.bytes.isEmpty, !message.truncated,
            let (id, reply) = ParseReply.decode(message.bytes), id == UInt32(truncatingIfNeeded: ticket)
        else { return false }
        worker.inFlight.removeFirst()
        worker.startBudget()
        worker.answered += 1
        failedStarts = 0
        settle(ticket, reply)
        return true
    }

    /// The next message from a worker, or `nil` when the socket fails.
    ///
    /// A worker that ends with requests it has not read leaves `ECONNRESET` pending on the
    /// daemon's end, and Linux reports that error before the answers the worker sent first: read
    /// past it once so that those answers are not lost, and so that only the file the worker was
    /// reading is blamed.
    private static func nextMessage(_ socket: FileDescriptor) -> PacketSocket.Message? {
        let capacity = FontParseWorker.replyCapacity + 4096
        do {
            return try PacketSocket.receive(socket.rawValue, capacity: capacity)
        } catch  where error.errno == .connectionReset {
            return try? PacketSocket.receive(socket.rawValue, capacity: capacity)
        } catch {
            return nil
        }
    }

    /// Reads the answers a worker that ended sent before it ended, so that only the file it
    /// was reading then is blamed (a refused send finds the worker gone before its last
    /// answers were read).
    private func readLastAnswers(_ slot: Int) {
        guard let worker = workers[slot] else { return }
        while !worker.inFlight.isEmpty,
            (try? PacketSocket.waitReadable([worker.socket.rawValue], milliseconds: 0))?.isEmpty == false,
            readAnswer(worker)
        {}
    }

    /// Ends the worker in a slot and accounts for every file it held.
    ///
    /// - Parameter reason: the problem of the file it was reading; `nil` to describe how it ended.
    ///   A worker that exited with a failure before answering anything never started (no such
    ///   user, no sandbox): no file is blamed, and it counts as a failed start.
    private func end(_ slot: Int, blaming reason: String?) {
        guard let worker = workers[slot] else { return }
        worker.process.kill()
        let ending = worker.process.wait(blocking: true)
        if reason == nil, worker.answered == 0, case .exited(let status) = ending, status != 0 {
            failedStarts += 1
        } else if let ticket = worker.inFlight.first {
            worker.inFlight.removeFirst()
            settle(ticket, .problem(reason ?? Self.describe(ending)))
        }
        release(slot)
    }

    /// Stops and forgets the worker in a slot; what it still held goes back to the front of the
    /// queue (a file back too often is reported instead), and the next batch starts a new worker.
    private func release(_ slot: Int) {
        guard let worker = workers[slot] else { return }
        workers[slot] = nil
        worker.process.kill()
        _ = worker.process.wait(blocking: true)
        var back: [Int] = []
        for ticket in worker.inFlight where jobs[ticket] != nil {
            let count = (requeues[ticket] ?? 0) + 1
            if count > Self.maximumRequeues {
                settle(ticket, .problem(Self.restartedReason))
            } else {
                requeues[ticket] = count
                back.append(ticket)
            }
        }
        worker.inFlight = []
        queue.insert(contentsOf: back, at: 0)
    }

    /// The problem of files no worker could be started for.
    static let unstartableReason = "the font parser could not be started; see the daemon's log"
    /// The problem of a file the pool lost track of (kept so that a scan never waits for it).
    static let lostReason = "the font parser lost this file; not indexed"
    /// The problem of a file whose workers kept ending while it waited.
    static var restartedReason: String {
        "the font parser was restarted \(maximumRequeues) times while this file waited; not indexed"
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
    private func send(_ batch: [Int], to worker: Worker) throws(SystemError) {
        let batchJobs = batch.map { jobs[$0]! }
        let items = zip(batch, batchJobs).map { ticket, job in
            ParseRequestItem(id: UInt32(truncatingIfNeeded: ticket), size: job.size, path: job.path)
        }
        try PacketSocket.send(
            worker.socket.rawValue, ParseRequest.encode(items), descriptors: batchJobs.map(\.descriptor.rawValue))
    }

    /// Starts a worker, or `nil` when it cannot be (after repeated failures, nothing more is tried).
    private func start() -> Worker? {
        guard failedStarts <= 2, let (ours, theirs) = try? PacketSocket.pair(),
            let process = try? ChildProcess(
                executable: settings.executable, arguments: settings.workerArguments, descriptor: theirs.rawValue)
        else { return nil }
        return Worker(process: process, socket: ours)
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
