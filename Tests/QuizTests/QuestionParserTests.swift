import ConcurrencyModel
import Foundation
import Quiz
import Testing

@Suite struct QuestionParserTests {
    static let valid = """
        id: demo
        title: A demo
        level: 1
        tags: [serial-queues, sync-async]
        source: a test
        code: |
          serialQueue.async {
              print(1)
          }
        explanation: |
          Because.
        """

    @Test func aValidFileGivesAQuestion() throws {
        let (question, problems) = QuestionParser.parse(Self.valid, file: "demo.yaml")
        #expect(problems.isEmpty)
        let parsed = try #require(question)
        #expect(parsed.id == "demo")
        #expect(parsed.kind == .trace)
        #expect(parsed.tags == ["serial-queues", "sync-async"])
        #expect(parsed.code == "serialQueue.async {\n    print(1)\n}\n")
        #expect(try parsed.program().get().blocks.count == 2)
    }

    @Test func aScheduleQuestionHasCodeAndAGoal() throws {
        let schedule = Self.valid.replacingOccurrences(of: "id: demo", with: "id: demo\nkind: schedule\ngoal: \"1\"")
        let question = try #require(QuestionParser.parse(schedule, file: "s.yaml").question)
        #expect(question.kind == .schedule)
        #expect(question.goal == "1")
        #expect(question.kind.hasCode)

        let withoutGoal = Self.valid.replacingOccurrences(of: "id: demo", with: "id: demo\nkind: schedule")
        #expect(QuestionParser.parse(withoutGoal, file: "s.yaml").problems.map(\.message).contains { $0.hasPrefix("a schedule question needs 'goal'") })
        let goalOnATrace = Self.valid.replacingOccurrences(of: "id: demo", with: "id: demo\ngoal: deadlock")
        let problems = QuestionParser.parse(goalOnATrace, file: "t.yaml").problems
        #expect(problems.map(\.message) == ["'goal' does not belong in a trace question"])
        #expect(problems.first?.location?.line == 2)
    }

    /// `validate` reads a schedule question's goal against what its snippet prints.
    @Test func anUnreadableGoalIsPlacedAtItsField() throws {
        let schedule = Self.valid.replacingOccurrences(of: "id: demo", with: "id: demo\nkind: schedule\ngoal: 1 7")
        let question = try #require(QuestionParser.parse(schedule, file: "s.yaml").question)
        let problems = BankValidator.validate(Bank(questions: [question], problems: [], root: "."))
        #expect(problems.count == 1)
        #expect(problems.first?.message.hasPrefix("unreadable goal '1 7'") == true)
        #expect(problems.first?.location?.line == 3)
    }

    @Test func aGeneratedPuzzleSaysSoAndOnlyTrueOrFalseIsAccepted() throws {
        let generated = Self.valid.replacingOccurrences(of: "source: a test", with: "source: a test\ngenerated: true")
        #expect(try #require(QuestionParser.parse(generated, file: "g.yaml").question).isGenerated)
        #expect(try #require(QuestionParser.parse(Self.valid, file: "demo.yaml").question).isGenerated == false)
        let wrong = Self.valid.replacingOccurrences(of: "source: a test", with: "source: a test\ngenerated: maybe")
        let (question, problems) = QuestionParser.parse(wrong, file: "w.yaml")
        #expect(question == nil)
        #expect(problems.map(\.message) == ["'generated' is true or false"])
        #expect(problems.first?.location?.line == 6)
    }

    /// "seed 004" names one of the project's own files, which a reader cannot look up: refused at
    /// the citation itself, on a plain, a quoted or a block source, and in any case.
    @Test func aSourceCitingASeedFileIsRefusedAtTheCitation() throws {
        let plain = Self.valid.replacingOccurrences(of: "source: a test", with: "source: WWDC 2016 notes; seed 002, QoS")
        let (question, problems) = QuestionParser.parse(plain, file: "s.yaml")
        #expect(question == nil)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.message.hasPrefix("source cites 'seed 002'"))
        #expect(problem.location?.file == "s.yaml")
        #expect(problem.location?.line == 5)
        #expect(problem.location?.column == 26)

        let quoted = Self.valid.replacingOccurrences(of: "source: a test", with: "source: 'Seed 4, slides'")
        let quotedProblem = try #require(QuestionParser.parse(quoted, file: "q.yaml").problems.first)
        #expect(quotedProblem.message.hasPrefix("source cites 'Seed 4'"))
        #expect(quotedProblem.location?.column == 10)

        let block = Self.valid.replacingOccurrences(of: "source: a test", with: "source: |\n  the slides,\n  and SEED 000")
        let blockProblem = try #require(QuestionParser.parse(block, file: "b.yaml").problems.first)
        #expect(blockProblem.location?.line == 7)
        #expect(blockProblem.location?.column == 7)
    }

    /// What is not a citation of a seed file passes: a talk's name, "seeds" without a number, and
    /// a generated puzzle's own seed.
    @Test func aSourceNamingRealMaterialOrAGeneratorSeedIsAccepted() {
        for source in ["WWDC 2016, Concurrent Programming With GCD in Swift 3", "SE-0306 Actors", "seeds of doubt, 3 slides",
                       "linseed 004"] {
            let text = Self.valid.replacingOccurrences(of: "source: a test", with: "source: \(source)")
            #expect(QuestionParser.parse(text, file: "ok.yaml").problems.isEmpty, "\(source)")
        }
        let generated = Self.valid.replacingOccurrences(
            of: "source: a test", with: "source: a fresh puzzle, by gcdquiz generate with seed 42\ngenerated: true")
        #expect(QuestionParser.parse(generated, file: "g.yaml").problems.isEmpty)
    }

    @Test func yamlSyntaxErrorHasItsPosition() {
        let text = "id: demo\ntitle: [unclosed\nlevel: 1\n"
        let (question, problems) = QuestionParser.parse(text, file: "bad.yaml")
        #expect(question == nil)
        #expect(problems.count == 1)
        let location = problems.first?.location
        #expect(location?.file == "bad.yaml")
        #expect(location?.line == 3)
        #expect(location?.column == 6)
        #expect(problems.first?.message.hasPrefix("YAML:") == true)
    }

    /// Some editors save UTF-8 with a byte-order mark: it is no part of the text, and the file
    /// reads as without it (libyaml alone reported "did not find expected <document start>").
    @Test func aByteOrderMarkIsSkipped() throws {
        let (question, problems) = QuestionParser.parse("\u{FEFF}" + Self.valid, file: "bom.yaml")
        #expect(problems.isEmpty, "\(problems)")
        #expect(question?.id == "demo")
        let (_, placed) = QuestionParser.parse("\u{FEFF}" + Self.valid.replacingOccurrences(of: "level: 1", with: "level: 7"), file: "bom.yaml")
        #expect(placed.map(\.description) == ["bom.yaml:3:8: error: level must be 1, 2, 3 or 4, not 7"])
    }

    /// A character YAML refuses (a NUL) is placed where it is, not at 1:1, and named.
    @Test func aControlCharacterIsPlacedWhereItIs() {
        let text = Self.valid.replacingOccurrences(of: "title: A demo", with: "title: A\u{0}demo")
        let (question, problems) = QuestionParser.parse(text, file: "nul.yaml")
        #expect(question == nil)
        #expect(problems.map(\.description) == ["nul.yaml:2:9: error: YAML: control characters are not allowed (U+0000)"])
        #expect(problems.first?.sourceLine == "title: A\u{0}demo")
    }

    /// YAML's nulls (`~`, `null`) are no title: read as plain text, they used to show as "~".
    @Test(arguments: ["~", "null", "NULL"])
    func aNullFieldIsNoValue(word: String) {
        let text = Self.valid.replacingOccurrences(of: "title: A demo", with: "title: \(word)")
        let (question, problems) = QuestionParser.parse(text, file: "null.yaml")
        #expect(question == nil)
        #expect(problems.map(\.description) == [
            "null.yaml:2:8: error: 'title' is null ('\(word)' is YAML for no value): write the title, or quote it to mean the text"])
        let quoted = Self.valid.replacingOccurrences(of: "title: A demo", with: "title: '\(word)'")
        #expect(QuestionParser.parse(quoted, file: "quoted.yaml").question?.title == word)
    }

    @Test func unknownAndMissingFieldsAreReportedTogether() {
        let text = Self.valid.replacingOccurrences(of: "level: 1\n", with: "levle: 1\n")
        let (question, problems) = QuestionParser.parse(text, file: "q.yaml")
        #expect(question == nil)
        let messages = problems.map(\.message)
        #expect(messages.contains { $0.hasPrefix("unknown field 'levle'") })
        #expect(messages.contains { $0.hasPrefix("missing field 'level'") })
        let unknown = problems.first { $0.message.hasPrefix("unknown field") }
        #expect(unknown?.location == SourceLocation(file: "q.yaml", line: 3, column: 1))
    }

    @Test func fieldValuesAreChecked() {
        let text = Self.valid
            .replacingOccurrences(of: "level: 1", with: "level: 7")
            .replacingOccurrences(of: "id: demo", with: "id: Demo_1")
            .replacingOccurrences(of: "tags: [serial-queues, sync-async]", with: "tags: serial")
        let problems = QuestionParser.parse(text, file: "q.yaml").problems
        #expect(problems.map { $0.location?.line } == [1, 3, 4])
        #expect(problems.map(\.message).allSatisfy { !$0.isEmpty })
    }

    @Test func aTraceQuestionNeedsCode() {
        let text = Self.valid.components(separatedBy: "code:").first! + "explanation: x\n"
        let problems = QuestionParser.parse(text, file: "q.yaml").problems
        #expect(problems.map(\.message).contains { $0.contains("needs 'code'") })
    }

    @Test func aProblemInTheCodeIsPlacedInTheYAMLFile() throws {
        let text = Self.valid.replacingOccurrences(of: "      print(1)", with: "      print(1)\n      struct S { }")
        let question = try #require(QuestionParser.parse(text, file: "q.yaml").question)
        guard case .failure(let list) = question.program() else {
            Issue.record("the code should not compile")
            return
        }
        // Line 9 of the file; column 2 (block indent) + 4 (inside the closure) + 1.
        #expect(list.problems.first?.location == SourceLocation(file: "q.yaml", line: 9, column: 7))
        #expect(list.problems.first?.sourceLine == "      struct S { }")
    }
}

@Suite struct BankLoaderTests {
    @Test func aBadFileCostsOnlyItselfAndDuplicatesAreCaught() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-bank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("topic"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try QuestionParserTests.valid.write(to: folder.appendingPathComponent("topic/a.yaml"), atomically: true, encoding: .utf8)
        try QuestionParserTests.valid.write(to: folder.appendingPathComponent("topic/b.yaml"), atomically: true, encoding: .utf8)
        try "id: [".write(to: folder.appendingPathComponent("topic/c.yaml"), atomically: true, encoding: .utf8)
        let other = QuestionParserTests.valid.replacingOccurrences(of: "id: demo", with: "id: other")
            .replacingOccurrences(of: "print(1)", with: "print(x)")
        try other.write(to: folder.appendingPathComponent("d.yaml"), atomically: true, encoding: .utf8)

        let bank = BankLoader.load(paths: [folder.path])
        #expect(bank.questions.map(\.id) == ["demo"])
        let files = bank.problems.compactMap { $0.location.map { URL(fileURLWithPath: $0.file).lastPathComponent } }
        #expect(Set(files) == ["b.yaml", "c.yaml", "d.yaml"])
        let duplicate = try #require(bank.problems.first { $0.message.hasPrefix("duplicate id") })
        #expect(duplicate.location?.line == 1)
        let code = try #require(bank.problems.first { $0.location?.file.hasSuffix("d.yaml") == true })
        #expect(code.location?.line == 8)
        #expect(code.location?.column == 13)
    }

    @Test func followUpsThatGoRoundInACircleAreReported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-bank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (id, follows) in [("one", "two"), ("two", "one")] {
            let text = QuestionParserTests.valid.replacingOccurrences(of: "id: demo", with: "id: \(id)\nfollows: \(follows)")
            try text.write(to: folder.appendingPathComponent("\(id).yaml"), atomically: true, encoding: .utf8)
        }
        let bank = BankLoader.load(paths: [folder.path])
        #expect(bank.problems.map(\.message).sorted() == [
            "'follows' goes round in a circle: one → two → one",
            "'follows' goes round in a circle: two → one → two",
        ])
    }
}
