import ConcurrencyModel

/// What the parent asks the fork server to run: `program`, each run with its own jitter plan
/// derived from `seed` and the run's index. Sent once, as one line of JSON; then each
/// `BatchCommand` line asks for a fresh child to perform a range of runs.
public struct WorkerRequest: Codable, Sendable {
    public var program: Program
    public var seed: UInt64
    public var jitter: Bool
    /// Fault injection for testing the runner: the child kills itself with SIGSEGV at the start
    /// of this run, as a snippet crashing in some way other than libdispatch's trap would.
    public var crashAtRun: Int?

    public init(program: Program, seed: UInt64, jitter: Bool, crashAtRun: Int? = nil) {
        self.crashAtRun = crashAtRun
        self.program = program
        self.seed = seed
        self.jitter = jitter
    }
}

/// From the parent to the fork server, one a line after the request: `R first count` runs a
/// batch in a new child; end of input ends the server.
struct BatchCommand: Equatable {
    var firstRun: Int
    var count: Int

    var encoded: String { "R \(firstRun) \(count)\n" }

    init(firstRun: Int, count: Int) {
        self.firstRun = firstRun
        self.count = count
    }

    init?(line: Substring) {
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "R", let first = Int(parts[1]), let count = Int(parts[2]) else { return nil }
        self.init(firstRun: first, count: count)
    }
}

/// The line protocol from worker to parent on the worker's standard output. One message a line,
/// written with one `write(2)` so that threads never interleave inside a message, and sent as it
/// happens so that a trap loses nothing printed before it.
enum WorkerMessage: Equatable {
    /// The thread of an announcement whose crash comes on a thread libdispatch picks (a work
    /// item run again after a wait: a worker traps as it takes it from the queue).
    static let anyThread: Int32 = -1

    /// A run begins.
    case start(run: Int)
    /// The snippet printed this text (one `print`; may hold newlines).
    case printed(String)
    /// Thread `thread` is about to make a call that kills the process if the snippet misuses it.
    case announced(RiskyCall, line: Int, column: Int, thread: Int32)
    /// Thread `thread`'s announced call returned (or went on to wait): it did not kill the process.
    case cleared(thread: Int32)
    /// Thread `thread` dies of `signal` (written by the child's signal handler, in C).
    case dying(thread: Int32, signal: Int32)
    /// The run will go on for at least this long from now by its own doing (a sleep, a timer, a
    /// wait with a timeout, a block waiting for the thread pool): the parent moves its deadline.
    /// With 0, a heartbeat: the snippet's code is running.
    case expect(microseconds: Int)
    /// The machine did not run a thread of this run for this long when the snippet's timing
    /// needed it (see `Punctuality`): the run is late.
    case late(microseconds: Int)
    /// The run finished: all submitted work completed.
    case finished
    /// The run is stuck, and this is what holds it; the worker exits after saying so.
    case hung(String)
    /// The run is not stuck but made no progress the worker can expect to end; it exits after
    /// saying why (a thread pool that does not grow).
    case gaveUp(String)
    /// The fork server started a child for a batch (so the parent can kill it if it stalls).
    case child(pid: Int32)
    /// The fork server reaped the batch's child: `exited` with a status, or killed by `signal`.
    case childEnded(signal: Int32, status: Int32)

    var encoded: String {
        switch self {
        case .start(let run): "S \(run)\n"
        case .printed(let text): "P \(Self.escape(text))\n"
        case .announced(let call, let line, let column, let thread): "A \(thread) \(line) \(column) \(call.encoded)\n"
        case .cleared(let thread): "V \(thread)\n"
        case .dying(let thread, let signal): "T \(thread) \(signal)\n"
        case .expect(let microseconds): "E \(microseconds)\n"
        case .late(let microseconds): "L \(microseconds)\n"
        case .finished: "F\n"
        case .hung(let why): "H \(Self.escape(why))\n"
        case .gaveUp(let why): "G \(Self.escape(why))\n"
        case .child(let pid): "C \(pid)\n"
        case .childEnded(let signal, let status): "X \(signal) \(status)\n"
        }
    }

    init?(line: Substring) {
        guard let tag = line.first else { return nil }
        let rest = line.dropFirst(2)
        let numbers = rest.split(separator: " ")
        switch tag {
        case "S":
            guard let run = Int(rest) else { return nil }
            self = .start(run: run)
        case "P":
            self = .printed(Self.unescape(rest))
        case "A":
            let parts = rest.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let thread = Int32(parts[0]), let line = Int(parts[1]), let column = Int(parts[2]),
                let call = RiskyCall(encoded: parts[3])
            else { return nil }
            self = .announced(call, line: line, column: column, thread: thread)
        case "V":
            guard let thread = Int32(rest) else { return nil }
            self = .cleared(thread: thread)
        case "T":
            guard numbers.count == 2, let thread = Int32(numbers[0]), let signal = Int32(numbers[1]) else { return nil }
            self = .dying(thread: thread, signal: signal)
        case "E":
            guard let microseconds = Int(rest) else { return nil }
            self = .expect(microseconds: microseconds)
        case "L":
            guard let microseconds = Int(rest) else { return nil }
            self = .late(microseconds: microseconds)
        case "F":
            self = .finished
        case "H":
            self = .hung(Self.unescape(rest))
        case "G":
            self = .gaveUp(Self.unescape(rest))
        case "C":
            guard let pid = Int32(rest) else { return nil }
            self = .child(pid: pid)
        case "X":
            guard numbers.count == 2, let signal = Int32(numbers[0]), let status = Int32(numbers[1]) else { return nil }
            self = .childEnded(signal: signal, status: status)
        default:
            return nil
        }
    }

    /// Backslash escapes for newline, carriage return and tab, scalar by scalar (a "\r\n" is one
    /// Character in Swift, and must not reach the wire whole).
    static func escape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    static func unescape(_ text: Substring) -> String {
        var result = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                default: result.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
