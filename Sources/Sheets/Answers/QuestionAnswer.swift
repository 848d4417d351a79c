import ConcurrencyModel
import LiveRun
import Quiz

/// What the key says about one question, computed when the sheet is written: never stored.
public enum QuestionAnswer: Sendable {
    case trace(TraceAnswer)
    case choice(ChoiceAnswer)
    case short(ShortAnswer)
}

/// A trace puzzle's answer: every outcome the model allows (with a schedule and how it ends),
/// the data races, the near misses it proves impossible, and what live runs showed (`--live`).
public struct TraceAnswer: Sendable {
    public var exploration: Exploration
    /// Near misses no schedule produces, in a fixed order; a variant picks some of them.
    public var nearMisses: [NearMissCandidate]
    public var live: LiveComparison?

    public var reports: [OutcomeReport] { exploration.reports }
    public var outcomes: [Outcome] { exploration.outcomes }
}

/// A choice question's answer: which options are correct, in the file's order, and why the
/// others are not.
public struct ChoiceAnswer: Sendable {
    public var correct: [Int]
    /// True when exactly one option is correct.
    public var isSingle: Bool { correct.count == 1 }
}

/// A short question's answer: the model answer and the ideas a full answer states.
public struct ShortAnswer: Sendable {
    public var modelAnswer: String
    public var keyIdeas: [KeyIdea]
}

/// A near miss with the model's reason it cannot happen, as `gcdquiz explain` gives it.
public struct Distractor: Sendable {
    public var candidate: NearMissCandidate
    public var why: Impossibility

    public var outcome: Outcome { candidate.outcome }
    public var kind: NearMiss { candidate.kind }
}
