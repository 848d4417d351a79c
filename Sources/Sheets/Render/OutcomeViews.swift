import ConcurrencyModel
import LiveRun
import Quiz

/// An outcome as the sheet writes it: the printed lines in the answer notation, and the ending.
struct OutcomeView {
    var printed: CodeSpan
    var ending: String
    var endsInDeadlock: Bool
    /// Why the run deadlocks (which thread traps, who waits on whom); empty when it finishes.
    var reason: String
    var hasReason: Bool
    /// Where it happens when not on every machine ("needs 3 or more cores"); empty otherwise.
    var machines = ""
    var hasMachines = false

    init(_ outcome: Outcome, reason: DeadlockReason? = nil, narrator: Narrator? = nil) {
        printed = CodeSpan(AnswerNotation.render(Outcome(lines: outcome.lines, end: .finished)))
        endsInDeadlock = outcome.end == .deadlock
        ending = outcome.end == .deadlock ? "deadlock" : "finished"
        self.reason = reason.flatMap { reason in narrator?.words(for: reason) } ?? ""
        hasReason = reason != nil
    }

    /// A model outcome with its reason and where it happens.
    init(_ report: OutcomeReport, narrator: Narrator) {
        self.init(report.outcome, reason: report.deadlock, narrator: narrator)
        if let words = narrator.words(for: report.machines) {
            machines = words
            hasMachines = true
        }
    }
}

/// What may come after a prefix: a printed line (shown as code) or the run's end (in words).
struct EventView {
    /// The line, when the event is a printed line.
    var line: CodeSpan
    /// The ending in words, when it is not.
    var words: String
    var isLine: Bool
    var isLast: Bool
    var isBeforeLast: Bool

    static func list(_ events: [NextEvent]) -> [EventView] {
        events.enumerated().map { index, event in
            let (line, words): (String, String) = switch event {
            case .line(let line): (line, "")
            case .end(.finished): ("", "the end of the run")
            case .end(.deadlock): ("", "a deadlock")
            }
            return EventView(line: CodeSpan(line), words: words, isLine: words.isEmpty,
                             isLast: index == events.count - 1, isBeforeLast: index == events.count - 2)
        }
    }
}

/// One reason, with the model's rule behind it.
struct BlockerView {
    var detail: String
    var rule: String
}

/// Why the model rules out a near miss, in the words of `gcdquiz explain`: how far a schedule can
/// follow it, what can come next there, and the rule that forbids what it says comes next.
struct ImpossibilityView {
    var outcome: OutcomeView
    var nearMiss: String
    var hasPrefix: Bool
    var prefix: CodeSpan
    var wanted: [EventView]
    var next: [EventView]
    var hasNext: Bool
    var blockers: [BlockerView]
    var hasBlockers: Bool

    init(_ distractor: Distractor) {
        let why = distractor.why
        outcome = OutcomeView(distractor.outcome)
        nearMiss = distractor.kind.summary
        hasPrefix = !why.longestPrefix.isEmpty
        prefix = CodeSpan(AnswerNotation.render(Outcome(lines: why.longestPrefix, end: .finished)))
        wanted = EventView.list([why.wanted])
        next = EventView.list(why.couldComeNext)
        hasNext = !why.couldComeNext.isEmpty
        blockers = why.blockers.prefix(3).map { BlockerView(detail: why.narrator.words(for: $0), rule: $0.rule.statement) }
        hasBlockers = !blockers.isEmpty
    }
}

/// What live runs on libdispatch showed (`--live`), beside the model.
struct LiveView {
    struct Row {
        var outcome: OutcomeView
        var count: Int
        var expected: Bool
    }

    var runs: Int
    var jitter: String
    var rows: [Row]
    var unseen: [OutcomeView]
    var hasUnseen: Bool
    var hasUnexpected: Bool

    init(_ comparison: LiveComparison) {
        runs = comparison.histogram.runs
        jitter = comparison.histogram.jitter ? "with jitter" : "without jitter"
        rows = comparison.rows.map { row in
            let outcome = row.entry.outcome
            var view = OutcomeView(Outcome(lines: outcome.lines, end: outcome.modelOutcome?.end ?? .deadlock))
            view.ending = outcome.end.rawValue
            return Row(outcome: view, count: row.entry.count, expected: row.isExpected)
        }
        unseen = comparison.unseen.map { OutcomeView($0) }
        hasUnseen = !unseen.isEmpty
        hasUnexpected = !comparison.unexpected.isEmpty
    }
}
