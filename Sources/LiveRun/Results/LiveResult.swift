import ConcurrencyModel

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

/// One outcome seen live: the printed lines and how the run ended. An outcome of more than 100
/// lines is kept as its first and last ten lines with the count and a hash of all of them
/// (`elision`), so that a snippet printing 200,000 lines costs a few kilobytes an outcome, and
/// outcomes still compare exactly (up to a 64-bit hash).
public struct LiveOutcome: Hashable, Sendable, Comparable {
    /// Every printed line; for a long outcome, the first and the last ones kept.
    public var lines: [String]
    public var end: LiveEnd
    /// Nil when `lines` holds every line.
    public var elision: Elision?

    /// A long outcome's lines left out between the first and the last ones kept.
    public struct Elision: Hashable, Sendable {
        /// How many of `lines` come before the gap.
        public var headCount: Int
        /// How many lines the gap stands for.
        public var omitted: Int
        /// FNV-1a of every line, each followed by a line break.
        public var digest: UInt64
    }

    /// `lines` as printed, summarised when long.
    public init(lines: [String], end: LiveEnd) {
        var printed = PrintedLines()
        for line in lines { printed.append(line) }
        self = printed.outcome(end: end)
    }

    init(kept lines: [String], end: LiveEnd, elision: Elision?) {
        self.lines = lines
        self.end = end
        self.elision = elision
    }

    /// The model's outcome as a live run would show it: its lines summarised the same way, its
    /// ending `finished` or `deadlock`. Live outcomes are looked up among these.
    public init(model outcome: Outcome) {
        self.init(lines: outcome.lines, end: outcome.end == .finished ? .finished : .deadlock)
    }

    /// How many lines were printed.
    public var lineCount: Int { lines.count + (elision?.omitted ?? 0) }

    /// This outcome with the model's ending for its own (a timeout is a deadlock), to look up
    /// among `init(model:)`s; nil for a crash, which the model has no word for.
    public var asModelEnding: LiveOutcome? {
        end.modelEnd.map { LiveOutcome(kept: lines, end: $0 == .finished ? .finished : .deadlock, elision: elision) }
    }

    /// The model's outcome with the same lines and ending, if the ending is one the model knows
    /// and every line was kept (a long outcome compares through `asModelEnding`).
    public var modelOutcome: Outcome? {
        guard elision == nil else { return nil }
        return end.modelEnd.map { Outcome(lines: lines, end: $0) }
    }

    /// The lines before the gap of a long outcome (all of them otherwise), and those after it.
    public var ends: (head: ArraySlice<String>, tail: ArraySlice<String>) {
        guard let elision else { return (lines[...], []) }
        return (lines.prefix(elision.headCount), lines.dropFirst(elision.headCount))
    }

    public static func < (a: LiveOutcome, b: LiveOutcome) -> Bool {
        let x = Outcome(lines: a.lines, end: a.end == .finished ? .finished : .deadlock)
        let y = Outcome(lines: b.lines, end: b.end == .finished ? .finished : .deadlock)
        if x != y { return x < y }
        if a.lineCount != b.lineCount { return a.lineCount < b.lineCount }
        if a.end != b.end { return a.end.rawValue < b.end.rawValue }
        return (a.elision?.digest ?? 0) < (b.elision?.digest ?? 0)
    }
}

/// A run's printed lines as they come, in bounded memory: the first `wholeLimit` (an outcome that
/// short is kept whole), a ring of the last `keptAtEachEnd`, the count and a running hash.
struct PrintedLines: Sendable {
    /// Outcomes of at most this many lines are kept whole.
    static let wholeLimit = 100
    /// A longer outcome keeps this many lines at each end.
    static let keptAtEachEnd = 10

    private var head: [String] = []
    private var ring: [String] = []
    private var ringStart = 0
    private(set) var count = 0
    private var digest: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func append(_ line: String) {
        count += 1
        for byte in line.utf8 { mix(byte) }
        mix(0x0A)
        if head.count < Self.wholeLimit {
            head.append(line)
        } else if ring.count < Self.keptAtEachEnd {
            ring.append(line)
        } else {
            ring[ringStart] = line
            ringStart = (ringStart + 1) % Self.keptAtEachEnd
        }
    }

    private mutating func mix(_ byte: UInt8) {
        digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3
    }

    /// The outcome these lines make with `end`.
    func outcome(end: LiveEnd) -> LiveOutcome {
        guard count > Self.wholeLimit else { return LiveOutcome(kept: head, end: end, elision: nil) }
        let last = Array(ring[ringStart...] + ring[..<ringStart])
        // The last lines: from the ring, topped up from the head when fewer came after it.
        let missing = Self.keptAtEachEnd - last.count
        let tail = Array(head.suffix(missing)) + last
        let kept = Array(head.prefix(Self.keptAtEachEnd)) + tail
        return LiveOutcome(kept: kept, end: end,
                           elision: .init(headCount: Self.keptAtEachEnd, omitted: count - kept.count, digest: digest))
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
        /// thread went unscheduled for longer than the runner's time compression allows (the
        /// interpreter), or held from a core about half the snippet's shortest delay (compiled).
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
    /// For runs of a compiled harness (`CompiledHarness`): the language mode it was compiled in;
    /// nil for runs in the interpreter.
    public var compiledMode: LanguageMode?

    /// Where the runs ran, as the histogram's header says it: "on libdispatch" (the interpreter)
    /// or "compiled by swiftc (Swift 6)".
    public var engine: String { compiledMode.map { "compiled by swiftc (\($0))" } ?? "on libdispatch" }

    public init(entries: [Entry], runs: Int, seed: UInt64, jitter: Bool, processes: Int, seconds: Double) {
        self.entries = entries
        self.runs = runs
        self.seed = seed
        self.jitter = jitter
        self.processes = processes
        self.seconds = seconds
    }

    public var runsPerSecond: Double { seconds > 0 ? Double(runs) / seconds : 0 }

    /// Runs during which the machine did not keep the snippet's time, whatever their outcome.
    public var lateRuns: Int { entries.reduce(0) { $0 + $1.lateRuns } }

    public func count(of outcome: LiveOutcome) -> Int {
        entries.first { $0.outcome == outcome }?.count ?? 0
    }
}
