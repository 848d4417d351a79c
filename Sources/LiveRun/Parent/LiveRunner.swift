import ConcurrencyModel
import Foundation

/// Runs a program live many times and gathers a histogram. One worker process per core, each a
/// fork server whose children perform batches of runs; runs that finish share a child, a run
/// that traps or is stuck ends its child, and the rest of its batch goes on in a fresh one.
public struct LiveRunner: Sendable {
    public struct Options: Sendable {
        /// Options for runs of a snippet whose answer on the live machine is `exploration`'s:
        /// a fresh process for each run when its pools can fill (see `runsPerChild`).
        public mutating func fit(_ exploration: Exploration) {
            let live = exploration.retargeted(to: .live) ?? Explorer(timeBudget: 2).explore(exploration.program, for: .live)
            runsPerChild = live.poolsFill || !live.isComplete ? 1 : .max
        }

        public var runs = 1000
        public var seed: UInt64 = 1
        public var jitter = true
        /// Worker processes running at once. nil: one per core; for a compiled snippet that keeps
        /// no time `CompiledHarness.serversPerCore` a core, and one alone for a compiled
        /// snippet whose delays are finer than `CompiledHarness.sideBySideDelay`: two runs side
        /// by side on two cores hold each other's threads from a core for about that long, and
        /// most runs would be late (measured on the Counter program, 1 ms sleeps: 59 % of
        /// runs late side by side, 15 % alone).
        public var processes: Int?
        /// How long a run may go without a sign of progress (a line printed, a call made, the
        /// worker's word that its code is running) beyond what its own sleeps, timers and waits
        /// for the thread pool account for; past that it is killed and counted as a `timeout`.
        /// Every sign moves the limit, so a run that prints 200,000 lines, or pauses often for
        /// jitter, is given the time it takes.
        public var marginSeconds = 3.0
        /// However it keeps making progress, a run is stopped this long after it started (beyond
        /// its own sleeps and timers): too slow to finish here, it counts as a late run, never as
        /// an outcome the model must explain.
        public var longestRunSeconds = 120.0
        /// For testing the runner: the worker crashes (SIGSEGV) at the start of this run.
        public var crashAtRun: Int?
        /// At most this many runs share a child process. One gives each run libdispatch as a new
        /// process has it: threads its pool monitor added for an earlier run stay in a process,
        /// so a later run could find a pool wider than the cores. nil: one when the model says
        /// the snippet's pools can fill on this machine (`fit`), else as many as a batch holds.
        public var runsPerChild: Int?
        /// Compiled runs only: the longest jitter pause, in microseconds (nil: up to 400). A
        /// snippet that sleeps or sets timers gets shorter ones (`CompiledHarness`): a long pause
        /// could outlast a short sleep, which the model's clock (code takes no time) never does.
        public var longestPauseMicroseconds: Int?
        /// Compiled runs only, for a snippet that sleeps or sets timers: a run in which the machine
        /// held one of its threads from a core this many microseconds (or the harness's monitor
        /// as long past its nap) is marked late (`LiveHistogram.Entry.lateRuns`). nil: never.
        public var lateAfterMicroseconds: Int?

        public init(runs: Int = 1000, seed: UInt64 = 1, jitter: Bool = true) {
            self.runs = runs
            self.seed = seed
            self.jitter = jitter
        }
    }

    /// The executable that becomes a worker when started with `workerArguments`.
    public var workerExecutable: String
    public var workerArguments: [String]

    public init(workerExecutable: String, workerArguments: [String]) {
        self.workerExecutable = workerExecutable
        self.workerArguments = workerArguments
    }

    /// - Parameters:
    ///   - onRun: called after each run with the number of runs done so far and its outcome.
    ///   - shouldStop: checked at least every 50 ms; when true, the workers are killed and the
    ///     histogram holds the runs done so far.
    public func run(_ program: Program, options: Options, onRun: (Int, LiveOutcome) -> Void = { _, _ in },
                    shouldStop: () -> Bool = { false }) throws -> LiveHistogram {
        let request = WorkerRequest(program: program, seed: options.seed, jitter: options.jitter, crashAtRun: options.crashAtRun)
        let worker = Worker(executable: workerExecutable, arguments: workerArguments, environment: [:],
                            request: try JSONEncoder().encode(request) + Data("\n".utf8), runner: .interpreter)
        // Explored while the workers start.
        return try drive(worker, options: options, onRun: onRun, shouldStop: shouldStop) { options in
            if options.runsPerChild == nil {
                options.fit(Explorer(timeBudget: 2).explore(program, for: .live))
            }
        }
    }

    /// Runs a compiled Swift-concurrency snippet: the harness's fork server takes the workers'
    /// place, and each run is a fresh child (top-level code runs once a process). A run with no
    /// sign of progress for `compiledMarginSeconds` (a line, a heartbeat while it waits for a
    /// timer or a sleep) is killed as a timeout.
    public func run(_ harness: CompiledHarness, options: Options, onRun: (Int, LiveOutcome) -> Void = { _, _ in },
                    shouldStop: () -> Bool = { false }) throws -> LiveHistogram {
        var options = options
        options.runsPerChild = nil
        options.marginSeconds = min(options.marginSeconds, Self.compiledMarginSeconds)
        // Every library's symbols bound once in the server, not lazily again in each child.
        var environment = ["GCDQUIZ_HARNESS": "\(options.seed) \(options.jitter ? 1 : 0)", "LD_BIND_NOW": "1"]
        if let pause = options.longestPauseMicroseconds { environment["GCDQUIZ_HARNESS_LONGEST_PAUSE"] = "\(pause)" }
        if let held = options.lateAfterMicroseconds { environment["GCDQUIZ_HARNESS_KEEPS_TIME"] = "\(max(held, 1))" }
        if harness.endsWithLastTask { environment["GCDQUIZ_HARNESS_TASKS_ALONE"] = "1" }
        let worker = Worker(executable: harness.executable.path, arguments: [], environment: environment, request: nil, runner: .compiledSnippet,
                            childPerRun: true)
        var histogram = try drive(worker, options: options, onRun: onRun, shouldStop: shouldStop)
        histogram.compiledMode = harness.mode
        return histogram
    }

    /// How long a compiled run may go without a sign of progress: its child knows when it is
    /// stuck for good (and says so at once), so this is for what it cannot see (a loop).
    public static let compiledMarginSeconds = 2.0

    /// What becomes a worker: a program, what it is told at its start, and whose code runs in it.
    private struct Worker {
        var executable: String
        var arguments: [String]
        var environment: [String: String]
        var request: Data?
        var runner: Ending.Runner
        /// The worker forks a child for each run of a batch itself (the harness: top-level code
        /// runs once a process) and goes on with the batch when one dies.
        var childPerRun = false
    }

    private func drive(_ worker: Worker, options: Options, onRun: (Int, LiveOutcome) -> Void,
                       shouldStop: () -> Bool, prepare: (inout Options) -> Void = { _ in }) throws -> LiveHistogram {
        let started = DispatchTime.now().uptimeNanoseconds
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // libdispatch then prints why it stops a process (a failed dispatchPrecondition) on
        // standard error instead of the system log.
        environment["LIBDISPATCH_LOG"] = "stderr"
        for (key, value) in worker.environment { environment[key] = value }
        let count = max(1, min(options.processes ?? ProcessInfo.processInfo.activeProcessorCount, options.runs))
        let workers = try (0..<count).map { _ in
            try WorkerConnection(ChildProcess(executable: worker.executable, arguments: worker.arguments, environment: environment),
                                 margin: options.marginSeconds, longest: options.longestRunSeconds, runner: worker.runner,
                                 childPerRun: worker.childPerRun)
        }
        defer { workers.forEach { $0.shutDown() } }
        if let request = worker.request { workers.forEach { $0.process.write(request) } }
        var options = options
        prepare(&options)

        var session = Session(runs: options.runs, workers: workers.count, runsPerChild: options.runsPerChild)
        for worker in workers { session.assignBatch(to: worker) }
        while session.tally.total < options.runs {
            if shouldStop() { break }
            try session.step(workers, onRun: onRun)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return LiveHistogram(
            entries: session.tally.entries, runs: session.tally.total, seed: options.seed, jitter: options.jitter,
            processes: worker.childPerRun ? session.children : session.batches, seconds: seconds)
    }
}

extension LiveRunner {
    /// How many runs to make when the user did not say: 1000; for a snippet that sleeps or sets
    /// timers (its runs take real time) 100, or as many as fit in about `seconds` on `processes`
    /// workers going by the snippet's own time, but at least 10.
    public static func defaultRuns(for program: Program, processes: Int = ProcessInfo.processInfo.activeProcessorCount,
                                   seconds: Double = 20, timeScale: Double? = nil) -> Int {
        guard program.usesTime else { return 1000 }
        let perRun = Double(SnippetTime.upperBound(of: program)) * (timeScale ?? LiveInterpreter.timeScale) / 1e6
        guard perRun > 0 else { return 100 }
        let fitting = seconds * Double(max(processes, 1)) / perRun
        return fitting >= 100 ? 100 : max(Int(fitting), 10)
    }
}

/// The parent's side of a run of many runs: which runs are left, which worker does what.
private struct Session {
    let runs: Int
    let workers: Int
    let runsPerChild: Int?
    private(set) var next = 0
    private(set) var batches = 0
    /// Children forked by workers that fork one a run.
    private(set) var children = 0
    var tally = Tally()

    init(runs: Int, workers: Int, runsPerChild: Int?) {
        self.runs = runs
        self.workers = workers
        self.runsPerChild = runsPerChild
    }

    /// Gives an idle worker the next slice of runs: a lone worker takes them all; several take
    /// large slices while many are left and smaller ones towards the end, to finish together.
    mutating func assignBatch(to worker: WorkerConnection) {
        guard next < runs else { return }
        let size = min(workers == 1 ? runs - next : max(1, min(250, (runs - next) / (2 * workers))), runsPerChild ?? .max)
        worker.startBatch(first: next, count: size)
        next += size
        batches += 1
    }

    /// Waits (at most 50 ms) for what the workers say, and acts on it.
    mutating func step(_ workers: [WorkerConnection], onRun: (Int, LiveOutcome) -> Void) throws {
        var descriptors: [pollfd] = []
        for worker in workers {
            descriptors.append(pollfd(fd: worker.process.output, events: Int16(POLLIN), revents: 0))
            descriptors.append(pollfd(fd: worker.errorsOpen ? worker.process.errors : -1, events: Int16(POLLIN), revents: 0))
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let nearest = workers.compactMap(\.deadline).min().map { $0 > now ? Int32(min(($0 - now) / 1_000_000 + 1, 50)) : 0 } ?? 50
        let ready = poll(&descriptors, nfds_t(descriptors.count), nearest)
        if ready < 0 && errno != EINTR {
            throw LiveRunError.workerFailed("poll: \(String(cString: strerror(errno)))")
        }
        for (index, worker) in workers.enumerated() {
            if descriptors[2 * index + 1].revents != 0 { worker.readErrors() }
            if descriptors[2 * index].revents != 0 {
                for message in try worker.readMessages() {
                    try handle(message, from: worker, onRun: onRun)
                }
            }
            worker.killIfLate(at: DispatchTime.now().uptimeNanoseconds)
        }
    }

    private mutating func handle(_ message: WorkerMessage, from worker: WorkerConnection, onRun: (Int, LiveOutcome) -> Void) throws {
        if let run = try worker.receive(message) {
            tally.add(run.outcome, reason: run.reason, late: run.late)
            onRun(tally.total, run.outcome)
        }
        if case .child = message, worker.childPerRun { children += 1 }
        guard case .childEnded = message else { return }
        if worker.childPerRun {
            // Each run its own child: what this one said on standard error is not the next one's.
            worker.forgetErrors()
            // The worker goes on with its batch by itself.
            if worker.unfinishedBatch == nil { assignBatch(to: worker) }
            return
        }
        if let rest = worker.unfinishedBatch {
            worker.startBatch(first: rest.lowerBound, count: min(rest.count, runsPerChild ?? .max))
            batches += 1
        } else {
            assignBatch(to: worker)
        }
    }
}

/// One worker process (a fork server) seen from the parent: its current batch, the run in
/// progress, and that run's deadline.
private final class WorkerConnection {
    let process: ChildProcess
    let margin: UInt64
    let longest: UInt64
    /// Whose code the worker runs: it decides how a child's death is read.
    let runner: Ending.Runner
    /// The worker forks a child for each run of a batch (`LiveRunner.Worker.childPerRun`).
    let childPerRun: Bool
    private var buffer: [UInt8] = []
    private var errorBytes: [UInt8] = []
    private(set) var errorsOpen = true
    /// The runs of the batch the current child performs, and the first it has not completed.
    private var batch: Range<Int>?
    private var nextInBatch = 0
    private var completedInBatch = 0
    private var child: pid_t?
    private var current: RunInProgress?
    /// While no run is in progress in a batch: when the next one must have started (a child
    /// wedged between runs, or before its first, is killed).
    private var startBy: UInt64?

    init(_ process: ChildProcess, margin seconds: Double, longest: Double, runner: Ending.Runner, childPerRun: Bool) {
        self.process = process
        self.runner = runner
        self.childPerRun = childPerRun
        margin = UInt64(max(seconds, 0) * 1e9)
        self.longest = UInt64(max(longest, seconds, 0) * 1e9)
    }

    var deadline: UInt64? {
        guard let run = current else { return startBy }
        return run.killedAt == nil ? run.deadline.deadline : nil
    }

    /// A run takes at least a couple of seconds to start in a loaded machine's fresh child.
    private var startMargin: UInt64 { max(margin, 2_000_000_000) }

    /// The runs of the last batch its child did not complete (it died in one of them).
    var unfinishedBatch: Range<Int>? {
        guard let batch, nextInBatch < batch.upperBound else { return nil }
        return nextInBatch ..< batch.upperBound
    }

    func startBatch(first: Int, count: Int) {
        batch = first ..< first + count
        nextInBatch = first
        completedInBatch = 0
        child = nil
        startBy = DispatchTime.now().uptimeNanoseconds + startMargin
        errorBytes.removeAll()
        process.write(Data(BatchCommand(firstRun: first, count: count).encoded.utf8))
    }

    /// A run that ended: how, why, and whether the machine kept its time (`Punctuality`).
    struct CompletedRun {
        var outcome: LiveOutcome
        var reason: String?
        var late: Bool
    }

    /// Takes in one message; returns a completed run.
    func receive(_ message: WorkerMessage) throws -> CompletedRun? {
        let now = DispatchTime.now().uptimeNanoseconds
        switch message {
        case .start, .child, .childEnded, .finished, .hung, .gaveUp: break
        case .printed, .announced, .cleared, .dying, .expect, .late: current?.deadline.progressed(at: now)
        }
        switch message {
        case .child(let pid):
            child = pid
        case .start(let run):
            current = RunInProgress(run: run, deadline: RunDeadline(began: now, margin: margin, longest: longest))
            startBy = nil
        case .printed(let text):
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) { current?.printed.append(String(line)) }
        case .announced(let call, let line, let column, let thread):
            current?.announced[thread] = AnnouncedCall(call, line: line, column: column)
            current?.lastAnnouncer = thread
        case .cleared(let thread):
            current?.announced[thread] = nil
        case .dying(let thread, _):
            current?.dyingThread = thread
        case .expect(let microseconds):
            current?.deadline.expect(UInt64(max(microseconds, 0)) * 1000, at: now)
        case .late:
            current?.late = true
        case .finished:
            return complete(.finished, nil)
        case .hung(let why):
            return complete(.deadlock, "hang: \(why)")
        case .gaveUp(let why):
            return complete(.timeout, why)
        case .childEnded(let signal, let status):
            child = nil
            startBy = nil
            guard let run = current else {
                if completedInBatch == 0 {
                    drainErrors()
                    throw LiveRunError.workerFailed(
                        "a worker ended before any run (signal \(signal), status \(status)): \(errorText.prefix(500))")
                }
                return nil
            }
            if let killedAt = run.killedAt {
                // Killed while still showing progress: it reached the longest a run may take,
                // too slow to finish here, which says nothing about how it would end.
                let seconds = Double(killedAt - run.deadline.began) / 1e9
                if run.deadline.wasProgressing(at: killedAt) {
                    current?.late = true
                    return complete(Ending.tooSlow(after: seconds))
                }
                return complete(Ending.timeout(after: seconds))
            }
            drainErrors()
            let death: Ending.Death = signal == 0 ? .exited(status) : .signaled(signal)
            let (end, reason) = Ending.classify(death, stderr: errorText, culprit: run.culprit, runner: runner)
            return complete(end, reason)
        }
        return nil
    }

    private func complete(_ ending: (LiveEnd, String)) -> CompletedRun? {
        complete(ending.0, ending.1)
    }

    private func complete(_ end: LiveEnd, _ reason: String?) -> CompletedRun? {
        guard let run = current else { return nil }
        current = nil
        nextInBatch = run.run + 1
        completedInBatch += 1
        if let batch, nextInBatch < batch.upperBound { startBy = DispatchTime.now().uptimeNanoseconds + startMargin }
        return CompletedRun(outcome: run.printed.outcome(end: end), reason: reason, late: run.late)
    }

    /// Kills the child when its run is past its deadline; the run completes as a timeout when
    /// the fork server reports the child's end.
    func killIfLate(at now: UInt64) {
        guard let child else { return }
        if let run = current {
            guard run.killedAt == nil, run.deadline.isPast(at: now) else { return }
            current?.killedAt = now
            _ = Glibc.kill(child, SIGKILL)
        } else if let startBy, now > startBy {
            self.startBy = nil
            _ = Glibc.kill(child, SIGKILL)
        }
    }

    /// Reads what the worker wrote; throws when the worker itself is gone.
    func readMessages() throws -> [WorkerMessage] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(process.output, &chunk, chunk.count)
        if count < 0 && errno == EINTR { return [] }
        guard count > 0 else {
            drainErrors()
            throw LiveRunError.workerFailed("the worker process ended unexpectedly: \(errorText.prefix(500))")
        }
        buffer += chunk[0..<count]
        var messages: [WorkerMessage] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            if let message = WorkerMessage(line: Substring(line)) { messages.append(message) }
        }
        return messages
    }

    var errorText: String { String(decoding: errorBytes, as: UTF8.self) }

    func readErrors() {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = read(process.errors, &chunk, chunk.count)
        if count <= 0 {
            if !(count < 0 && errno == EINTR) { errorsOpen = false }
            return
        }
        if errorBytes.count < 65536 { errorBytes += chunk[0..<count] }
    }

    /// Reads and drops what the ended child wrote on standard error.
    func forgetErrors() {
        drainErrors()
        errorBytes.removeAll()
    }

    private func drainErrors() {
        while errorsOpen {
            var descriptor = [pollfd(fd: process.errors, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptor, 1, 0) > 0 else { return }
            readErrors()
        }
    }

    func shutDown() {
        if let child { _ = Glibc.kill(child, SIGKILL) }
        process.closeInput()
        process.kill()
        _ = process.wait()
    }
}

private struct RunInProgress {
    var run: Int
    var deadline: RunDeadline
    /// What it printed, in bounded memory.
    var printed = PrintedLines()
    /// The risky call each thread is in, by thread id.
    var announced: [Int32: AnnouncedCall] = [:]
    var lastAnnouncer: Int32?
    /// The thread the child's signal handler said was dying.
    var dyingThread: Int32?
    var killedAt: UInt64?
    /// The machine did not keep the run's time (`Punctuality`).
    var late = false

    init(run: Int, deadline: RunDeadline) {
        self.run = run
        self.deadline = deadline
    }

    /// The call the dying thread was in; if the handler could not say, the last one announced
    /// and still open.
    var culprit: AnnouncedCall? {
        if let dyingThread { return announced[dyingThread] ?? announced[WorkerMessage.anyThread] }
        return lastAnnouncer.flatMap { announced[$0] } ?? announced[WorkerMessage.anyThread]
    }
}

/// Counts outcomes, and the late runs among them, and keeps the first reason seen for each.
struct Tally {
    private var counts: [LiveOutcome: Int] = [:]
    private var lateCounts: [LiveOutcome: Int] = [:]
    private var reasons: [LiveOutcome: String] = [:]
    private(set) var total = 0

    mutating func add(_ outcome: LiveOutcome, reason: String?, late: Bool) {
        counts[outcome, default: 0] += 1
        if late { lateCounts[outcome, default: 0] += 1 }
        if let reason, reasons[outcome] == nil { reasons[outcome] = reason }
        total += 1
    }

    var entries: [LiveHistogram.Entry] {
        counts.map { LiveHistogram.Entry(outcome: $0.key, count: $0.value, reason: reasons[$0.key], lateRuns: lateCounts[$0.key] ?? 0) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.outcome < $1.outcome }
    }
}
