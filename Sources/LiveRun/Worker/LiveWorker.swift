import CProcessSupport
import ConcurrencyModel
import Foundation

/// The worker process: a fork server. It reads the request, then for each batch command forks a
/// child that performs the runs on real libdispatch and reports on the shared standard output.
/// Forking a process that has already loaded everything costs far less than starting one, and a
/// run that traps kills only its child. The server itself stays single-threaded (it never
/// touches dispatch), which is what makes `fork` safe.
public enum LiveWorker {
    public static func serve() -> Never {
        dieWithParent()
        var input = LineReader(descriptor: STDIN_FILENO)
        let output = WorkerOutput()
        guard let first = input.nextLine(),
            let request = try? JSONDecoder().decode(WorkerRequest.self, from: Data(first.utf8))
        else {
            FileHandle.standardError.write(Data("gcdquiz live worker: unreadable request\n".utf8))
            exit(2)
        }
        warmUp(request.program)
        while let line = input.nextLine() {
            guard let batch = BatchCommand(line: Substring(line)) else {
                FileHandle.standardError.write(Data("gcdquiz live worker: unreadable command '\(line)'\n".utf8))
                exit(2)
            }
            let pid = gcdquiz_fork()
            if pid == 0 {
                runBatch(request, batch, output: output)
            }
            if pid < 0 {
                FileHandle.standardError.write(Data("gcdquiz live worker: fork failed: \(String(cString: strerror(errno)))\n".utf8))
                exit(2)
            }
            output.send(.child(pid: pid))
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7F
            output.send(.childEnded(signal: signal, status: signal == 0 ? (status >> 8) & 0xFF : 0))
        }
        exit(0)
    }

    /// The child: performs the batch's runs one after the other on the main thread, which serves
    /// the main queue between statements through its run loop, as a Playground's does.
    private static func runBatch(_ request: WorkerRequest, _ batch: BatchCommand, output: WorkerOutput) -> Never {
        dieWithParent()
        _ = gcdquiz_set_timer_slack(1000)
        _ = gcdquiz_report_dying_thread(STDOUT_FILENO)
        let monitor = RunMonitor(program: request.program)
        let keepsTime = request.program.usesTime
        Watchdog(monitor: monitor, narration: LiveNarration(program: request.program), output: output, keepsTime: keepsTime).start()

        for run in batch.firstRun ..< batch.firstRun + batch.count {
            output.send(.start(run: run))
            monitor.beginRun(run)
            if run == request.crashAtRun {
                raise(SIGSEGV)
            }
            let jitter = request.jitter ? Jitter(seed: request.seed, run: run) : nil
            let interpreter = LiveInterpreter(program: request.program, monitor: monitor, output: output, jitter: jitter,
                                              keepsTime: keepsTime)
            var over = interpreter.runTopLevel()
            while !over {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
                over = monitor.isDone
            }
            monitor.endRun()
            output.send(.finished)
        }
        _exit(0)
    }

    /// Runs, in the server and without threads, the code paths a run will take, so that the
    /// Swift runtime's lazily built metadata and witness tables exist before any fork. A forked
    /// child's main thread inherits the server's cached thread id, and the runtime's once-locks
    /// use it: two threads of a child initialising the same table at the same time could then
    /// wait on each other for ever (seen about once in 500 runs before this warm-up).
    private static func warmUp(_ program: Program) {
        var sink = 0
        var locals: [VariableID: Value] = [:]
        for variable in program.variables.indices { locals[VariableID(index: variable)] = .int(0) }
        program.walk { statement, _ in
            let texts = statement.action.expressions.map { (try? $0.evaluate({ locals[$0] }, isMainThread: true))?.description ?? "" }
            sink &+= texts.joined(separator: " ").count
            var copy = locals
            copy[VariableID(index: 0)] = .list([.string("x"), .int(1), .bool(true)])
            sink &+= copy.count &+ (copy == locals ? 1 : 0)
        }
        for message in [WorkerMessage.start(run: 0), .printed("a\nb"), .announced(.sync(queue: "q"), line: 1, column: 1, thread: 1),
                        .cleared(thread: 1), .expect(microseconds: 1), .late(microseconds: 1), .finished, .hung("h"), .gaveUp("g"), .child(pid: 1),
                        .childEnded(signal: 0, status: 0)] {
            sink &+= message.encoded.utf8.count
        }
        let jitter = Jitter(seed: 1, run: 0)
        sink &+= Int(jitter.chance) &+ Int(DispatchTime.now().uptimeNanoseconds & 1)
        sink &+= warmUpBooks(program)
        if sink == Int.min { print(sink) }
    }

    /// The books and their judge, exercised once: the watchdog thread and the run's threads use
    /// them at the same time in every child.
    private static func warmUpBooks(_ program: Program) -> Int {
        let monitor = RunMonitor(program: program)
        monitor.beginRun(0)
        let queue = QueueID(index: 0)
        let token = monitor.submitting(to: queue, barrier: true, line: 1)
        monitor.submitted(token)
        if !program.groups.isEmpty {
            let group = GroupID(index: 0)
            monitor.groupEntered(group)
            _ = monitor.groupNotify(group, queue: queue, line: 1)
            monitor.groupLeft(group)
        }
        if !program.workItems.isEmpty {
            let item = WorkItemID(index: 0)
            _ = monitor.workItemNotify(item, queue: queue, line: 1)
            _ = monitor.workItemSubmitting(item, to: queue, barrier: false, line: 1)
            monitor.workItemBlockEnded(item, on: monitor.workItemBlockStarted(item, barrier: false), barrier: false)
            monitor.workItemDone(item, inRun: 0)
        }
        let wait = monitor.beginWait(.sync(queue), line: 1)
        monitor.timerSet()
        var verdicts = [StuckAnalysis.verdict(monitor.snapshot, operations: Watchdog.facts([]))]
        monitor.timerEnded()
        verdicts.append(StuckAnalysis.verdict(monitor.snapshot, operations: [
            StuckAnalysis.OperationFacts(operation: OperationID(index: 0), line: 1, queue: ObjectIdentifier(monitor), isMainQueue: false, isFinished: false,
                                         isExecuting: false, isReady: false, queueSuspended: false, queueLimit: 1)]))
        monitor.endWait(wait)
        monitor.started(token, on: queue, barrier: true)
        monitor.finished(on: queue, barrier: true)
        monitor.iterationsSubmitted(1)
        monitor.iterationStarted()
        monitor.threadStopped()
        monitor.iterationsDone()
        monitor.endRun()
        _ = monitor.late(by: 0)
        let asleep = ThreadStates.allAsleep(except: 0) ? 1 : 0
        return verdicts.count &+ asleep &+ Int(monitor.generation & 1) &+ (monitor.isDone ? 1 : 0)
    }

    /// If its parent dies (Ctrl-C on gcdquiz, a crash), a worker dies with it: no strays.
    private static func dieWithParent() {
        let parent = getppid()
        _ = gcdquiz_set_parent_death_signal(SIGKILL)
        if getppid() != parent { _exit(0) }
    }
}

/// Reads lines from a file descriptor without Foundation's file handles, whose machinery may
/// start threads: the fork server must stay single-threaded.
struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    mutating func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
            } else {
                buffer += chunk[0..<count]
            }
        }
    }
}
