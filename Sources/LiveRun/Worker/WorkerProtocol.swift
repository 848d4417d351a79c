import DispatchModel

/// What the parent asks the fork server to run: `program`, each run with its own jitter plan
/// derived from `seed` and the run's index. Sent once, as one line of JSON; then each
/// `BatchCommand` line asks for a fresh child to perform a range of runs.
public struct WorkerRequest: Codable, Sendable {
    public var program: Program
    public var seed: UInt64
    public var jitter: Bool
    /// A run with work outstanding, nothing runnable and no progress for this long has hung.
    public var hangMilliseconds: Int
    /// Fault injection for testing the runner: the child kills itself with SIGSEGV at the start
    /// of this run, as a snippet crashing in some way other than libdispatch's trap would.
    public var crashAtRun: Int?

    public init(program: Program, seed: UInt64, jitter: Bool, hangMilliseconds: Int, crashAtRun: Int? = nil) {
        self.crashAtRun = crashAtRun
        self.program = program
        self.seed = seed
        self.jitter = jitter
        self.hangMilliseconds = hangMilliseconds
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
    /// A run begins.
    case start(run: Int)
    /// The snippet printed this text (one `print`; may hold newlines).
    case printed(String)
    /// A thread is about to call `sync` at this statement; the last one announced names the
    /// culprit when libdispatch traps.
    case syncing(queue: String, line: Int, column: Int)
    /// The run finished: all submitted work completed.
    case finished
    /// The run hung; the worker exits after saying so.
    case hung(String)
    /// The fork server started a child for a batch (so the parent can kill it if it stalls).
    case child(pid: Int32)
    /// The fork server reaped the batch's child: `exited` with a status, or killed by `signal`.
    case childEnded(signal: Int32, status: Int32)

    var encoded: String {
        switch self {
        case .start(let run): "S \(run)\n"
        case .printed(let text): "P \(Self.escape(text))\n"
        case .syncing(let queue, let line, let column): "Y \(line) \(column) \(Self.escape(queue))\n"
        case .finished: "F\n"
        case .hung(let why): "H \(Self.escape(why))\n"
        case .child(let pid): "C \(pid)\n"
        case .childEnded(let signal, let status): "X \(signal) \(status)\n"
        }
    }

    init?(line: Substring) {
        guard let tag = line.first else { return nil }
        let rest = line.dropFirst(2)
        switch tag {
        case "S":
            guard let run = Int(rest) else { return nil }
            self = .start(run: run)
        case "P":
            self = .printed(Self.unescape(rest))
        case "Y":
            let parts = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let line = Int(parts[0]), let column = Int(parts[1]) else { return nil }
            self = .syncing(queue: Self.unescape(parts[2]), line: line, column: column)
        case "F":
            self = .finished
        case "H":
            self = .hung(Self.unescape(rest))
        case "C":
            guard let pid = Int32(rest) else { return nil }
            self = .child(pid: pid)
        case "X":
            let parts = rest.split(separator: " ")
            guard parts.count == 2, let signal = Int32(parts[0]), let status = Int32(parts[1]) else { return nil }
            self = .childEnded(signal: signal, status: status)
        default:
            return nil
        }
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.append(character)
            }
        }
        return result
    }

    static func unescape(_ text: Substring) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n": result.append("\n")
                case "r": result.append("\r")
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
