import Foundation
import Testing
import Quiz
@testable import Progress

@Suite struct ReviewPlanTests {
    let a = puzzle("a"), b = puzzle("b"), c = puzzle("c"), d = puzzle("d"), fresh = puzzle("fresh"), other = puzzle("other")

    /// Due questions come most overdue first (lowest retrievability), then new ones in bank order.
    @Test func dueQuestionsMostOverdueFirst() {
        let history = ProgressHistory(reviews: [
            review(a, .exact, at: day(0)),           // Good: due after 2 days
            review(b, .exact, at: day(-30)),         // long overdue
            review(c, .exact, at: day(-10)),         // overdue
            review(d, .exact, at: day(9.5)),         // not due yet (and not first seen today)
        ])
        let plan = ReviewPlan(questions: [a, b, c, d, fresh, other], history: history, now: day(10), newPerDay: 1, calendar: utc)
        #expect(plan.due.map(\.id) == ["b", "c", "a"])
        #expect(plan.new.map(\.id) == ["fresh"])
        #expect(plan.session.map(\.id) == ["b", "c", "a", "fresh"])
    }

    /// A question just missed is still being learned: once its ten minutes are over it comes
    /// before the reviews, even those more likely forgotten.
    @Test func aMissedQuestionComesBackFirstInTheNextSession() {
        let history = ProgressHistory(reviews: [
            review(a, .exact, at: day(-3)),
            review(b, .wrong, at: day(0)),
            review(c, .incomplete, at: day(0, hour: 0.1)),
        ])
        let plan = ReviewPlan(questions: [a, b, c], history: history, now: day(0, hour: 1), calendar: utc)
        #expect(plan.due.map(\.id) == ["b", "c", "a"])
        #expect(plan.missed.map(\.id) == ["c", "b"])
    }

    @Test func newQuestionsAreLimitedPerDay() {
        let history = ProgressHistory(reviews: [review(a, .exact, at: day(0)), review(b, .wrong, at: day(0, hour: 1))])
        let plan = ReviewPlan(questions: [a, b, c, d, fresh], history: history, now: day(0, hour: 2), newPerDay: 3, calendar: utc)
        #expect(plan.newLeftToday == 1)
        #expect(plan.new.map(\.id) == ["c"])
        let tomorrow = ReviewPlan(questions: [a, b, c, d, fresh], history: history, now: day(1, hour: 2), newPerDay: 3, calendar: utc)
        #expect(tomorrow.new.map(\.id) == ["c", "d", "fresh"])
    }

    /// Skips and practice tries are logged but are no reviews: the question stays new.
    @Test func skipsAndPracticeAreNotReviews() {
        var practice = review(a, .wrong, at: day(0, hour: 1))
        practice.isPractice = true
        let history = ProgressHistory(reviews: [review(a, .skipped, at: day(0)), practice])
        #expect(history.state(of: CardKey(a))?.isNew == true)
        let plan = ReviewPlan(questions: [a], history: history, now: day(0, hour: 2), calendar: utc)
        #expect(plan.new.map(\.id) == ["a"])
        #expect(plan.missed.isEmpty)
    }

    /// An edited question is a new card: its old reviews do not make it due.
    @Test func anEditedQuestionIsANewCard() {
        let history = ProgressHistory(reviews: [review(a, .wrong, at: day(0))])
        let edited = puzzle("a", code: "print(2)")
        let plan = ReviewPlan(questions: [edited], history: history, now: day(3), calendar: utc)
        #expect(plan.due.isEmpty)
        #expect(plan.new.map(\.id) == ["a"])
    }

    /// A generated puzzle is not in the bank: its code, kept in the log, brings it back.
    @Test func generatedPuzzlesComeBackWithTheirCode() {
        let code = "serialQueue.async { print(1) }\nprint(2)\n"
        let generated = Review(questionID: "generated-1", contentHash: ContentHash.of(code: code), kind: .trace, answeredAt: day(0),
                               grade: .wrong, answer: "1 2", seconds: 3, mode: .drill, topics: ["serial-queues"], code: code)
        let plan = ReviewPlan(questions: [a], history: ProgressHistory(reviews: [generated]), now: day(1), calendar: utc)
        #expect(plan.dueGenerated.map(\.code) == [code])
    }

    /// The schedule is derived from the log alone: replaying it in any order gives the same.
    @Test func theScheduleIsRebuiltFromTheLog() {
        let reviews = [review(a, .exact, at: day(0)), review(a, .wrong, at: day(2)), review(a, .exact, at: day(2, hour: 1))]
        let once = ProgressHistory(reviews: reviews)
        let shuffled = ProgressHistory(reviews: reviews.reversed())
        #expect(once.state(of: CardKey(a)) == shuffled.state(of: CardKey(a)))
        #expect(once.state(of: CardKey(a))?.lapses == 1)
        #expect(once.state(of: CardKey(a))?.reviews == 3)
    }
}
