import DispatchModel
import LiveRun

/// Reality side by side with the model: which live outcomes the model allows, which it does not
/// (a bug in the model or the runner), and which possible outcomes the runs never showed.
public struct LiveComparison: Sendable {
    public struct Row: Sendable {
        public var entry: LiveHistogram.Entry
        /// False when the model says this outcome cannot happen.
        public var isExpected: Bool

        /// An outcome the model forbids, seen only in runs the machine made late: the runner's
        /// compressed clock slipped, which says nothing about the model.
        public var isLateOnly: Bool { !isExpected && entry.lateRuns == entry.count }

        /// An outcome the model forbids, seen in a run that kept time: a bug in the model or the runner.
        public var isUnexpected: Bool { !isExpected && !isLateOnly }
    }

    public var rows: [Row]
    /// Possible outcomes no run showed, in the model's order.
    public var unseen: [Outcome]
    public var possibleCount: Int
    public var histogram: LiveHistogram

    public init(histogram: LiveHistogram, exploration: Exploration) {
        let possible = Set(exploration.outcomes)
        rows = histogram.entries.map { entry in
            Row(entry: entry, isExpected: entry.outcome.modelOutcome.map(possible.contains) ?? false)
        }
        let seen = Set(histogram.entries.compactMap(\.outcome.modelOutcome))
        unseen = exploration.outcomes.filter { !seen.contains($0) }
        possibleCount = exploration.outcomes.count
        self.histogram = histogram
    }

    public var unexpected: [Row] { rows.filter(\.isUnexpected) }

    /// How many of the model's outcomes the runs showed.
    public var seenCount: Int { possibleCount - unseen.count }
}
