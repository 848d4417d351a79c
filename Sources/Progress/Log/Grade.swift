/// How one answer was graded, as the log keeps it: the trace verdicts and the choice/short
/// verdicts stay distinct, so the log says exactly what the learner saw.
public enum Grade: String, Sendable, Codable, CaseIterable {
    /// Trace: every possible outcome and nothing else.
    case exact
    /// Trace: only possible outcomes, some missing.
    case incomplete
    /// Choice or short: right.
    case right
    /// Choice or short: partly right.
    case partial
    case wrong
    /// Left without an answer (`:skip`): comes back, but is no review.
    case skipped
    /// The time ran out (a mock interview's limit): counts as no answer, that is, as not known.
    case unanswered
    /// Schedule: the learner brought the snippet to its goal (with the hints, if any, in the
    /// log's hints column: FSRS Hard then).
    case reached
    /// Schedule: the learner left the scheduler's seat without reaching the goal.
    case gaveUp = "gave-up"

    /// Right counts 1, partly right ½, anything else 0: the accuracy of the report.
    public var points: Double? {
        switch self {
        case .exact, .right, .reached: 1
        case .incomplete, .partial: 0.5
        case .wrong, .unanswered, .gaveUp: 0
        case .skipped: nil
        }
    }

    /// Whether the learner knew it, fully.
    public var isRight: Bool { points == 1 }

    /// The FSRS rating this grade means, or nil when it is no review (a skip). Automatic, so no
    /// self-grading bias: a wrong or partial answer is Again; a right one is Good, or Hard when
    /// help (a hint, `:explain`, `:run`) came before it; never Easy by itself.
    public func rating(helped: Bool) -> Rating? {
        switch self {
        case .exact, .right, .reached: helped ? .hard : .good
        case .incomplete, .partial, .wrong, .unanswered, .gaveUp: .again
        case .skipped: nil
        }
    }
}

/// Where an answer was given.
public enum Mode: String, Sendable, Codable, CaseIterable {
    case drill
    case review
    case interview
}
