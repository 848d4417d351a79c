import ConcurrencyModel
import Foundation
import LiveRun
import Quiz

// Every JSON document gcdquiz prints, in one place. Scripts rely on these shapes (DESIGN.md):
// fields are added, never renamed or removed. `schema` counts incompatible changes; it is 1.

/// `solve --json`: DESIGN.md's shape, plus the witness and the search's figures.
struct SolveJSON: Encodable {
    /// The schedule that produces an outcome, beside the outcome's fields; left out once the
    /// time budget is spent (a search per outcome over a large graph takes long).
    struct Witness: Encodable {
        var witness: [StepEntry]?
    }

    /// An outcome with its witness, worded by the narrator; without it past `deadline`.
    static func entry(_ report: OutcomeReport, narrator: Narrator, deadline: ContinuousClock.Instant? = nil) -> OutcomeWith<Witness> {
        if let deadline, ContinuousClock.now >= deadline {
            return OutcomeWith(OutcomeJSON(report, narrator: narrator), Witness(witness: nil))
        }
        return OutcomeWith(
            OutcomeJSON(report, narrator: narrator),
            Witness(witness: report.witness.map { step in
                StepEntry(thread: narrator.thread(step.thread), queue: step.queue.map(narrator.name), action: narrator.action(step),
                          line: step.span?.line, column: step.span?.column)
            }))
    }

    struct StepEntry: Encodable {
        var thread: String
        var queue: String?
        var action: String
        var line: Int?
        var column: Int?
    }

    struct RaceEntry: Encodable {
        struct Access: Encodable {
            var thread: String
            var kind: String
            var line: Int
            var column: Int
        }
        var variable: String
        var accesses: [Access]
    }

    struct MachineCount: Encodable {
        var cores: Int?
        var platform: String
        var count: UInt64

        enum CodingKeys: String, CodingKey { case cores, platform, count }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cores, forKey: .cores)
            try container.encode(platform, forKey: .platform)
            try container.encode(count, forKey: .count)
        }
    }

    struct Rule: Encodable {
        var first: String
        var then: String
    }

    var schema = jsonSchemaVersion
    var puzzle: String
    var outcomes: [OutcomeWith<Witness>]
    var races: [RaceEntry]
    /// Every outcome on the machine asked for, also when they are too many to list.
    var count: UInt64
    var complete: Bool
    var states: Int
    var milliseconds: Double
    var machine: MachineJSON
    /// False when the outcomes are too many to list: `outcomes` is empty; `rules` and `sample`
    /// say what they are like.
    var listed: Bool
    /// Outcomes only other machines show, each with where.
    var elsewhere: [OutcomeWith<Witness>]
    var machines: [MachineCount]
    var rules: [Rule]?
    var sample: [OutcomeJSON]?
    /// The language mode answered for ("Swift 6", "Swift 6 + NonisolatedNonsendingByDefault");
    /// absent for the default of a GCD snippet.
    var mode: String?
    /// Where NonisolatedNonsendingByDefault would change the answer: that mode and its outcomes.
    var otherMode: OtherMode?

    struct OtherMode: Encodable {
        var mode: String
        var outcomes: [OutcomeJSON]
    }

    /// Everything but the outcomes, which `print` streams: hundreds of thousands of outcomes,
    /// each with its witness, would take gigabytes as one document.
    init(puzzle: Puzzle, exploration: Exploration, elapsed: Duration, alternative: ModeAlternative? = nil,
         witnessDeadline: ContinuousClock.Instant? = nil) {
        self.puzzle = puzzle.name
        mode = (puzzle.program.mode ?? (puzzle.program.usesTasks ? LanguageMode(swiftVersion: 6) : nil)).map { "\($0)" }
        otherMode = alternative.map { other in
            OtherMode(mode: "\(other.mode)", outcomes: other.exploration.reports.map { OutcomeJSON($0, narrator: other.exploration.narrator) })
        }
        outcomes = []
        let narrator = exploration.narrator
        races = exploration.races.map { race in
            RaceEntry(variable: narrator.name(race.variable), accesses: [race.first, race.second].map {
                RaceEntry.Access(thread: narrator.thread($0.thread), kind: $0.isWrite ? "write" : "read", line: $0.span.line, column: $0.span.column)
            })
        }
        count = exploration.outcomeCount
        complete = exploration.isComplete
        states = exploration.statesExplored
        milliseconds = (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        machine = MachineJSON(exploration)
        listed = exploration.isListed
        elsewhere = exploration.elsewhere.map { Self.entry($0, narrator: narrator, deadline: witnessDeadline) }
        machines = exploration.countsByMachine.map { MachineCount(cores: $0.machine.cores, platform: $0.machine.platform.rawValue, count: $0.count) }
        if !exploration.isListed {
            rules = exploration.orderingRules?.map { Rule(first: $0.first, then: $0.then) }
            sample = exploration.sample(10, seed: 1).map { OutcomeJSON($0) }
        }
    }

    /// Prints the document with every outcome, encoding and writing one outcome at a time, so
    /// memory stays that of the search.
    static func print(puzzle: Puzzle, exploration: Exploration, elapsed: Duration, alternative: ModeAlternative? = nil,
                      witnessDeadline: ContinuousClock.Instant? = nil) throws {
        try JSONOutput.print(
            SolveJSON(puzzle: puzzle, exploration: exploration, elapsed: elapsed, alternative: alternative, witnessDeadline: witnessDeadline),
            streaming: "outcomes", elements: exploration.reports.lazy.map { entry($0, narrator: exploration.narrator, deadline: witnessDeadline) })
    }
}

/// `check --json` for choice and short questions.
struct InterviewCheckJSON: Encodable {
    var schema = jsonSchemaVersion
    var puzzle: String
    var kind: String
    var verdict: String
    /// Short: the key ideas said, and those missing.
    var found: [String] = []
    var missing: [String] = []
    /// Choice: the right options' letters and the chosen ones, as `show` letters them.
    var correct: [String] = []
    var chosen: [String] = []
    /// Line: the line named, the model's reason, and every line whose change is a fix.
    var line: Int?
    var reason: String?
    var fixes: [Int]?
}

/// `check --json`.
struct CheckJSON: Encodable {
    struct Impossible: Encodable {
        var outcome: OutcomeJSON
        var prefix: [String]
        var wanted: String
        var next: [String]
        var reasons: [BlockerJSON]
    }

    var schema = jsonSchemaVersion
    var puzzle: String
    var verdict: String
    var predicted: [OutcomeJSON]
    var right: [OutcomeJSON]
    var missing: [OutcomeJSON]
    var possible: UInt64
    var missingCount: UInt64
    /// Predicted outcomes only other machines show (not counted), each with where.
    var elsewhere: [OutcomeJSON]
    var machine: MachineJSON
    var impossible: Impossible?

    init(puzzle: String, grade: TraceGrade, exploration: Exploration) {
        self.puzzle = puzzle
        verdict = grade.verdict.name
        predicted = grade.predicted.map { OutcomeJSON($0) }
        right = grade.right.map { OutcomeJSON($0) }
        missing = grade.missing.map { OutcomeJSON($0) }
        possible = grade.possibleCount
        missingCount = grade.missingCount
        elsewhere = grade.elsewhere.map { outcome in
            var entry = OutcomeJSON(outcome)
            if let label = exploration.label(of: outcome) { entry.label(label) }
            return entry
        }
        machine = MachineJSON(exploration)
        if case .wrong(let why) = grade.verdict {
            impossible = Impossible(
                outcome: OutcomeJSON(why.outcome), prefix: why.longestPrefix, wanted: why.wanted.description,
                next: why.couldComeNext.map(\.description),
                reasons: why.blockers.map { BlockerJSON($0, narrator: why.narrator) })
        }
    }
}

struct QuestionListJSON: Encodable {
    struct Entry: Encodable {
        var id: String
        var kind: String
        var title: String
        var level: Int
        var tags: [String]
        var file: String

        init(_ question: Question) {
            id = question.id
            kind = question.kind.rawValue
            title = question.title
            level = question.level
            tags = question.tags
            file = question.file
        }
    }
    var schema = jsonSchemaVersion
    var questions: [Entry]
}

/// `run --json`: DESIGN.md's outcome objects (`OutcomeJSON`, `end` also `crash` or `timeout`)
/// with `count`, plus the comparison with the model.
struct RunJSON: Encodable {
    struct Counts: Encodable {
        var count: Int
        var percent: Double
        /// False: the model says it cannot happen (or, when `judged` is false, did not find it
        /// before it stopped at its budget).
        var expected: Bool
        /// False when the model stopped at its budget before it could say whether this outcome
        /// can happen.
        var judged: Bool
        /// Runs with this outcome in which the machine did not keep the snippet's time.
        var lateRuns: Int
    }

    var schema = jsonSchemaVersion
    var puzzle: String
    var outcomes: [OutcomeWith<Counts>]
    /// Possible outcomes no run showed.
    var unseen: [OutcomeJSON]
    var runs: Int
    var seed: UInt64
    var jitter: Bool
    var processes: Int
    var seconds: Double
    var runsPerSecond: Double
    var seen: Int
    var possible: Int
    var unexpected: Int
    /// Outcomes seen that the model, stopped at its budget, did not find: not judged.
    var unjudged: Int
    /// Runs in which the machine did not keep the snippet's time (each outcome's `lateRuns`, added).
    var lateRuns: Int
    var modelComplete: Bool
    /// False when the runs were stopped (Ctrl-C) before all `requested` were done.
    var complete: Bool
    var requested: Int
    /// The machine the runs ran on, whose answer they are compared with.
    var machine: LiveMachineJSON
    /// How the runs ran: `interpreter` (the IR on libdispatch) or `compiled` (swiftc, the real
    /// Swift-concurrency runtime).
    var live: String = "interpreter"
    /// For compiled runs: the language mode, e.g. "Swift 6".
    var languageMode: String?
    /// Why the model does not take the snippet, when it does not: no outcome is then judged.
    var modelProblem: String?

    struct LiveMachineJSON: Encodable {
        var cores: Int?
        var platform: String
    }

    init(puzzle: String, comparison: LiveComparison, modelComplete: Bool, requested: Int) {
        let histogram = comparison.histogram
        self.puzzle = puzzle
        machine = LiveMachineJSON(cores: comparison.machine.cores, platform: comparison.machine.platform.rawValue)
        outcomes = comparison.rows.map { row in
            var outcome = OutcomeJSON(row.entry.outcome, reason: row.entry.reason)
            if let elsewhere = row.elsewhere { outcome.label(elsewhere) }
            return OutcomeWith(outcome, Counts(
                count: row.entry.count, percent: 100 * Double(row.entry.count) / Double(max(histogram.runs, 1)),
                expected: row.isExpected, judged: row.isJudged, lateRuns: row.entry.lateRuns))
        }
        // Written as live outcomes are: a long one by its ends, count and hash.
        unseen = comparison.unseen.map { OutcomeJSON(LiveOutcome(model: $0)) }
        runs = histogram.runs
        seed = histogram.seed
        jitter = histogram.jitter
        processes = histogram.processes
        seconds = histogram.seconds
        runsPerSecond = histogram.runsPerSecond
        seen = comparison.seenCount
        possible = comparison.possibleCount
        unexpected = comparison.unexpected.count
        unjudged = comparison.unjudged.count
        lateRuns = histogram.lateRuns
        self.modelComplete = modelComplete
        self.requested = requested
        complete = histogram.runs >= requested
    }
}
