import Testing
import Quiz
@testable import Sheets

/// A sheet without `--title` is named after what its questions are about.
@Suite struct SheetTitleTests {
    @Test func theDefaultTitleFollowsTheQuestionsTopics() throws {
        #expect(SheetTitle.default(for: try Fixtures.questions(["serial-sync-in-async", "barrier-purpose"])) == "GCD and OperationQueue quiz")
        #expect(SheetTitle.default(for: try Fixtures.questions(["actor-reentrancy", "task-immediate"])) == "Swift concurrency quiz")
        #expect(SheetTitle.default(for: try Fixtures.questions(["actor-reentrancy", "nslock-relock-deadlock"])) == "Concurrency quiz")
    }
}
