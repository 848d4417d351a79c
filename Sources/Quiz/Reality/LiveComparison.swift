import ConcurrencyModel
import LiveRun

/// Reality side by side with the model: which live outcomes the model allows, which it does not
/// (a bug in the model or the runner), and which possible outcomes the runs never showed. When
/// the model stopped at its budget, an outcome it did not find is not judged: it may be one of
/// those it never reached.
public struct LiveComparison: Sendable {
    public struct Row: Sendable {
        public var entry: LiveHistogram.Entry
        /// False when the model says this outcome cannot happen on the machine the runs ran on
        /// (or cannot say: see `isJudged`).
        public var isExpected: Bool
        /// False when the model cannot say whether this outcome can happen: it stopped at its
        /// budget before finding it (it may be one it never reached), or the outcome is too long
        /// to have been kept whole and the model's are too many to list.
        public var isJudged: Bool
        /// For an outcome the model forbids on this machine but allows on another (fewer cores, the
        /// other platform): where. Still a bug to report: the runs happened here.
        public var elsewhere: MachineLabel?

        /// An outcome the model forbids, seen only in runs the machine made late: the runner's
        /// compressed clock slipped, which says nothing about the model.
        public var isLateOnly: Bool { isJudged && !isExpected && entry.lateRuns == entry.count }

        /// An outcome the model forbids, seen in a run that kept time: a bug in the model or the runner.
        public var isUnexpected: Bool { isJudged && !isExpected && entry.lateRuns < entry.count }

        /// An outcome the model can neither allow nor forbid.
        public var isUnjudged: Bool { !isJudged && !isExpected }
    }

    public var rows: [Row]
    /// Possible outcomes no run showed, in the model's order (when the outcomes are listed).
    public var unseen: [Outcome]
    public var possibleCount: Int
    /// False when the model stopped at its budget: `possibleCount` is then a lower bound.
    public var isModelComplete: Bool
    public var histogram: LiveHistogram
    /// The machine the runs ran on, which the model answered for.
    public var machine: Machine
    public var narrator: Narrator

    /// Compares the runs with the model's answer for the machine they ran on (the exploration
    /// is retargeted to it, or explored again if that machine was not explored).
    public init(histogram: LiveHistogram, exploration asked: Exploration) {
        let exploration = asked.retargeted(to: histogram.machine) ?? Explorer().explore(asked.program, for: histogram.machine)
        let complete = exploration.isComplete
        // A long live outcome is kept by its ends, count and hash: it is looked up among the
        // model's outcomes kept alike, which needs them listed.
        let hasLong = histogram.entries.contains { $0.outcome.elision != nil }
        let summarised = hasLong && exploration.isListed ? Set(exploration.outcomes.map(LiveOutcome.init(model:))) : nil
        rows = histogram.entries.map { entry in
            let outcome = entry.outcome.modelOutcome
            let expected: Bool
            var judged = true
            if entry.outcome.elision == nil {
                expected = outcome.map(exploration.contains) ?? false
            } else if let summarised {
                expected = entry.outcome.asModelEnding.map(summarised.contains) ?? false
            } else {
                expected = false
                judged = false
            }
            // A crash is the runner's failure whatever the model found.
            if !expected && !complete { judged = false }
            if entry.outcome.end == .crash { judged = true }
            return Row(entry: entry, isExpected: expected, isJudged: judged,
                       elsewhere: expected ? nil : outcome.flatMap(exploration.label(of:)))
        }
        let seen = Set(histogram.entries.compactMap(\.outcome.asModelEnding))
        unseen = exploration.outcomes.filter { !seen.contains(LiveOutcome(model: $0)) }
        possibleCount = Int(clamping: exploration.outcomeCount)
        isModelComplete = complete
        self.histogram = histogram
        machine = histogram.machine
        narrator = exploration.narrator
    }

    /// The runs of a snippet the model does not take (it ran compiled, on the real runtime): no
    /// outcome is judged, none is listed as unseen. `narrator` words nothing here; it is kept
    /// for the renderers' sake.
    public init(unjudged histogram: LiveHistogram, narrator: Narrator) {
        rows = histogram.entries.map { Row(entry: $0, isExpected: false, isJudged: $0.outcome.end == .crash, elsewhere: nil) }
        unseen = []
        possibleCount = 0
        isModelComplete = false
        self.histogram = histogram
        machine = histogram.machine
        self.narrator = narrator
    }

    public var unexpected: [Row] { rows.filter(\.isUnexpected) }

    /// Outcomes seen live that the model, stopped at its budget, did not find.
    public var unjudged: [Row] { rows.filter(\.isUnjudged) }

    /// How many of the model's outcomes the runs showed.
    public var seenCount: Int { Set(rows.filter(\.isExpected).compactMap(\.entry.outcome.asModelEnding)).count }
}
