import ConcurrencyModel
import Generator
import Quiz

/// How hard a trace puzzle is, as a band a generated twin must stay in so that every student's
/// version of a question is worth its points: about as many outcomes (from two thirds to one and
/// a half times as many, at least the original's count ± 1 or 2), the same computed level, a
/// deadlock if and only if the original has one, and the original's constructs (group, semaphore,
/// barrier, timing, …) with at most one more.
public struct DifficultyBand: Sendable, Equatable {
    public var outcomes: ClosedRange<Int>
    public var level: Int
    public var deadlocks: Bool
    public var constructs: Set<String>

    public init(_ features: PuzzleFeatures) {
        let count = features.outcomes
        let lower = max(1, min(count - 1, count * 2 / 3))
        let upper = max(count + 2, (count * 3 + 1) / 2)
        outcomes = lower...max(lower, count > 16 ? count : min(16, upper))
        level = LevelEstimator.calibrated.level(features)
        deadlocks = features.deadlocks
        constructs = features.constructs
    }

    public func contains(_ features: PuzzleFeatures) -> Bool {
        outcomes.contains(features.outcomes) && LevelEstimator.calibrated.level(features) == level
            && features.deadlocks == deadlocks && features.constructs.isSuperset(of: constructs)
            && features.constructs.count <= constructs.count + 1
    }

    /// In words, for the note on standard error: "3–6 outcomes, level 2".
    public var summary: String {
        "\(outcomes.lowerBound)–\(outcomes.upperBound) outcomes, level \(level)" + (deadlocks ? ", with a deadlock" : "")
    }
}
