import DispatchModel
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
        let grade = try Self.grader("print(1)").grade("7")
        guard case .wrong(let why) = grade.verdict else {
            Issue.record("expected wrong")
            return
        }
        #expect(why.blockers.first?.rule == .neverPrinted)
    }

    @Test func junkIsAnAnswerError() throws {
        #expect(throws: AnswerError.self) { try Self.grader("print(1)").grade("1 | ") }
    }
}
