import DispatchModel
import Quiz
import Testing

@Suite struct AnswerNotationTests {
    @Test func rendersLinesAndTheEnding() {
        #expect(AnswerNotation.render(Outcome(lines: ["1", "2"], end: .finished)) == "1 2")
        #expect(AnswerNotation.render(Outcome(lines: ["1"], end: .deadlock)) == "1 deadlock")
        #expect(AnswerNotation.render(Outcome(lines: [], end: .deadlock)) == "deadlock")
        #expect(AnswerNotation.render(Outcome(lines: [], end: .finished)) == "(nothing)")
    }

    @Test func quotesLinesThatHoldSeparatorsOrEndWords() {
        #expect(AnswerNotation.render(Outcome(lines: ["a b", "c,d", "hang"], end: .finished)) == #""a b" "c,d" "hang""#)
    }
}

@Suite struct AnswerParsingTests {
    static func parse(_ text: String, compact: Bool = true) throws -> [String] {
        try AnswerNotation.parse(text, compactLines: compact).map(AnswerNotation.render)
    }

    @Test func everyFormOfTheNotation() throws {
        #expect(try Self.parse("1 2 3 4") == ["1 2 3 4"])
        #expect(try Self.parse("1,2,3,4") == ["1 2 3 4"])
        #expect(try Self.parse("1, 2 ,3 ,4") == ["1 2 3 4"])
        #expect(try Self.parse("1234") == ["1 2 3 4"])
        #expect(try Self.parse("12 34") == ["1 2 3 4"])
        #expect(try Self.parse("1 2 3 4 | 2 1 3 4") == ["1 2 3 4", "2 1 3 4"])
    }

    @Test func endings() throws {
        #expect(try Self.parse("1 4 deadlock") == ["1 4 deadlock"])
        #expect(try Self.parse("1 4 hang | 1 crash") == ["1 4 deadlock", "1 deadlock"])
        #expect(try Self.parse("14 DEADLOCK") == ["1 4 deadlock"])
        #expect(try Self.parse("deadlock") == ["deadlock"])
        #expect(try Self.parse("(nothing)") == ["(nothing)"])
    }

    @Test func compactOnlyWhenEveryLineIsOneCharacter() throws {
        #expect(try Self.parse("10 11", compact: false) == ["10 11"])
        #expect(try Self.parse("1011", compact: false) == ["1011"])
    }

    @Test func quotedLinesKeepTheirSpaces() throws {
        let outcomes = try AnswerNotation.parse(#""top 1" "main" | "a,b" deadlock"#, compactLines: false)
        #expect(outcomes == [Outcome(lines: ["top 1", "main"], end: .finished), Outcome(lines: ["a,b"], end: .deadlock)])
        #expect(try AnswerNotation.parse(#""deadlock""#, compactLines: false) == [Outcome(lines: ["deadlock"], end: .finished)])
    }

    @Test func duplicatesCountOnce() throws {
        #expect(try Self.parse("1234 | 1 2 3 4 | 1,2,3,4") == ["1 2 3 4"])
    }

    @Test(arguments: ["", "   ", "1 2 |", "| 1 2", "1 deadlock 2", "\"open", "1 \"a\"b", "1 || 2", "(nothing) 1"])
    func junkIsRejectedWithAMessage(_ text: String) {
        #expect(throws: AnswerError.self) { try AnswerNotation.parse(text, compactLines: true) }
        do {
            _ = try AnswerNotation.parse(text, compactLines: true)
        } catch {
            #expect(!error.message.isEmpty)
            #expect(error.description.contains(AnswerNotation.example))
        }
    }

    @Test func renderedOutcomesParseBack() throws {
        let outcomes = [Outcome(lines: ["top 1", "x", "hang"], end: .deadlock), Outcome(lines: ["a\"b"], end: .finished)]
        for outcome in outcomes {
            #expect(try AnswerNotation.parse(AnswerNotation.render(outcome), compactLines: false) == [outcome])
        }
    }
}
