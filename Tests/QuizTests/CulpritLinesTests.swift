import ConcurrencyModel
import Testing
@testable import Quiz

/// "Which line?" questions: the model finds the lines whose change mends a snippet, and grades a
/// line number by them.
@Suite struct CulpritLinesTests {
    static let syncInAsync = """
        serialQueue.async {
            print(1)
            serialQueue.sync {
                print(2)
            }
            print(3)
        }
        print(4)

        """

    /// A line question's file with `fields` (YAML, unindented) between its source and explanation.
    static func lineQuestion(_ fields: String) -> String {
        "id: which\nkind: line\ntitle: Which line?\nlevel: 2\ntags: [deadlocks]\nsource: a test\n" + fields + "\nexplanation: Because.\n"
    }

    @Test func theSyncOnTheOwnedQueueIsTheLineToChange() throws {
        let culprits = try CulpritLines.find(in: Self.syncInAsync).get()
        #expect(culprits.failures == [.deadlock])
        #expect(culprits.lines.count == 8)
        #expect(culprits.fixes.map(\.line) == [3])
        #expect(culprits.fixes.first?.change == .syncToAsync)
        #expect(culprits.fixList == "3 (async instead of sync)")
        let right = try culprits.grade("line 3")
        #expect(right.isRight)
        #expect(right.reason == "changing line 3 (async instead of sync) is a fix: the snippet no longer deadlocks")
        let printLine = try culprits.grade("2")
        #expect(!printLine.isRight)
        #expect(printLine.reason.hasPrefix("line 2 makes no thread wait"))
        let brace = try culprits.grade("5")
        #expect(brace.reason == "line 5 holds no statement")
    }

    @Test func anUnreadableOrOutOfRangeLineIsNotGraded() throws {
        let culprits = try CulpritLines.find(in: Self.syncInAsync).get()
        #expect(throws: AnswerError.self) { try culprits.grade("three") }
        #expect(throws: AnswerError("the snippet has lines 1 to 8, not 9")) { try culprits.grade("9") }
        #expect(throws: AnswerError.self) { try culprits.grade("  ") }
    }

    /// Either lock() of a lock taken twice on one thread mends it, and so does making it an
    /// NSRecursiveLock (line 1: its holder may take it again); removing the call that takes it
    /// again is no mend, because what it printed is lost.
    @Test func eitherLockOfARecursiveLockingMendsIt() throws {
        let code = """
            let lock = NSLock()
            func log(_ message: String) {
                lock.lock()
                print(message)
                lock.unlock()
            }
            serialQueue.async {
                lock.lock()
                print("saving")
                log("saved")
                lock.unlock()
            }
            print("main")
            """
        let culprits = try CulpritLines.find(in: code).get()
        #expect(culprits.fixes.map(\.line) == [1, 3, 8])
        #expect(culprits.fixes.first?.change == .recursiveLock)
        #expect(try !culprits.grade("10").isRight)
        #expect(try culprits.grade("5").reason.hasPrefix("line 5 makes no thread wait"))
        // An enter() without it, the leave() has nothing to match: libdispatch traps, a deadlock still.
        let group = """
            let group = DispatchGroup()
            group.enter()
            DispatchQueue.global().async {
                DispatchQueue.main.async {
                    print("shown")
                    group.leave()
                }
            }
            group.wait()
            """
        let waits = try CulpritLines.find(in: group).get()
        #expect(waits.fixes.map(\.line) == [9])
        #expect(try waits.grade("2").reason == "changing line 2 is no fix: removed, it still deadlocks")
    }

    @Test func aRaceIsMendedByMakingTheDispatchSynchronous() throws {
        let code = """
            var count = 0
            concurrentQueue.async {
                count += 1
            }
            count += 1
            serialQueue.sync {
                print(count)
            }
            """
        let culprits = try CulpritLines.find(in: code).get()
        #expect(culprits.failures == [.race])
        #expect(culprits.fixes.map(\.line) == [2])
        #expect(culprits.fixes.first?.change == .asyncToSync)
        #expect(culprits.defaultPrompt.contains("make its async a sync"))
    }

    @Test func aSnippetThatDoesNothingWrongHasNoCulprit() throws {
        let culprits = try CulpritLines.find(in: "serialQueue.async {\n    print(1)\n}\nprint(2)\n").get()
        #expect(culprits.failures.isEmpty)
        #expect(culprits.fixes.isEmpty)
    }

    /// Sheets and exports ask it as a choice over the code's lines, in order, right by the model.
    @Test func asAChoiceQuestionTheOptionsAreTheLinesInOrder() throws {
        let code = Self.syncInAsync.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        let (parsed, problems) = QuestionParser.parse(Self.lineQuestion("code: |\n" + code), file: "which.yaml")
        #expect(problems.isEmpty, "\(problems)")
        let question = try #require(parsed)
        #expect(question.kind == .line)
        #expect(question.prompt == nil)
        let choice = try CulpritLines.choiceQuestion(from: question).get()
        #expect(choice.kind == .choice)
        #expect(choice.keepsOptionOrder)
        #expect(OptionOrder.shuffled(choice, seed: 7) == Array(choice.options.indices))
        #expect(choice.options.map(\.text) == ["Line 1: `serialQueue.async {`", "Line 2: `print(1)`", "Line 3: `serialQueue.sync {`",
                                                "Line 4: `print(2)`", "Line 6: `print(3)`", "Line 8: `print(4)`"])
        #expect(choice.options.map(\.isCorrect) == [false, false, true, false, false, false])
        #expect(choice.options[0].why?.hasPrefix("Line 1 makes no thread wait") == true)
        #expect(choice.prompt?.hasPrefix("```swift\nserialQueue.async {") == true)
        #expect(choice.prompt?.hasSuffix("so that it no longer does? Tick every line that would do.") == true)
    }

    @Test func aLineQuestionNeedsCodeAndNoOptions() {
        let text = Self.lineQuestion("options: [{text: a, correct: true}, {text: b}]")
        let messages = QuestionParser.parse(text, file: "w.yaml").problems.map(\.message)
        #expect(messages.contains("a line question needs 'code': the snippet whose culprit line the learner names"))
        #expect(messages.contains("'options' does not belong in a line question"))
    }

    /// validate refuses a line question with nothing to mend, and one no single line mends.
    @Test func validateRefusesALineQuestionWithoutAFailureOrAFix() {
        func problems(_ code: String) -> [String] {
            let question = Question(id: "q", kind: .line, title: "t", level: 1, tags: ["deadlocks"], source: "s",
                                    explanation: "e", code: code, file: "q.yaml")
            return BankValidator.lineProblems(question, explorer: Explorer()).map(\.message)
        }
        #expect(problems("print(1)\n") == ["'q': the snippet neither deadlocks nor races, so no line is to blame: a line question needs a failure"])
        // Two waits on a semaphore nobody signals: removing either one leaves the other.
        let twice = problems("let s = DispatchSemaphore(value: 0)\ns.wait()\ns.wait()\nprint(1)\n")
        #expect(twice == ["'q': the snippet deadlocks, but no single line's change (removing it, sync → async, async → sync) mends it"])
        #expect(problems(Self.syncInAsync).isEmpty)
    }
}
