import CProcessSupport
import DispatchModel
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
        let monitor = RunMonitor()
        startWatchdog(monitor: monitor, output: output, threshold: UInt64(request.hangMilliseconds) * 1_000_000)

        for run in batch.firstRun ..< batch.firstRun + batch.count {
            output.send(.start(run: run))
            monitor.beginRun()
            if run == request.crashAtRun {
                raise(SIGSEGV)
            }
            let jitter = request.jitter ? Jitter(seed: request.seed, run: run) : nil
            let interpreter = LiveInterpreter(program: request.program, monitor: monitor, output: output, jitter: jitter)
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
        for block in program.blocks {
            for statement in block.statements {
                var expressions: [DispatchModel.Expression] = []
                switch statement.action {
                case .print(let items): expressions = items
                case .assign(let assignment): expressions = [assignment.value]
                case .branch(let condition, _, _): expressions = [condition]
                case .loop(let loop): expressions = [loop.from, loop.to]
                default: break
                }
                let texts = expressions.map { (try? $0.evaluate({ locals[$0] }, isMainThread: true))?.description ?? "" }
                sink &+= texts.joined(separator: " ").count
                var copy = locals
                copy[VariableID(index: 0)] = .list([.string("x"), .int(1), .bool(true)])
                sink &+= copy.count &+ (copy == locals ? 1 : 0)
            }
        }
        for message in [WorkerMessage.start(run: 0), .printed("a\nb"), .syncing(queue: "q", line: 1, column: 1), .finished,
                        .hung("h"), .child(pid: 1), .childEnded(signal: 0, status: 0)] {
            sink &+= message.encoded.utf8.count
        }
        let jitter = Jitter(seed: 1, run: 0)
        sink &+= Int(jitter.chance) &+ Int(DispatchTime.now().uptimeNanoseconds & 1)
        if sink == Int.min { print(sink) }
    }

    /// A hang cannot be undone (threads stay blocked forever), so the child says so and exits;
    /// the parent asks for a fresh child for the remaining runs.
    private static func startWatchdog(monitor: RunMonitor, output: WorkerOutput, threshold: UInt64) {
        let thread = Thread {
            while true {
                usleep(2000)
                if monitor.hasHung(threshold: threshold) {
                    output.send(.hung("work outstanding, no thread runnable, no progress for \(threshold / 1_000_000) ms"))
                    _exit(0)
                }
            }
        }
        thread.start()
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
