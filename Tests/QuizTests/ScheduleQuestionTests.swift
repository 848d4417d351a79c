import ConcurrencyModel
import Foundation
import Quiz
import Testing

/// The bank's schedule questions: each goal is settled (reached, or shown out of reach of every
/// schedule) by a learner who follows the hints, and none is settled before the first move.
@Suite struct ScheduleQuestionTests {
    static let questions = BankTests.bank.questions.filter { $0.kind == .schedule }

    @Test func theBankHasScheduleQuestionsAcrossTopics() {
        #expect(Self.questions.count >= 15)
        let topics = Set(Self.questions.flatMap(\.tags))
        for topic in ["serial-queues", "concurrent-queues", "deadlocks", "data-races", "barriers", "groups", "semaphores", "operations"] {
            #expect(topics.contains(topic), "no schedule question on \(topic)")
        }
    }

    @Test(arguments: questions.map(\.id))
    func followingTheHintsSettlesTheGoal(_ id: String) throws {
        let question = try #require(BankTests.bank.question(id: id))
        let exploration = Explorer().explore(try BankTests.bank.program(of: question).get())
        let goal = try ScheduleGoal.read(try #require(question.goal), printable: PrintableLines(exploration: exploration))
        var play = Playthrough(exploration: exploration, goal: goal)
        #expect(!play.status.isSettled, "\(id) is settled before any move")
        var moves = 0
        while moves < 200, case .move(let move, _) = play.hint() {
            play.play(move.number)
            moves += 1
        }
        #expect(play.status.isSettled, "\(id): \(play.narrator.words(for: play.status))")
    }
}
