import Foundation

/// How well a review went, in FSRS's four ratings. gcdquiz never asks the learner: the grader's
/// verdict decides (see `Grade.rating`), so a learner's mood cannot bias the schedule.
public enum Rating: Int, Sendable, Codable, CaseIterable, Comparable {
    case again = 1
    case hard = 2
    case good = 3
    case easy = 4

    public static func < (a: Rating, b: Rating) -> Bool { a.rawValue < b.rawValue }
}

/// What FSRS knows about one card's memory: how long it lasts (stability, in days: the time for
/// retrievability to fall to 90%) and how hard the card is (difficulty, 1 to 10).
public struct MemoryState: Sendable, Equatable, Codable {
    public var stability: Double
    public var difficulty: Double

    public init(stability: Double, difficulty: Double) {
        self.stability = stability
        self.difficulty = difficulty
    }
}

/// FSRS-6, the Free Spaced Repetition Scheduler's memory model, written from its published
/// formulas. Pure arithmetic: no clock, no storage.
///
/// Checked against the reference implementations' own test vectors (see `FSRSTests`):
/// open-spaced-repetition/fsrs-rs 6.6.1 (`src/model.rs`, `src/inference.rs`) and
/// open-spaced-repetition/py-fsrs 6.3.1 (`tests/test_basic.py`). Where the two differ, fsrs-rs is
/// followed: a same-day Hard review does not lower stability (fsrs-rs #376; py-fsrs 6.3.1 still
/// lets it fall).
public struct FSRS: Sendable, Equatable {
    /// FSRS-6's 21 default weights, w0…w20 (fsrs-rs `DEFAULT_PARAMETERS`, py-fsrs `DEFAULT_PARAMETERS`).
    public static let defaultWeights: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]
    public static let minimumStability = 0.001
    public static let maximumStability = 36500.0
    public static let difficultyRange = 1.0...10.0

    public let weights: [Double]
    /// The forgetting curve's exponent, -w20.
    let decay: Double
    /// Makes retrievability exactly 0.9 when the elapsed time equals the stability.
    let factor: Double

    public init(weights: [Double] = FSRS.defaultWeights) {
        precondition(weights.count == 21, "FSRS-6 has 21 weights")
        self.weights = weights
        decay = -weights[20]
        factor = pow(0.9, 1 / decay) - 1
    }

    // MARK: The forgetting curve

    /// The probability of recalling a card `elapsedDays` after its last review.
    public func retrievability(elapsedDays: Double, stability: Double) -> Double {
        pow(1 + factor * max(elapsedDays, 0) / stability, decay)
    }

    /// The days after which retrievability falls to `desiredRetention` (not rounded).
    public func interval(stability: Double, desiredRetention: Double) -> Double {
        stability / factor * (pow(desiredRetention, 1 / decay) - 1)
    }

    // MARK: The first review

    public func initialStability(_ rating: Rating) -> Double {
        max(weights[rating.rawValue - 1], Self.minimumStability)
    }

    /// D0(G) = w4 − e^(w5·(G−1)) + 1, unclamped (mean reversion aims at the unclamped D0(Easy)).
    public func initialDifficultyUnclamped(_ rating: Rating) -> Double {
        weights[4] - exp(weights[5] * Double(rating.rawValue - 1)) + 1
    }

    public func initialDifficulty(_ rating: Rating) -> Double {
        clampDifficulty(initialDifficultyUnclamped(rating))
    }

    // MARK: Later reviews

    /// Difficulty after a review: a step against the rating, damped near 10, then pulled a little
    /// towards D0(Easy) so that it cannot drift for ever.
    public func nextDifficulty(_ difficulty: Double, _ rating: Rating) -> Double {
        clampDifficulty(meanReversion(dampedDifficulty(difficulty, rating)))
    }

    func dampedDifficulty(_ difficulty: Double, _ rating: Rating) -> Double {
        let delta = -weights[6] * Double(rating.rawValue - 3)
        return difficulty + (10 - difficulty) * delta / 9
    }

    func meanReversion(_ difficulty: Double) -> Double {
        weights[7] * initialDifficultyUnclamped(.easy) + (1 - weights[7]) * difficulty
    }

    /// Stability after a successful recall (Hard, Good, Easy) on a later day.
    public func recallStability(difficulty: Double, stability: Double, retrievability: Double, rating: Rating) -> Double {
        let hardPenalty = rating == .hard ? weights[15] : 1
        let easyBonus = rating == .easy ? weights[16] : 1
        let growth = exp(weights[8]) * (11 - difficulty) * pow(stability, -weights[9])
            * (exp((1 - retrievability) * weights[10]) - 1) * hardPenalty * easyBonus
        return stability * (1 + growth)
    }

    /// Stability after a lapse (Again) on a later day: never more than the short-term formula allows.
    public func forgetStability(difficulty: Double, stability: Double, retrievability: Double) -> Double {
        let longTerm = weights[11] * pow(difficulty, -weights[12]) * (pow(stability + 1, weights[13]) - 1)
            * exp((1 - retrievability) * weights[14])
        let shortTermCeiling = stability / exp(weights[17] * weights[18])
        return min(longTerm, shortTermCeiling)
    }

    /// Stability after a review on the same day as the last one. A successful review never lowers it.
    public func shortTermStability(_ stability: Double, _ rating: Rating) -> Double {
        let increase = exp(weights[17] * (Double(rating.rawValue) - 3 + weights[18])) * pow(stability, -weights[19])
        return stability * (rating >= .hard ? max(increase, 1) : increase)
    }

    /// The memory state after one review, `elapsedDays` whole days after the previous one (0: the
    /// same day), or the first review's state when there was none.
    public func next(_ state: MemoryState?, elapsedDays: Int, rating: Rating) -> MemoryState {
        guard let state else {
            return MemoryState(stability: initialStability(rating), difficulty: initialDifficulty(rating))
        }
        let stability: Double
        if elapsedDays < 1 {
            stability = shortTermStability(state.stability, rating)
        } else {
            let recall = retrievability(elapsedDays: Double(elapsedDays), stability: state.stability)
            stability = rating == .again
                ? forgetStability(difficulty: state.difficulty, stability: state.stability, retrievability: recall)
                : recallStability(difficulty: state.difficulty, stability: state.stability, retrievability: recall, rating: rating)
        }
        return MemoryState(
            stability: min(max(stability, Self.minimumStability), Self.maximumStability),
            difficulty: nextDifficulty(state.difficulty, rating))
    }

    func clampDifficulty(_ difficulty: Double) -> Double {
        min(max(difficulty, Self.difficultyRange.lowerBound), Self.difficultyRange.upperBound)
    }
}
