import Foundation
import Quiz
import Testing

/// The drill's session without a terminal: which question comes when, in which order a choice
/// question's options are shown, and what an overruled grade counts.
@Suite struct DrillSessionTests {
    /// A puzzle, its follow-up (a choice one level up), a short question and a second puzzle.
    static let bank: Bank = {
        let files = [
            """
            id: puzzle
            title: A puzzle
            level: 1
            tags: [serial-queues]
            source: a test
            code: print(1)
            explanation: x
            """,
            """
            id: puzzle-follow-up
            kind: choice
            title: About the puzzle
            level: 2
            tags: [serial-queues]
            source: a test
            follows: puzzle
            question: Which?
            options:
              - text: one
                correct: true
              - text: two
              - text: three
                correct: true
              - text: four
              - text: five
            explanation: x
            """,
            """
            id: why
            kind: short
            title: Why
            level: 1
            tags: [sync-async]
            source: a test
            question: Why?
            answer: Because it waits.
            key_ideas:
              - idea: it waits
                accept: [waits]
              - idea: it blocks
                accept: [blocks]
            explanation: x
            """,
            """
            id: other-puzzle
            title: Another puzzle
            level: 1
            tags: [sync-async]
            source: a test
            code: print(2)
            explanation: x
            """,
        ]
        let questions = files.enumerated().map { index, text in
            QuestionParser.parse(text, file: "q\(index).yaml").question!
        }
        return Bank(questions: questions, problems: [], root: ".")
    }()

    static func session(seed: UInt64, level: Int? = nil, kind: Question.Kind? = nil) -> DrillSession {
        DrillSession(bank: bank, options: DrillOptions(level: level, kind: kind, seed: seed))
    }

    static var choice: Question { bank.question(id: "puzzle-follow-up")! }

    // MARK: Options

    @Test func optionOrderIsReproducibleFromTheSeed() {
        let order = Self.session(seed: 7).optionOrder(for: Self.choice)
        #expect(order.sorted() == [0, 1, 2, 3, 4])
        #expect(Self.session(seed: 7).optionOrder(for: Self.choice) == order)
        // Whatever else the session holds: the order depends on the seed and the question only.
        #expect(Self.session(seed: 7, kind: .choice).optionOrder(for: Self.choice) == order)
    }

    @Test func optionOrderChangesWithTheSeed() {
        let orders = Set((1...8).map { Self.session(seed: $0).optionOrder(for: Self.choice) })
        #expect(orders.count > 1)
        #expect(Self.session(seed: 1).optionOrder(for: Self.choice) != Self.session(seed: 2).optionOrder(for: Self.choice))
    }

    @Test func optionOrderNeverDependsOnWhichOptionsAreRight() {
        var flipped = Self.choice
        flipped.options = flipped.options.map { ChoiceOption(text: $0.text, isCorrect: !$0.isCorrect, why: nil) }
        for seed: UInt64 in [0, 1, 2, 99] {
            #expect(OptionOrder.shuffled(flipped, seed: seed) == OptionOrder.shuffled(Self.choice, seed: seed))
        }
    }

    @Test func theBanksRightOptionsAreNotAlwaysLetteredFirst() throws {
        // In the files, the right options come first; as shown, their letters are spread out.
        let root = BankTests.root.appendingPathComponent("Questions").path
        let choices = BankLoader.load(paths: [root], compilation: .onDemand).questions(kind: .choice)
        #expect(choices.count > 10)
        let rightFirst = choices.filter { question in
            let order = OptionOrder.shuffled(question)
            let right = question.options.filter(\.isCorrect).count
            return order.prefix(right).allSatisfy { question.options[$0].isCorrect }
        }
        #expect(rightFirst.count < choices.count / 2)
    }

    // MARK: Follow-ups

    @Test(arguments: 1...12)
    func aFollowUpComesRightAfterItsParentOnceAnsweredAndNeverBefore(_ seed: Int) throws {
        let session = Self.session(seed: UInt64(seed))
        #expect(!session.questions.map(\.id).contains("puzzle-follow-up"))
        #expect(session.questions.count == 3)
        while let current = session.current, current.id != "puzzle" {
            session.record(current, .right, seconds: 1)
            session.advance()
        }
        session.record(try #require(session.current), .wrong, seconds: 1)
        session.advance()
        #expect(session.current?.id == "puzzle-follow-up")
    }

    @Test func aFollowUpWhoseParentIsLeftOutIsNeverAsked() {
        // As `gcdquiz --kind choice`: the puzzle it follows is not in the session.
        let session = Self.session(seed: 3, kind: .choice)
        #expect(session.questions.isEmpty)
    }

    @Test func aFollowUpLeftOutByTheFiltersIsAskedNextOnceItsParentIsAnswered() {
        let session = Self.session(seed: 3, level: 1)
        #expect(!session.questions.map(\.id).contains("puzzle-follow-up"))
        session.jump(to: "puzzle")
        session.record(session.current!, .wrong, seconds: 1)
        session.advance()
        #expect(session.current?.id == "puzzle-follow-up")
        session.record(session.current!, .right, seconds: 1)
        #expect(session.questions.filter { $0.id == "puzzle-follow-up" }.count == 1)
    }

    @Test func aFollowUpOfAnotherKindThanTheSessionsIsNotAsked() {
        let session = Self.session(seed: 3, kind: .trace)
        session.jump(to: "puzzle")
        session.record(session.current!, .right, seconds: 1)
        #expect(!session.questions.map(\.id).contains("puzzle-follow-up"))
    }

    @Test func aSkippedQuestionBringsNoFollowUp() {
        let session = Self.session(seed: 3, level: 1)
        session.jump(to: "puzzle")
        session.record(session.current!, .skipped, seconds: 1)
        #expect(!session.questions.map(\.id).contains("puzzle-follow-up"))
    }

    @Test func anAnsweredFollowUpIsNotAskedAgainWhenItsParentIs() {
        let session = Self.session(seed: 3, level: 1)
        session.jump(to: "puzzle")
        session.record(session.current!, .wrong, seconds: 1)
        session.advance()
        session.record(session.current!, .right, seconds: 1)
        // As the drill does at `:goto` once the current question is answered.
        session.advance()
        session.jump(to: "puzzle")
        session.record(session.current!, .right, seconds: 1)
        session.advance()
        #expect(session.current?.id != "puzzle-follow-up")
        #expect(session.questions.filter { $0.id == "puzzle-follow-up" }.count == 1)
    }

    @Test func aCycleOfFollowsLosesNoQuestion() throws {
        var first = try #require(Self.bank.question(id: "puzzle"))
        var second = try #require(Self.bank.question(id: "other-puzzle"))
        first.follows = second.id
        second.follows = first.id
        let bank = Bank(questions: [first, second], problems: [], root: ".")
        #expect(!FollowUps.isFollowUp(first, in: bank))
        #expect(DrillSession(bank: bank, options: DrillOptions(seed: 1)).questions.count == 2)
    }

    // MARK: Skipping, practice and help

    @Test func aSkippedQuestionComesBackAtTheEndOnce() throws {
        let session = Self.session(seed: 3, level: 1)
        let first = try #require(session.current)
        #expect(session.skip(seconds: 1))
        #expect(session.current?.id != first.id)
        #expect(session.questions.last?.id == first.id)
        while session.current?.id != first.id { session.advance() }
        #expect(!session.skip(seconds: 1))
        #expect(session.isFinished)
        #expect(session.summary.count(.skipped) == 1)
    }

    @Test func aSkippedQuestionAnsweredLaterCountsItsAnswer() throws {
        let session = Self.session(seed: 3, level: 1)
        let first = try #require(session.current)
        session.skip(seconds: 1)
        session.jump(to: first.id)
        session.record(first, .right, seconds: 2, answer: "1")
        let summary = session.summary
        #expect(summary.answered == 1)
        #expect(summary.count(.skipped) == 0)
        #expect(summary.count(.right) == 1)
    }

    @Test func onlyTheFirstAnswerCountsLaterOnesArePractice() throws {
        let session = Self.session(seed: 3)
        session.jump(to: "why")
        let question = try #require(session.current)
        let first = session.record(question, .wrong, seconds: 3, answer: "no idea")
        #expect(!first.isPractice)
        // `:again`, then a better answer.
        let second = session.record(question, .right, seconds: 2, answer: "it waits and blocks")
        #expect(second.isPractice)
        #expect(session.records.count == 2)
        let summary = session.summary
        #expect(summary.answered == 1)
        #expect(summary.count(.wrong) == 1)
        #expect(summary.count(.right) == 0)
        #expect(summary.practice == 1)
        #expect(session.scoredRecord(for: "why")?.result == .wrong)
        // :right after :again overrules the scored answer, not the practice, until the next question.
        let overruled = try session.overrule(to: .right).get()
        #expect(overruled.answer == "no idea" && overruled.overruledFrom == .wrong && !overruled.isPractice)
        #expect(session.scoredRecord(for: "why")?.result == .right)
        #expect(session.records.last?.isOverruled == false)
        #expect(session.summary.count(.right) == 1)
        session.advance()
        #expect(session.overrule(to: .wrong) == .failure(.nothingGraded))
    }

    @Test func helpBeforeAnsweringIsKeptWithTheAnswer() throws {
        let session = Self.session(seed: 3)
        session.jump(to: "puzzle")
        let help = DrillHelp(hints: 2, explained: false, ran: true)
        let record = session.record(try #require(session.current), .right, seconds: 9, answer: "1", help: help)
        #expect(record.help == help)
        #expect(record.answer == "1")
        #expect(record.kind == .trace)
        #expect(record.tags == ["serial-queues"])
        #expect(session.summary.helped == 1)
        #expect(help.summary == "2 hints, :run")
    }

    // MARK: Overruling

    @Test func anOverruleIsRecordedAndCounted() throws {
        let session = Self.session(seed: 3)
        session.jump(to: "why")
        session.record(session.current!, .partial, seconds: 1)
        let record = try session.overrule(to: .right).get()
        #expect(record.result == .right)
        #expect(record.overruledFrom == .partial)
        #expect(session.records.last?.isOverruled == true)
        let summary = session.summary
        #expect(summary.score == 1)
        #expect(summary.count(.right) == 1)
        #expect(summary.count(.partial) == 0)
        #expect(summary.overruled == 1)
        #expect(summary.byKind.map(\.kind) == [.short])
        #expect(summary.byTag.first?.score == 1)
    }

    @Test func overrulingBackToTheGradersResultRemovesTheOverrule() throws {
        let session = Self.session(seed: 3)
        session.jump(to: "why")
        session.record(session.current!, .wrong, seconds: 1)
        #expect(try session.overrule(to: .right).get().overruledFrom == .wrong)
        let record = try session.overrule(to: .wrong).get()
        #expect(record.result == .wrong)
        #expect(!record.isOverruled)
        #expect(session.summary.overruled == 0)
    }

    @Test func onlyAShortAnswersGradeCanBeOverruled() {
        let session = Self.session(seed: 3)
        #expect(session.overrule(to: .right) == .failure(.nothingGraded))
        session.jump(to: "puzzle")
        session.record(session.current!, .wrong, seconds: 1)
        #expect(session.overrule(to: .right) == .failure(.exactlyGraded(.trace)))
        session.advance()
        session.record(session.current!, .wrong, seconds: 1)
        #expect(session.overrule(to: .right) == .failure(.exactlyGraded(.choice)))
        session.jump(to: "why")
        session.record(session.current!, .skipped, seconds: 1)
        #expect(session.overrule(to: .right) == .failure(.nothingGraded))
        #expect(session.overrule(to: .partial) == .failure(.notAVerdict))
        #expect(session.summary.overruled == 0)
    }
}
