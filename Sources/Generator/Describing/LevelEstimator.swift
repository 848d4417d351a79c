import Foundation

/// A puzzle's level (1–3) from its measured features: a weighted score cut at two thresholds.
/// The weights were calibrated on the bank's trace puzzles, whose levels instructors wrote;
/// `GeneratorTests.levelCalibration` prints how often the two agree.
public struct LevelEstimator: Hashable, Sendable {
    /// Per doubling of the outcome count.
    public var outcomeWeight: Double
    /// Per thread beyond the main thread.
    public var threadWeight: Double
    /// Per level of nesting beyond the first.
    public var nestingWeight: Double
    public var deadlockWeight: Double
    public var raceWeight: Double
    /// Per construct beyond sync and async (group, semaphore, barrier, timing, …).
    public var constructWeight: Double
    /// Per queue dispatched onto beyond the first.
    public var queueWeight: Double
    /// The lowest score of level 2.
    public var level2From: Double
    /// The lowest score of level 3.
    public var level3From: Double

    public init(outcomeWeight: Double, threadWeight: Double, nestingWeight: Double, deadlockWeight: Double,
                raceWeight: Double, constructWeight: Double, queueWeight: Double, level2From: Double, level3From: Double) {
        self.outcomeWeight = outcomeWeight
        self.threadWeight = threadWeight
        self.nestingWeight = nestingWeight
        self.deadlockWeight = deadlockWeight
        self.raceWeight = raceWeight
        self.constructWeight = constructWeight
        self.queueWeight = queueWeight
        self.level2From = level2From
        self.level3From = level3From
    }

    /// Found by a grid search over the bank's 60 trace puzzles (weights in steps of 0.25–0.5):
    /// 42 of 60 levels agree, 58 are off by at most one. Nesting and constructs weigh most, the
    /// outcome count least: the bank's instructors rated concepts above counting.
    public static let calibrated = LevelEstimator(
        outcomeWeight: 0.25, threadWeight: 0.5, nestingWeight: 1.5, deadlockWeight: 1, raceWeight: 1,
        constructWeight: 1, queueWeight: 0.5, level2From: 2, level3From: 3.75)

    public func score(_ features: PuzzleFeatures) -> Double {
        outcomeWeight * log2(Double(max(features.outcomes, 1)))
            + threadWeight * Double(max(features.threads - 1, 0))
            + nestingWeight * Double(max(features.nesting - 1, 0))
            + (features.deadlocks ? deadlockWeight : 0)
            + (features.races ? raceWeight : 0)
            + constructWeight * Double(features.constructs.count)
            + queueWeight * Double(max(features.queues - 1, 0))
    }

    public func level(_ features: PuzzleFeatures) -> Int {
        let score = score(features)
        return score < level2From ? 1 : score < level3From ? 2 : 3
    }
}
