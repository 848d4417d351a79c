import Foundation
import Quiz
import Testing
@testable import Progress

/// The card-state table agrees with a replay of the log whatever happens to the log: answers
/// recorded one by one, an import, an overrule, another retention, answers recorded out of order.
@Suite struct CardStateTableTests {
    let questions = (0..<6).map { puzzle("q\($0)", code: "print(\($0))") }

    func log(_ count: Int, from start: Double = 0) -> [Review] {
        (0..<count).map { index in
            review(questions[index % questions.count], [.exact, .wrong, .incomplete, .exact][index % 4], at: day(start + Double(index) * 0.7),
                   hints: index % 5 == 0 ? 1 : 0)
        }
    }

    func expectAgrees(_ store: ProgressStore, scheduler: CardScheduler = CardScheduler(), sourceLocation: SourceLocation = #_sourceLocation) throws {
        let table = try store.history(scheduler: scheduler, reviewsSince: .distantPast)
        let replayed = ProgressHistory(reviews: try store.reviews(), scheduler: scheduler)
        #expect(table.cards == replayed.cards, sourceLocation: sourceLocation)
        #expect(table.reviewCount == replayed.reviewCount, sourceLocation: sourceLocation)
        #expect(table.ratedDates == replayed.ratedDates, sourceLocation: sourceLocation)
        #expect(table.reviews == replayed.reviews, sourceLocation: sourceLocation)
    }

    func basis(_ store: ProgressStore) throws -> ProgressStore.Basis? {
        try store.database.read(ProgressStore.basis)
    }

    @Test func answersRecordedOneByOneKeepTheTableUpToDate() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        try expectAgrees(store)  // builds the (empty) table
        for review in log(40) { try store.record(review) }
        // Still the table's: nothing was replayed to answer.
        #expect(try basis(store)?.reviews == 40)
        let fromTable = try store.history()
        #expect(fromTable.reviews.isEmpty)
        try expectAgrees(store)
    }

    @Test func anImportAnOverruleAndAnotherRetentionDeriveItAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        for review in log(10, from: 20) { try store.record(review) }
        try expectAgrees(store)
        // Older answers from another machine.
        try store.merge(log(12))
        #expect(try basis(store) == nil)
        try expectAgrees(store)
        // An overrule changes one card.
        var last = try #require(try store.reviews().last)
        last.overruledFrom = last.grade
        last.grade = last.grade == .wrong ? .exact : .wrong
        try store.regrade(last)
        #expect(try basis(store) != nil)
        try expectAgrees(store)
        // Another retention: rebuilt for it, and the default one again after.
        try expectAgrees(store, scheduler: CardScheduler(desiredRetention: 0.8))
        #expect(try basis(store)?.retention == 0.8)
        try expectAgrees(store)
    }

    @Test func anAnswerOutOfOrderMarksTheTableForARebuild() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        for review in log(5, from: 10) { try store.record(review) }
        try expectAgrees(store)
        try store.record(review(questions[0], .wrong, at: day(1)))
        #expect(try basis(store) == nil)
        try expectAgrees(store)
    }

    @Test func generatedPuzzlesKeepTheirCodeInTheTable() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        try expectAgrees(store)
        var generated = Question(id: "gen-1", kind: .trace, title: "g", level: 2, tags: ["deadlocks"], source: "g", explanation: "x",
                                 code: "print(7)", file: "gen-1.yaml")
        generated.isGenerated = true
        let record = DrillRecord(questionID: "gen-1", kind: .trace, tags: ["deadlocks"], result: .wrong, seconds: 3, answer: "7")
        try store.record(Review(of: generated, record: record, mode: .drill, seed: 5, generated: true, at: day(0)))
        let state = try #require(try store.history().cards.values.first)
        #expect(state.code == "print(7)")
        #expect(state.topics == ["deadlocks"])
        let plan = ReviewPlan(questions: questions, history: try store.history(), now: day(1))
        #expect(plan.dueGenerated.map(\.code) == ["print(7)"])
    }
}

@Suite struct ReadinessTests {
    func answer(_ id: String, _ topics: [String], _ grade: Grade, _ seconds: Double) -> Readiness.Answer {
        Readiness.Answer(questionID: id, title: id, topics: topics, grade: grade, seconds: seconds)
    }

    @Test func perTopicTimeToReviewAndVerdict() {
        let readiness = Readiness(answers: [
            answer("a", ["serial-queues"], .exact, 30), answer("b", ["serial-queues", "deadlocks"], .incomplete, 50),
            answer("c", ["deadlocks"], .unanswered, 90), answer("d", ["groups"], .right, 10),
        ], limit: 90)
        #expect(readiness.topics == [
            Readiness.TopicLine(topic: "serial-queues", right: 1, partial: 1, wrong: 0),
            Readiness.TopicLine(topic: "deadlocks", right: 0, partial: 1, wrong: 0, noAnswer: 1),
            Readiness.TopicLine(topic: "groups", right: 1, partial: 0, wrong: 0),
        ])
        #expect(readiness.meanSeconds == 30)
        #expect(readiness.outOfTime == 1)
        #expect(readiness.toReview.map(\.questionID) == ["b", "c"])
        // A partly right answer is half a point, never "right".
        #expect(readiness.verdict.hasPrefix("Nearly ready: 2 right, 1 partly right, 1 no answer; score 2.5 of 4 (63%)."))
        #expect(Readiness(answers: [answer("a", [], .right, 1)], limit: 9).verdict == "Ready: all 1 right.")
        #expect(readiness.weakest == "deadlocks")
        #expect(Readiness(answers: [answer("a", ["groups"], .wrong, 1)], limit: 9).verdict
            == "Not ready yet: 1 wrong; score 0 of 1 (0%). Practise groups first ('gcdquiz drill --tag groups').")
        let half = Readiness(answers: [answer("a", ["groups"], .partial, 1), answer("b", ["groups"], .wrong, 1),
                                       answer("c", ["groups"], .skipped, 1)], limit: 9)
        #expect(half.verdict.hasPrefix("Not ready yet: 1 partly right, 1 wrong, 1 no answer; score 0.5 of 3 (17%)."))
        #expect(!half.verdict.contains("0.5 of 3 right"))
    }

    @Test func aDrillAnswerIsLoggedWithItsGradeHelpAndMode() {
        let question = puzzle("q")
        let record = DrillRecord(questionID: "q", kind: .trace, tags: ["serial-queues"], result: .partial, overruledFrom: nil, seconds: 4,
                                 answer: "1", help: DrillHelp(hints: 2, explained: true, ran: false), isPractice: false)
        let logged = Review(of: question, record: record, mode: .review, seed: 9)
        #expect(logged.grade == .incomplete)
        #expect(logged.hints == 2 && logged.explains == 1 && logged.runs == 0)
        #expect(logged.mode == .review && logged.seed == 9 && logged.code == nil)
        #expect(Grade(.right, kind: .choice) == .right)
        #expect(Grade(.skipped, kind: .short) == .skipped)
    }
}
