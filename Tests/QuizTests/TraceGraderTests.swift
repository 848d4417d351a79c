import ConcurrencyModel
import Quiz
import Testing

@Suite struct TraceGraderTests {
    static func grader(_ code: String) throws -> TraceGrader {
        TraceGrader(exploration: Explorer().explore(try SnippetCompiler.compile(code).get()))
    }

    static let serialAsync = "serialQueue.async { print(1) }\nprint(2)\nserialQueue.async { print(3) }\nprint(4)\n"

    @Test func exact() throws {
        let grade = try Self.grader(Self.serialAsync).grade("1234 | 1243 | 2134 | 2143 | 2413")
        #expect(grade.isExact)
        #expect(grade.verdict.name == "exact")
    }

    @Test func incompleteSaysWhatIsMissing() throws {
        let grade = try Self.grader(Self.serialAsync).grade("1 2 3 4 | 2 4 1 3")
        guard case .incomplete(let missing) = grade.verdict else {
            Issue.record("expected incomplete, got \(grade.verdict.name)")
            return
        }
        #expect(missing.map(AnswerNotation.render) == ["1 2 4 3", "2 1 3 4", "2 1 4 3"])
        #expect(grade.right.count == 2)
    }

    @Test func wrongNamesThePrefixTheNextAndTheRule() throws {
        let grade = try Self.grader(Self.serialAsync).grade("1 2 3 4 | 2 3 1 4")
        guard case .wrong(let why) = grade.verdict else {
            Issue.record("expected wrong")
            return
        }
        #expect(AnswerNotation.render(why.outcome) == "2 3 1 4")
        #expect(why.longestPrefix == ["2"])
        #expect(why.wanted == .line("3"))
        #expect(Set(why.couldComeNext) == [.line("1"), .line("4")])
        #expect(why.blockers.contains { $0.rule == .fifo || $0.rule == .notSubmittedYet || $0.rule == .serialOneAtATime })
    }

    @Test func aSyncBlockMustFinishBeforeTheCallerGoesOn() throws {
        let grade = try Self.grader("serialQueue.sync { print(1) }\nprint(2)").grade("2 1")
        guard case .wrong(let why) = grade.verdict else {
            Issue.record("expected wrong")
            return
        }
        #expect(why.longestPrefix.isEmpty)
        #expect(why.blockers.first?.rule == .syncWaitsForItsBlock)
    }

    @Test func nothingPrintsAfterATrap() throws {
        let code = "serialQueue.async {\n    print(1)\n    serialQueue.sync { print(2) }\n}\nprint(4)\n"
        let grade = try Self.grader(code).grade("1 2 deadlock")
        guard case .wrong(let why) = grade.verdict else {
            Issue.record("expected wrong")
            return
        }
        #expect(why.blockers.contains { $0.rule == .trapEndsTheProcess })
    }

    @Test func theMainQueueWaitsForTheTopLevelCode() throws {
        let grade = try Self.grader("DispatchQueue.main.async { print(\"m\") }\nprint(\"t\")").grade("m t")
        guard case .wrong(let why) = grade.verdict else {
            Issue.record("expected wrong")
            return
        }
        #expect(why.blockers.first?.rule == .mainQueueNeedsIdleMainThread)
    }

    @Test func aWrongEndingIsExplained() throws {
        let grade = try Self.grader("print(1)").grade("1 deadlock")
        guard case .wrong(let why) = grade.verdict else {
            Issue.record("expected wrong")
            return
        }
        #expect(why.wanted == .end(.deadlock))
        #expect(why.blockers.first?.rule == .allWorkDone)
    }

    @Test func aLineNobodyPrintsIsExplained() throws {
        // The notation refuses such a word; the model still says why, for any caller.
        let grade = try Self.grader("print(1)").grade([Outcome(lines: ["7"], end: .finished)])
        guard case .wrong(let why) = grade.verdict else {
            Issue.record("expected wrong")
            return
        }
        #expect(why.blockers.first?.rule == .neverPrinted)
    }

    @Test func junkIsAnAnswerError() throws {
        #expect(throws: AnswerError.self) { try Self.grader("print(1)").grade("1 | ") }
    }

    @Test func aWordNoPrintCanProduceIsUnreadableNotWrong() throws {
        let grader = try Self.grader(Self.serialAsync)
        for answer in ["0 -> 1 -> 2", "1 2 3 4 5", "1 2 3 4 finishd", "before deadlok"] {
            #expect(throws: AnswerError.self, "\(answer)") { try grader.grade(answer) }
        }
    }

    @Test func aLabelThePuzzlePrintsInAnImpossiblePlaceIsWrong() throws {
        let grade = try Self.grader(Self.serialAsync).grade("3 1 2 4")
        #expect(grade.verdict.name == "wrong")
    }

    @Test func finishedIsAnExplicitEnding() throws {
        let grader = try Self.grader(Self.serialAsync)
        #expect(try grader.read("1 2 3 4 finished") == [Outcome(lines: ["1", "2", "3", "4"], end: .finished)])
        #expect(try grader.read("1234 FINISHED | 2143") == [
            Outcome(lines: ["1", "2", "3", "4"], end: .finished), Outcome(lines: ["2", "1", "4", "3"], end: .finished),
        ])
    }

    @Test func arrowsBracketsAndOrAreReadWhenTheyMeanOneThing() throws {
        let grader = try Self.grader(Self.serialAsync)
        let two = [Outcome(lines: ["1", "2", "3", "4"], end: .finished), Outcome(lines: ["2", "1", "4", "3"], end: .finished)]
        for answer in ["1 -> 2 -> 3 -> 4 | 2→1→4→3", "[1, 2, 3, 4] [2, 1, 4, 3]", "[[1,2,3,4],[2,1,4,3]]",
                       "1 2 3 4 or 2 1 4 3", "[1 2 3 4] | [2 1 4 3]", "1->2->3->4 OR 2->1->4->3"] {
            #expect(try grader.read(answer) == two, "\(answer)")
        }
        for answer in ["1 2 [3 4]", "[1 2 3 4", "1 2 3 4]", "[1 2 | 3 4]", "[[[1]]]", "-> 1 2", "1 2 ->", "1 -> -> 2", "[]"] {
            #expect(throws: AnswerError.self, "\(answer)") { try grader.read(answer) }
        }
    }

    @Test func marksThePuzzlePrintsAreLinesNotNotation() throws {
        // This snippet prints "or" and an array: `or` is a line, and brackets must be quoted.
        let grader = try Self.grader("print(\"or\")\nprint([1, 2])")
        #expect(try grader.read(#"or "[1, 2]""#) == [Outcome(lines: ["or", "[1, 2]"], end: .finished)])
        #expect(throws: AnswerError.self) { try grader.read("or [1, 2]") }
    }

    @Test func computedPrintsAcceptTheValuesTheyCouldShow() throws {
        let grader = try Self.grader("var n = 0\nfor i in 1...3 { n += i }\nprint(\"n = \\(n)\")\nprint(n > 2)")
        #expect(try grader.read(#""n = 99" false"#) == [Outcome(lines: ["n = 99", "false"], end: .finished)])
        #expect(throws: AnswerError.self) { try grader.read(#""n = x" true"#) }
        #expect(throws: AnswerError.self) { try grader.read(#""n = 6" maybe"#) }
    }

    /// A loop variable's print cannot start with `[`: brackets around outcomes are notation there,
    /// as for a constant print (they used to be refused, "no print can produce '[[0'").
    @Test func bracketsGroupWhereNoPrintedLineStartsWithOne() throws {
        let perform = try Self.grader("DispatchQueue.concurrentPerform(iterations: 3) { i in\n    print(i)\n}\nprint(\"done\")")
        #expect(try perform.read("[[0,1,2,done],[0,2,1,done]]") == [
            Outcome(lines: ["0", "1", "2", "done"], end: .finished), Outcome(lines: ["0", "2", "1", "done"], end: .finished),
        ])
        let loop = try Self.grader("for i in 1...2 { print(i) }")
        #expect(try loop.grade("[1,2]").isExact)
        #expect(try loop.read("[1, 2] | [2, 1]").count == 2)
        // An interpolation that starts with text, and a line with a bracket inside it.
        let labelled = try Self.grader("for i in 1...2 { print(\"item \\(i)\") }\nprint(\"a[0]=1\")")
        #expect(try labelled.read(#"["item 1", "item 2", a[0]=1]"#) == [Outcome(lines: ["item 1", "item 2", "a[0]=1"], end: .finished)])
        // A print that may start with a bracket keeps brackets as lines.
        let list = try Self.grader("var list = [1]\nprint(list)")
        #expect(try list.read("[1]") == [Outcome(lines: ["[1]"], end: .finished)])
        #expect(try list.read(#""[1]""#) == [Outcome(lines: ["[1]"], end: .finished)])
    }

    @Test func typosGetTheNearestPrintedLine() throws {
        let grader = try Self.grader("print(\"work\")\nprint(\"end\")\nprint(\"late\")\nprint(true)")
        for (typo, meant) in [("wrok", "work"), ("wrk", "work"), ("works", "work"), ("edn", "end"), ("lat", "late"), ("True", "true"), ("finishd", "finished")] {
            #expect(throws: AnswerError.self, "\(typo)") { try grader.read("\(typo)") }
            do {
                _ = try grader.read(typo)
            } catch {
                #expect(error.message.contains("did you mean '\(meant)'?"), "\(typo): \(error.message)")
            }
        }
    }

    @Test func wordsThatMakeALineWithASpaceGetTheQuotedLine() throws {
        let grader = try Self.grader("concurrentQueue.async { print(\"a done\") }\nprint(\"b\")")
        do {
            _ = try grader.read("a done b")
            Issue.record("a done b was read")
        } catch {
            #expect(error.message.contains(#"the line "a done": a line that holds a space is quoted, "a done""#), "\(error.message)")
        }
        #expect(try grader.read(#""a done" b"#) == [Outcome(lines: ["a done", "b"], end: .finished)])
    }
}
