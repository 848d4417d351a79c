import Testing
import Quiz
@testable import Progress

@Suite struct GradeTests {
    /// Wrong or partly right → Again; right after help → Hard; right → Good; never Easy.
    @Test func gradesBecomeRatingsWithoutAsking() {
        for grade in [Grade.wrong, .incomplete, .partial, .unanswered, .gaveUp] {
            #expect(grade.rating(helped: false) == .again)
            #expect(grade.rating(helped: true) == .again)
        }
        for grade in [Grade.exact, .right, .reached] {
            #expect(grade.rating(helped: false) == .good)
            #expect(grade.rating(helped: true) == .hard)
        }
        #expect(Grade.skipped.rating(helped: false) == nil)
        #expect(!Grade.allCases.contains { $0.rating(helped: false) == .easy || $0.rating(helped: true) == .easy })
    }

    /// A schedule question is reached or given up, as the log says it.
    @Test func scheduleResultsAreReachedOrGaveUp() {
        #expect(Grade(.right, kind: .schedule) == .reached)
        #expect(Grade(.wrong, kind: .schedule) == .gaveUp)
        #expect(Grade.reached.points == 1)
        #expect(Grade.gaveUp.points == 0)
        #expect(Grade.gaveUp.rawValue == "gave-up")
    }

    @Test func helpOfAnyKindMakesARightAnswerHard() {
        let question = puzzle("p")
        var answered = review(question, .exact, at: day(0))
        #expect(answered.rating == .good)
        for help in [\Review.hints, \.explains, \.runs] {
            var helped = answered
            helped[keyPath: help] = 1
            #expect(helped.rating == .hard)
        }
        answered.isPractice = true
        #expect(answered.rating == nil)
    }

    /// An edited question is a new card; a new title or explanation is not.
    @Test func contentHashFollowsWhatIsAsked() {
        var question = puzzle("p", code: "print(1)\n")
        let hash = ContentHash.of(question)
        #expect(hash.count == 16)
        #expect(hash == "\(ContentHash.of(puzzle("p", code: "print(1)   \n\n")))")
        question.title = "Another title"
        question.explanation = "Another explanation"
        #expect(ContentHash.of(question) == hash)
        question.code = "print(2)\n"
        #expect(ContentHash.of(question) != hash)
        // Stable across processes and machines: a fixed value.
        #expect(ContentHash.of(code: "print(1)") == ContentHash.of(puzzle("q", code: "print(1)")))
        #expect(ContentHash.hash(["a"]) == "af63dc4c8601ec8c")
    }
}
