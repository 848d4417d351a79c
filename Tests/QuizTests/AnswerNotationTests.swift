import ConcurrencyModel
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

    @Test func unicodeSpacesAndFullWidthMarksSeparate() throws {
        #expect(try Self.parse("1\u{00A0}2\u{2003}3\u{3000}4") == ["1 2 3 4"])
        #expect(try Self.parse("1，2、3\u{200B}4 ｜ 2 1") == ["1 2 3 4", "2 1"])
        #expect(try Self.parse("1\n2\t3") == ["1 2 3"])
    }

    @Test func aPrintedLineNeverHoldsALineBreak() throws {
        for text in [#""\n""#, #""a\nb""#, "\"a\nb\"", #""a\rb""#] {
            #expect(throws: AnswerError.self, "\(text)") { try AnswerNotation.parse(text, compactLines: false) }
        }
        #expect(throws: AnswerError.self) { try AnswerNotation.parse(#""a\qb""#, compactLines: false) }
        #expect(try AnswerNotation.parse(#""a\tb" "c\\d""#, compactLines: false) == [Outcome(lines: ["a\tb", "c\\d"], end: .finished)])
    }

    @Test func messagesQuoteAtMostAShortPieceOfTheAnswer() {
        let huge = String(repeating: "x", count: 131_072)
        for text in [huge + " deadlock 1", "\"" + huge, huge + "\"b\""] {
            do {
                _ = try AnswerNotation.parse(text, compactLines: false)
                Issue.record("\(text.prefix(10)) should not parse")
            } catch {
                #expect(error.description.count < 300, "\(error.description.prefix(80))")
            }
        }
        #expect(AnswerError.excerpt(huge).count < 30)
        #expect(AnswerError.excerpt("one\ntwo") == "'one…'")
    }

    @Test func renderedLinesThatLookLikeNotationAreQuoted() throws {
        let outcome = Outcome(lines: ["finished", "or", "a->b", "[1]", "x\u{00A0}y"], end: .finished)
        #expect(AnswerNotation.render(outcome) == "\"finished\" \"or\" \"a->b\" \"[1]\" \"x\u{00A0}y\"")
        #expect(try AnswerNotation.parse(AnswerNotation.render(outcome), compactLines: false) == [outcome])
    }
}
