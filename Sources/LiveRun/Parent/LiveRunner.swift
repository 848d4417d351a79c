import DispatchModel
import Foundation

/// Runs a program live many times in worker processes and gathers a histogram. Many runs share a
/// process while they finish normally; a run that traps, hangs or crashes costs a new one.
public struct LiveRunner: Sendable {
    public struct Options: Sendable {
        public var runs = 1000
        public var seed: UInt64 = 1
        public var jitter = true
        /// Work outstanding, nothing runnable and no progress for this long: a hang.
        public var hangMilliseconds = 100
        /// No message at all from a worker for this long: kill it and call the run a timeout.
        public var stallSeconds = 5.0
        /// For testing the runner: the worker crashes (SIGSEGV) at the start of this run.
        public var crashAtRun: Int?

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
    ///   - shouldStop: checked between messages; when true, the worker is killed and the
    ///     histogram holds the runs done so far.
    public func run(_ program: Program, options: Options, onRun: (Int, LiveOutcome) -> Void = { _, _ in },
                    shouldStop: () -> Bool = { false }) throws -> LiveHistogram {
        let started = DispatchTime.now().uptimeNanoseconds
        var tally = Tally()
        var next = 0
        var batches = 0
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"

        let server = try ChildProcess(executable: workerExecutable, arguments: workerArguments, environment: environment)
        defer {
            server.closeInput()
            server.kill()
            _ = server.wait()
        }
        let request = WorkerRequest(
            program: program, seed: options.seed, jitter: options.jitter, hangMilliseconds: options.hangMilliseconds,
            crashAtRun: options.crashAtRun)
        server.write(try JSONEncoder().encode(request) + Data("\n".utf8))
        var session = WorkerSession(server: server, stallSeconds: options.stallSeconds)

        while next < options.runs && !shouldStop() {
            server.write(Data(BatchCommand(firstRun: next, count: options.runs - next).encoded.utf8))
            batches += 1
            var current: RunInProgress?
            var child: Int32?
            var completedHere = 0
            var ending: (signal: Int32, status: Int32)?
            var stalled = false

            func complete(_ end: LiveEnd, reason: String?) {
                guard let run = current else { return }
                let outcome = LiveOutcome(lines: run.lines, end: end)
                tally.add(outcome, reason: reason)
                next = run.run + 1
                completedHere += 1
                current = nil
                onRun(tally.total, outcome)
            }

            reading: while let event = session.next(shouldStop: shouldStop) {
                switch event {
                case .message(.child(let pid)):
                    child = pid
                case .message(.start(let run)):
                    current = RunInProgress(run: run)
                case .message(.printed(let text)):
                    current?.lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                case .message(.syncing(let queue, let line, _)):
                    current?.lastSync = "\(queue).sync at line \(line)"
                case .message(.finished):
                    complete(.finished, reason: nil)
                case .message(.hung(let why)):
                    let culprit = current?.lastSync.map { "; last sync called: \($0)" } ?? ""
                    complete(.deadlock, reason: "hang: \(why)\(culprit)")
                case .message(.childEnded(let signal, let status)):
                    ending = (signal, status)
                    break reading
                case .stalled:
                    if let child { _ = Glibc.kill(child, SIGKILL) }
                    stalled = true
                case .stopped:
                    if let child { _ = Glibc.kill(child, SIGKILL) }
                    return histogram(tally, options, batches, started)
                }
            }
            guard let ending else {
                throw LiveRunError.workerFailed("the worker process ended unexpectedly: \(session.errorText.prefix(500))")
            }
            let stderr = session.errorText
            session.clearErrors()
            if current != nil {
                if stalled {
                    complete(.timeout, reason: "no progress for \(Int(options.stallSeconds)) s: killed")
                } else {
                    let (end, reason) = Self.classify(signal: ending.signal, status: ending.status, stderr: stderr, lastSync: current?.lastSync)
                    complete(end, reason: reason)
                }
            } else if completedHere == 0 && next < options.runs {
                throw LiveRunError.workerFailed("a worker ended before any run (signal \(ending.signal), status \(ending.status)): \(stderr.prefix(500))")
            }
        }
        return histogram(tally, options, batches, started)
    }

    private func histogram(_ tally: Tally, _ options: Options, _ batches: Int, _ started: UInt64) -> LiveHistogram {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return LiveHistogram(
            entries: tally.entries, runs: tally.total, seed: options.seed, jitter: options.jitter,
            processes: batches, seconds: seconds)
    }

    /// The message of a `fatalError` Foundation raises for a misused Operation (adding one twice,
    /// adding blocks to a started one): an ending the snippet itself causes, as the model says.
    static func foundationFatalError(_ stderr: String) -> String? {
        let line = firstLine(of: stderr, containing: "Fatal error")
        guard line.contains("Operation.swift"), let range = line.range(of: "Fatal error: ") else { return nil }
        return String(line[range.upperBound...])
    }

    /// How a worker that died in the middle of a run ended it.
    static func classify(signal: Int32, status: Int32, stderr: String, lastSync: String?) -> (LiveEnd, String) {
        let libdispatchOwned = "dispatch_sync called on queue already owned by current thread"
        switch signal {
        case SIGILL, SIGTRAP:
            if let fatal = foundationFatalError(stderr) {
                return (.deadlock, "Foundation stops the process: \(fatal)")
            }
            if stderr.contains("Fatal error") {
                return (.crash, "Swift runtime error: \(firstLine(of: stderr, containing: "Fatal error"))")
            }
            let culprit = lastSync.map { " in \($0)" } ?? ""
            return (.deadlock, "trap\(culprit): libdispatch: \"\(libdispatchOwned)\" (\(signalName(signal)))")
        case 1...:
            return (.crash, "killed by \(signalName(signal))\(stderr.isEmpty ? "" : ": " + firstLine(of: stderr, containing: ""))")
        default:
            return (.crash, "the worker exited with status \(status) in the middle of a run\(stderr.isEmpty ? "" : ": " + firstLine(of: stderr, containing: ""))")
        }
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV",
                                      SIGBUS: "SIGBUS", SIGKILL: "SIGKILL", SIGFPE: "SIGFPE", SIGTERM: "SIGTERM"]
        return names[signal] ?? "signal \(signal)"
    }

    static func firstLine(of text: String, containing needle: String) -> String {
        let lines = text.split(separator: "\n")
        return String(lines.first { needle.isEmpty || $0.contains(needle) } ?? lines.first ?? "")
    }
}

private struct RunInProgress {
    var run: Int
    var lines: [String] = []
    var lastSync: String?
}

/// Counts outcomes and keeps the first reason seen for each.
private struct Tally {
    private var counts: [LiveOutcome: Int] = [:]
    private var reasons: [LiveOutcome: String] = [:]
    private(set) var total = 0

    mutating func add(_ outcome: LiveOutcome, reason: String?) {
        counts[outcome, default: 0] += 1
        if let reason, reasons[outcome] == nil { reasons[outcome] = reason }
        total += 1
    }

    var entries: [LiveHistogram.Entry] {
        counts.map { LiveHistogram.Entry(outcome: $0.key, count: $0.value, reason: reasons[$0.key]) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.outcome < $1.outcome }
    }
}

/// Reads a worker's messages and its standard error with `poll`, so that neither pipe can fill
/// up and block the worker, and a silent worker is noticed.
private struct WorkerSession {
    enum Event {
        case message(WorkerMessage)
        case stalled
        case stopped
    }

    let server: ChildProcess
    let stallSeconds: Double
    private var buffer: [UInt8] = []
    private var errorBytes: [UInt8] = []
    private var pending: [WorkerMessage] = []
    private var outputOpen = true
    private var errorsOpen = true

    init(server: ChildProcess, stallSeconds: Double) {
        self.server = server
        self.stallSeconds = stallSeconds
    }

    var errorText: String {
        mutating get {
            drainErrors()
            return String(decoding: errorBytes, as: UTF8.self)
        }
    }

    /// The next event, or nil once the worker closed its output.
    mutating func next(shouldStop: () -> Bool) -> Event? {
        var silentSince = DispatchTime.now().uptimeNanoseconds
        while pending.isEmpty {
            guard outputOpen else { return nil }
            if shouldStop() { return .stopped }
            var fds = [pollfd(fd: server.output, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errorsOpen ? server.errors : -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, 50)
            if ready < 0 && errno != EINTR { return nil }
            if ready <= 0 {
                if Double(DispatchTime.now().uptimeNanoseconds - silentSince) / 1e9 > stallSeconds {
                    silentSince = DispatchTime.now().uptimeNanoseconds
                    return .stalled
                }
                continue
            }
            if fds[1].revents != 0 { readErrors() }
            if fds[0].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = read(server.output, &chunk, chunk.count)
                if count <= 0 {
                    if count < 0 && errno == EINTR { continue }
                    outputOpen = false
                    continue
                }
                silentSince = DispatchTime.now().uptimeNanoseconds
                buffer += chunk[0..<count]
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    if let message = WorkerMessage(line: Substring(line)) { pending.append(message) }
                }
            }
        }
        return .message(pending.removeFirst())
    }

    mutating func clearErrors() {
        errorBytes.removeAll()
    }

    private mutating func readErrors() {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = read(server.errors, &chunk, chunk.count)
        if count <= 0 {
            if !(count < 0 && errno == EINTR) { errorsOpen = false }
            return
        }
        if errorBytes.count < 65536 { errorBytes += chunk[0..<count] }
    }

    private mutating func drainErrors() {
        while errorsOpen {
            var fds = [pollfd(fd: server.errors, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 0) > 0 else { return }
            readErrors()
        }
    }
}
