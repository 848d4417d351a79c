import DispatchModel

/// How a live run ended. The model's two endings, plus what only reality can do.
public enum LiveEnd: String, Hashable, Sendable, Codable, CaseIterable {
    /// Every piece of submitted work ran to completion.
    case finished
    /// libdispatch trapped (a sync onto a queue the thread owns), or the runner saw a hang:
    /// work outstanding, nothing runnable, no progress.
    case deadlock
    /// The process died some other way (a signal other than libdispatch's trap).
    case crash
    /// The run made no progress for so long that the runner killed it; a last resort.
    case timeout

    /// The model's ending for this one, if the model knows it.
    public var modelEnd: End? {
        switch self {
        case .finished: .finished
        case .deadlock: .deadlock
        case .crash, .timeout: nil
        }
    }
}

/// One outcome seen live: the printed lines and how the run ended.
public struct LiveOutcome: Hashable, Sendable, Comparable {
    public var lines: [String]
    public var end: LiveEnd

    public init(lines: [String], end: LiveEnd) {
        self.lines = lines
        self.end = end
    }

    /// The model's outcome with the same lines and ending, if the ending is one the model knows.
    public var modelOutcome: Outcome? {
        end.modelEnd.map { Outcome(lines: lines, end: $0) }
    }

    public static func < (a: LiveOutcome, b: LiveOutcome) -> Bool {
        let x = Outcome(lines: a.lines, end: a.end == .finished ? .finished : .deadlock)
        let y = Outcome(lines: b.lines, end: b.end == .finished ? .finished : .deadlock)
        return x == y ? a.end.rawValue < b.end.rawValue : x < y
    }
}

/// What many live runs of one program showed, most frequent first.
public struct LiveHistogram: Sendable {
    public struct Entry: Sendable {
        public var outcome: LiveOutcome
        public var count: Int
        /// Why runs with this outcome ended as they did (libdispatch's message, the stuck sync,
        /// the signal), when the ending is not `finished`.
        public var reason: String?

        public init(outcome: LiveOutcome, count: Int, reason: String? = nil) {
            self.outcome = outcome
            self.count = count
            self.reason = reason
        }
    }

    public var entries: [Entry]
    public var runs: Int
    public var seed: UInt64
    public var jitter: Bool
    /// Child processes used: one, plus one after each run that trapped, hung or crashed.
    public var processes: Int
    /// Wall-clock time for all runs, in seconds.
    public var seconds: Double

    public init(entries: [Entry], runs: Int, seed: UInt64, jitter: Bool, processes: Int, seconds: Double) {
        self.entries = entries
        self.runs = runs
        self.seed = seed
        self.jitter = jitter
        self.processes = processes
        self.seconds = seconds
    }

    public var runsPerSecond: Double { seconds > 0 ? Double(runs) / seconds : 0 }

    public func count(of outcome: LiveOutcome) -> Int {
        entries.first { $0.outcome == outcome }?.count ?? 0
    }
}
