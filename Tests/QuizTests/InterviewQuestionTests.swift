import ConcurrencyModel
import Foundation
@testable import Quiz
import Testing

@Suite struct InterviewQuestionTests {
    static let choice = """
        id: demo-choice
        kind: choice
        title: A demo choice
        level: 1
        tags: [barriers]
        source: a test
        question: |
          Which are true?
        options:
          - text: first
            correct: true
          - text: second
            why: because
          - text: third
            correct: true
        explanation: |
          Because.
        """

    static let short = """
        id: demo-short
        kind: short
        title: A demo short
        level: 1
        tags: [sync-async]
        source: a test
        question: Why?
        answer: Because it waits.
        key_ideas:
          - idea: it waits
            accept: ["waits", "/block(s|ed)?/"]
        explanation: x
        """

    @Test func bothKindsLoad() throws {
        let choice = try #require(QuestionParser.parse(Self.choice, file: "c.yaml").question)
        #expect(choice.kind == .choice)
        #expect(choice.options.map(\.isCorrect) == [true, false, true])
        #expect(choice.options[1].why == "because")
        let short = try #require(QuestionParser.parse(Self.short, file: "s.yaml").question)
        #expect(short.keyIdeas.first?.accept == ["waits", "/block(s|ed)?/"])
        #expect(short.modelAnswer == "Because it waits.")
    }

    @Test func badOptionsAreReported() {
        let noCorrect = Self.choice.replacingOccurrences(of: "    correct: true\n", with: "")
        #expect(QuestionParser.parse(noCorrect, file: "c.yaml").problems.map(\.message).contains("no option is marked 'correct: true'"))
        let oneOption = Self.choice.components(separatedBy: "  - text: second").first! + "explanation: x\n"
        #expect(QuestionParser.parse(oneOption, file: "c.yaml").problems.map(\.message).contains("a choice question needs at least two options"))
        let strayField = Self.choice.replacingOccurrences(of: "why: because", with: "colour: red")
        let problem = QuestionParser.parse(strayField, file: "c.yaml").problems.first
        #expect(problem?.message.hasPrefix("unknown option field 'colour'") == true)
        #expect(problem?.location?.line == 13)
        let code = Self.choice + "\ncode: print(1)\n"
        #expect(QuestionParser.parse(code, file: "c.yaml").problems.map(\.message).contains("'code' does not belong in a choice question"))
    }

    @Test func emptyOrBrokenKeyIdeasAreReported() {
        let empty = Self.short.replacingOccurrences(of: #"accept: ["waits", "/block(s|ed)?/"]"#, with: "accept: []")
        #expect(QuestionParser.parse(empty, file: "s.yaml").problems.map(\.message).contains("the key idea 'it waits' accepts nothing: give at least one phrasing"))
        let badRegex = Self.short.replacingOccurrences(of: "/block(s|ed)?/", with: "/block(/")
        #expect(QuestionParser.parse(badRegex, file: "s.yaml").problems.first?.message == "'/block(/' is not a valid regular expression")
    }

    @Test(arguments: [("a", "partial"), ("a,c", "right"), ("A C", "right"), ("ca", "right"), ("a b", "wrong"), ("b", "wrong")])
    func choiceLetters(_ answer: String, _ verdict: String) throws {
        let question = try #require(QuestionParser.parse(Self.choice, file: "c.yaml").question)
        #expect(try ChoiceGrader.grade(answer, options: question.options, order: Array(question.options.indices)).verdict.rawValue == verdict)
    }

    @Test(arguments: ["", "d", "1", "a?"])
    func choiceJunk(_ answer: String) throws {
        let question = try #require(QuestionParser.parse(Self.choice, file: "c.yaml").question)
        #expect(throws: AnswerError.self) { try ChoiceGrader.grade(answer, options: question.options, order: Array(question.options.indices)) }
    }

    @Test func shuffledOptionsAreGradedByTheirShownLetters() throws {
        let question = try #require(QuestionParser.parse(Self.choice, file: "c.yaml").question)
        // Shown as: a) third, b) second, c) first.
        #expect(try ChoiceGrader.grade("a c", options: question.options, order: [2, 1, 0]).verdict == .right)
        #expect(try ChoiceGrader.grade("b", options: question.options, order: [2, 1, 0]).verdict == .wrong)
    }

    /// Real answers, right and wrong, to the bank's short questions.
    static let answers: [(id: String, answer: String, verdict: String)] = [
        ("sync-vs-async", "sync blocks the caller until the block is done; async returns immediately and the block runs later", "right"),
        ("sync-vs-async", "they are the same, both run on the main thread", "wrong"),
        ("fix-serial-sync-in-async", "The inner sync waits for the queue the block is already running on; use async instead", "right"),
        ("fix-serial-sync-in-async", "use a bigger thread pool", "wrong"),
        ("race-read-modify-write", "num += 1 is not atomic: both threads can read the same old value and one write overwrites the other", "right"),
        ("race-read-modify-write", "because integers are slow", "wrong"),
        ("reader-writer-isolation", "reads use sync so many readers run at the same time, writes use a barrier", "right"),
        ("reader-writer-isolation", "writes use a barrier", "partial"),
        ("group-enter-leave", "when the work is asynchronous, with a completion callback; every enter must be balanced by exactly one leave", "right"),
        ("group-enter-leave", "never, async(group:) always works", "wrong"),
        ("dependency-dispatched-work", "op1 is marked finished as soon as main returns, and the queue doesn't know about the work still running on the global queue", "right"),
        ("async-operation-kvo", "the queue observes isFinished through KVO; without the notifications the operation stays in the queue forever", "right"),
        ("locks-vs-queue-sync", "a C lock needs a stable address but Swift may copy or move values; queue.sync is safer and has tool support", "right"),
        ("locks-vs-queue-sync", "queue.sync is faster", "wrong"),
        ("qos-order", "userInteractive, userInitiated, default, utility, background", "right"),
        ("qos-order", "background, utility, default, userInitiated, userInteractive", "wrong"),
        ("playground-main-thread", "Yes, it runs on the main thread; set needsIndefiniteExecution to keep the playground running", "right"),
        ("semaphore-no-owner", "a semaphore has no owner, so the system cannot know who will signal it and cannot boost that thread's priority", "right"),
        ("workitem-notify", "the item is submitted with async(execute:), and workItem.notify(queue: .main) updates the UI on the main queue", "right"),
        ("workitem-notify", "with a timer", "wrong"),
        // A typo in a word of the key ideas is forgiven, whole or in a hump of a name.
        ("qos-order", "userInteractive, userInitated, default, utility, backgorund", "right"),
        ("race-read-modify-write", "it is not atmoic: both threads can read the same old value and one write overwrites the other", "right"),
        // Said in the negative, a phrasing says the opposite.
        ("sync-vs-async", "sync does not block the caller, and async returns immediately", "partial"),
        ("sync-vs-async", "sync doesn't wait for anything; async never returns immediately", "wrong"),
        // Not remembering the name is not naming it; the idea is the concept, said any of its ways.
        ("playground-main-thread", "Yes, it runs on the main thread. I don't remember the exact API name", "partial"),
        ("playground-main-thread", "yes it does; you have to keep the page running or async blocks never run", "right"),
        // A negative idea is said with negations ("no owner").
        ("semaphore-no-owner", "nobody owns a semaphore: there is no owner, so the system cannot boost the thread that will signal", "right"),
    ]

    @Test(arguments: answers.indices)
    func shortAnswersAreGradedByKeyIdeas(_ index: Int) throws {
        let row = Self.answers[index]
        let question = try #require(BankTests.bank.question(id: row.id), "\(row.id)")
        let grade = try ShortAnswerGrader.grade(row.answer, question: question)
        #expect(grade.verdict.rawValue == row.verdict, "\(row.id): \(row.answer) → found \(grade.found.map(\.idea))")
    }

    /// Only words of five letters or more are corrected, only to the question's own words with
    /// the same first letter: `block` never becomes `lock`, nor `async` `sync`.
    @Test func typoCorrectionStaysWithinTheQuestionsWords() {
        let ideas = [KeyIdea(idea: "a lock serialises access", accept: ["lock", "/\\bsync\\b/", "userInitiated"])]
        let correction = TypoCorrection(ideas: ideas, modelAnswer: "Use serialQueue.sync or a lock.")
        #expect(correction.corrected("use a block, or async") == "use a block, or async")
        #expect(correction.corrected("UserInitated work serializes acess") == "UserInitiated work serialises access")
        #expect(correction.corrected("serialQueu.sunc") == "serialQueue.sunc")
    }
}
