import Foundation
import Testing
@testable import Progress

/// FSRS-6 against the reference implementations' own test vectors, to 4 decimals:
/// open-spaced-repetition/fsrs-rs 6.6.1 (`src/model.rs` and `src/inference.rs`, module tests) and
/// open-spaced-repetition/py-fsrs 6.3.1 (`tests/test_basic.py`), all under the default weights.
@Suite struct FSRSTests {
    let fsrs = FSRS()

    func expectClose(_ actual: [Double], _ expected: [Double], tolerance: Double = 1e-4,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) {
            #expect(abs(a - e) < tolerance, "\(a) is not \(e)", sourceLocation: sourceLocation)
        }
    }

    /// fsrs-rs `test_power_forgetting_curve`.
    @Test func forgettingCurve() {
        let values = zip([0.0, 1, 2, 3, 4, 5], [1.0, 2, 3, 4, 4, 2]).map { fsrs.retrievability(elapsedDays: $0, stability: $1) }
        expectClose(values, [1.0, 0.9403443, 0.9253786, 0.9185229, 0.9, 0.8261359])
    }

    /// fsrs-rs `test_init_stability`, `test_init_difficulty`; py-fsrs clamps D0(Easy) to 1.
    @Test func firstReview() {
        expectClose(Rating.allCases.map(fsrs.initialStability), [0.212, 1.2931, 2.3065, 8.2956])
        expectClose(Rating.allCases.map(fsrs.initialDifficulty), [6.4133, 5.11217071, 2.11810397, 1.0])
        let first = Rating.allCases.map { fsrs.next(nil, elapsedDays: 0, rating: $0) }
        expectClose(first.map(\.difficulty), [6.4133, 5.11217071, 2.11810397, 1.0])
    }

    /// fsrs-rs `test_next_difficulty`: the step, then the mean reversion.
    @Test func nextDifficulty() {
        let damped = Rating.allCases.map { fsrs.dampedDifficulty(5, $0) }
        expectClose(damped, [8.354889, 6.6774445, 5.0, 3.3225555])
        expectClose(damped.map(fsrs.meanReversion), [8.341763, 6.6659956, 4.990228, 3.3144615])
    }

    /// fsrs-rs `test_next_stability` (stability 5; the test passes the rating as the difficulty).
    @Test func nextStability() {
        let recall = zip(Rating.allCases, [0.9, 0.8, 0.7, 0.6]).map { rating, r in
            fsrs.recallStability(difficulty: Double(rating.rawValue), stability: 5, retrievability: r, rating: rating)
        }
        expectClose(recall, [25.602541, 28.226582, 58.656002, 127.226685])
        let forget = zip([1.0, 2, 3, 4], [0.9, 0.8, 0.7, 0.6]).map {
            fsrs.forgetStability(difficulty: $0, stability: 5, retrievability: $1)
        }
        expectClose(forget, [1.0525396, 1.1894329, 1.3680838, 1.584989])
        // Same day: Hard never lowers stability (fsrs-rs #376).
        expectClose(Rating.allCases.map { fsrs.shortTermStability(5, $0) }, [1.596818, 5.0, 5.0, 8.12961])
    }

    /// fsrs-rs `test_memory_state` and py-fsrs `test_memo_state`: Again, Good ×5 at day offsets
    /// 0, 0, 1, 3, 8, 21; then the same with the short-term weights w17–w19 set to 0.
    @Test func memoryStateAfterAHistory() {
        func replay(_ model: FSRS) -> MemoryState {
            var state: MemoryState?
            for (rating, days) in zip([Rating.again, .good, .good, .good, .good, .good], [0, 0, 1, 3, 8, 21]) {
                state = model.next(state, elapsedDays: days, rating: rating)
            }
            return state!
        }
        let state = replay(fsrs)
        expectClose([state.stability, state.difficulty], [53.62691, 6.3574867])
        var frozen = FSRS.defaultWeights
        frozen[17] = 0
        frozen[18] = 0
        frozen[19] = 0
        let withoutShortTerm = replay(FSRS(weights: frozen))
        expectClose([withoutShortTerm.stability, withoutShortTerm.difficulty], [53.335106, 6.3574867])
    }

    /// fsrs-rs `test_next_interval`: stability 1, desired retention 0.1 … 1.0. fsrs-rs computes in
    /// 32-bit floats, so its 3116766 days for 0.1 is 3116769 in doubles: equal to f32's precision.
    @Test func intervalsForADesiredRetention() {
        let intervals = (1...10).map { max(fsrs.interval(stability: 1, desiredRetention: Double($0) / 10).rounded(), 1) }
        let expected: [Double] = [3116766, 34793, 2508, 387, 90, 27, 9, 3, 1, 1]
        for (interval, reference) in zip(intervals, expected) {
            #expect(abs(interval - reference) <= reference * 2e-6, "\(interval) is not \(reference)")
        }
    }

    /// py-fsrs `test_review_card`: no fuzz, learning steps 1 and 10 minutes, relearning 10
    /// minutes; each review when the card falls due. Whole days between review and due date.
    @Test func intervalsOfAReviewHistory() {
        let scheduler = CardScheduler(learningSteps: [60, 600], relearningSteps: [600])
        let ratings: [Rating] = [.good, .good, .good, .good, .good, .good, .again, .again, .good, .good, .good, .good, .good]
        var card = CardSchedule(due: Date(timeIntervalSince1970: 1_669_725_000))  // 2022-11-29 12:30 UTC
        var date = card.due
        var days: [Int] = []
        for rating in ratings {
            card = scheduler.review(card, rating, at: date)
            days.append(Int((card.due.timeIntervalSince(card.lastReview!) / 86_400).rounded(.down)))
            date = card.due
        }
        #expect(days == [0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21])
    }

    /// py-fsrs `test_repeated_correct_reviews`: Easy ten times in a row ends at difficulty 1.
    @Test func repeatedEasyReachesTheLowestDifficulty() {
        let scheduler = CardScheduler(learningSteps: [60, 600], relearningSteps: [600])
        var card = CardSchedule(due: Date(timeIntervalSince1970: 1_669_725_000))
        for offset in 0..<10 {
            card = scheduler.review(card, .easy, at: Date(timeIntervalSince1970: 1_669_725_000 + Double(offset) / 1_000_000))
        }
        #expect(card.memory?.difficulty == 1.0)
    }

    /// gcdquiz's own steps: a miss comes back in ten minutes, a right answer goes to days, a right
    /// answer after help waits fifteen minutes.
    @Test func gcdquizSteps() {
        let scheduler = CardScheduler()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let missed = scheduler.review(CardSchedule(due: start), .again, at: start)
        #expect(missed.due.timeIntervalSince(start) == 600)
        #expect(missed.phase == .learning)
        let known = scheduler.review(CardSchedule(due: start), .good, at: start)
        #expect(known.phase == .review)
        #expect(known.due.timeIntervalSince(start) == 2 * 86_400)
        let helped = scheduler.review(CardSchedule(due: start), .hard, at: start)
        #expect(helped.due.timeIntervalSince(start) == 900)
        // A lower desired retention spaces reviews further apart.
        let relaxed = CardScheduler(desiredRetention: 0.8).review(CardSchedule(due: start), .good, at: start)
        #expect(relaxed.due > known.due)
    }
}
