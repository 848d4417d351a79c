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
