import DispatchModel
import LiveRun

/// Reality side by side with the model: which live outcomes the model allows, which it does not
/// (a bug in the model or the runner), and which possible outcomes the runs never showed.
public struct LiveComparison: Sendable {
    public struct Row: Sendable {
        public var entry: LiveHistogram.Entry
        /// False when the model says this outcome cannot happen on the machine the runs ran on.
        public var isExpected: Bool
        /// For an outcome the model forbids on this machine but allows on another (fewer cores, the
        /// other platform): where. Still a bug to report: the runs happened here.
        public var elsewhere: MachineLabel?

        /// An outcome the model forbids, seen only in runs the machine made late: the runner's
        /// compressed clock slipped, which says nothing about the model.
        public var isLateOnly: Bool { !isExpected && entry.lateRuns == entry.count }

        /// An outcome the model forbids, seen in a run that kept time: a bug in the model or the runner.
        public var isUnexpected: Bool { !isExpected && !isLateOnly }
    }

    public var rows: [Row]
    /// Possible outcomes no run showed, in the model's order (when the outcomes are listed).
    public var unseen: [Outcome]
    public var possibleCount: Int
    public var histogram: LiveHistogram
    /// The machine the runs ran on, which the model answered for.
    public var machine: Machine
    public var narrator: Narrator

    /// Compares the runs with the model's answer for the machine they ran on (the exploration
    /// is retargeted to it, or explored again if that machine was not explored).
    public init(histogram: LiveHistogram, exploration asked: Exploration) {
        let exploration = asked.retargeted(to: histogram.machine) ?? Explorer().explore(asked.program, for: histogram.machine)
        rows = histogram.entries.map { entry in
            let outcome = entry.outcome.modelOutcome
            let expected = outcome.map(exploration.contains) ?? false
            return Row(entry: entry, isExpected: expected, elsewhere: expected ? nil : outcome.flatMap(exploration.label(of:)))
        }
        let seen = Set(histogram.entries.compactMap(\.outcome.modelOutcome))
        unseen = exploration.outcomes.filter { !seen.contains($0) }
        possibleCount = Int(clamping: exploration.outcomeCount)
        self.histogram = histogram
        machine = histogram.machine
        narrator = exploration.narrator
    }

    public var unexpected: [Row] { rows.filter(\.isUnexpected) }

    /// How many of the model's outcomes the runs showed.
    public var seenCount: Int { Set(rows.filter(\.isExpected).compactMap(\.entry.outcome.modelOutcome)).count }
}
