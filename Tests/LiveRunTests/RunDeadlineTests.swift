import Testing
@testable import LiveRun

/// When the parent gives up on a run: after a silence of `margin`, or past what its own time
/// takes; every sign of progress moves the limit, up to the longest a run may take.
@Suite struct RunDeadlineTests {
    static let second: UInt64 = 1_000_000_000

    @Test func aSilentRunIsPastItsDeadlineAfterTheMargin() {
        let deadline = RunDeadline(began: 0, margin: 3 * Self.second, longest: 120 * Self.second)
        #expect(!deadline.isPast(at: 3 * Self.second))
        #expect(deadline.isPast(at: 3 * Self.second + 1))
        #expect(!deadline.wasProgressing(at: 3 * Self.second + 1))
    }

    /// A run that prints 10,000 lines over 20 s never goes 3 s without a sign: it is never past
    /// its deadline, however long it takes in all.
    @Test func everySignOfProgressMovesTheDeadline() {
        var deadline = RunDeadline(began: 0, margin: 3 * Self.second, longest: 120 * Self.second)
        for tick in stride(from: UInt64(0), through: 20 * Self.second, by: Int(Self.second / 2)) {
            #expect(!deadline.isPast(at: tick))
            deadline.progressed(at: tick)
        }
        #expect(deadline.deadline == 23 * Self.second)
        #expect(deadline.isPast(at: 23 * Self.second + 1))
        #expect(!deadline.wasProgressing(at: 23 * Self.second + 1))
    }

    /// Progress moves the deadline only up to the longest a run may take: a run killed there was
    /// still going, too slow to finish, which is no timeout the model must explain.
    @Test func progressStopsAtTheLongestARunMayTake() {
        var deadline = RunDeadline(began: 0, margin: 3 * Self.second, longest: 10 * Self.second)
        for tick in stride(from: UInt64(0), through: 15 * Self.second, by: Int(Self.second)) { deadline.progressed(at: tick) }
        #expect(deadline.deadline == 10 * Self.second)
        #expect(deadline.isPast(at: 10 * Self.second + 1))
        #expect(deadline.wasProgressing(at: 10 * Self.second + 1))
    }

    /// The run's own time (a sleep of 25 s) is never cut short, and moves the longest too.
    @Test func theRunsOwnTimeMovesBoth() {
        var deadline = RunDeadline(began: 0, margin: 3 * Self.second, longest: 10 * Self.second)
        deadline.expect(25 * Self.second, at: Self.second)
        #expect(deadline.deadline == 29 * Self.second)
        #expect(deadline.ceiling == 36 * Self.second)
        deadline.progressed(at: 35 * Self.second)
        #expect(deadline.deadline == 36 * Self.second)
        // A heartbeat is a sign of progress, not time of the run's own.
        deadline.expect(0, at: 35 * Self.second)
        #expect(deadline.ceiling == 36 * Self.second)
    }
}
