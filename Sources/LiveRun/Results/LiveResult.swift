import DispatchModel

/// How a live run ended. The model's two endings, plus what only reality can do. `Ending`
/// decides which, in one place.
public enum LiveEnd: String, Hashable, Sendable, Codable, CaseIterable {
    /// Every piece of submitted work ran to completion.
    case finished
    /// The snippet stopped the process by a trap of its own (libdispatch, Foundation or Swift
    /// said why), or the runner knew it stuck: every thread waiting for something that only
    /// another waiting thread could give.
    case deadlock
    /// The process died of a signal nothing explains: a bug in the runner, not the snippet.
    case crash
    /// The run went on past its limit (its own sleeps and timers plus a margin, and whatever
    /// it waited for the thread pool) and was killed: as far as anyone can tell it would never
    /// end, which the model calls a deadlock.
    case timeout

    /// The model's ending this one stands for, if any.
    public var modelEnd: End? {
        switch self {
        case .finished: .finished
        case .deadlock, .timeout: .deadlock
        case .crash: nil
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
        /// Runs with this outcome during which the machine did not keep the snippet's time: a
        /// thread went unscheduled for longer than the runner's time compression allows.
        public var lateRuns: Int

        public init(outcome: LiveOutcome, count: Int, reason: String? = nil, lateRuns: Int = 0) {
            self.outcome = outcome
            self.count = count
            self.reason = reason
            self.lateRuns = lateRuns
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
    /// The machine the runs ran on (its cores as libdispatch counts them, its platform): the
    /// model's answer for it is what they are compared with.
    public var machine: Machine = .live

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
