import ConcurrencyModel
import Generator
import Testing

/// Outcome sets compared up to renaming: what makes a generated puzzle a copy by its answer.
@Suite struct OutcomeShapeTests {
    static func outcomes(_ text: String) -> [Outcome] {
        text.split(separator: "|").map { outcome in
            var lines = outcome.split(separator: " ").map(String.init)
            let end: End = lines.last == "deadlock" ? .deadlock : .finished
            if end == .deadlock { lines.removeLast() }
            return Outcome(lines: lines, end: end)
        }
    }

    @Test func renamingTheLinesKeepsTheShape() {
        #expect(OutcomeShape(Self.outcomes("1 2 3|2 1 3")) == OutcomeShape(Self.outcomes("b a c|a b c")))
        #expect(OutcomeShape(Self.outcomes("1 deadlock|1 2 deadlock")) == OutcomeShape(Self.outcomes("x y deadlock|x deadlock")))
    }

    @Test func differentAnswersHaveDifferentShapes() {
        #expect(OutcomeShape(Self.outcomes("1 2 3|2 1 3")) != OutcomeShape(Self.outcomes("1 2 3|1 3 2")))
        #expect(OutcomeShape(Self.outcomes("1 2 3|2 1 3")) != OutcomeShape(Self.outcomes("1 2 3|3 2 1")))
        #expect(OutcomeShape(Self.outcomes("1 2|2 1")) != OutcomeShape(Self.outcomes("1 2 deadlock|2 1")))
        #expect(OutcomeShape(Self.outcomes("1 2|2 1")) != OutcomeShape(Self.outcomes("1 2|2 1|2")))
    }

    @Test func linesThatPlayTheSameRoleAreTriedInEveryOrder() {
        // Every line is symmetric to every other: the signatures alone cannot order them.
        let all = "a b c|a c b|b a c|b c a|c a b|c b a"
        #expect(OutcomeShape(Self.outcomes(all)) == OutcomeShape(Self.outcomes(all.replacingOccurrences(of: "a", with: "z"))))
        #expect(OutcomeShape(Self.outcomes("a b c d|b a d c")) == OutcomeShape(Self.outcomes("1 2 3 4|2 1 4 3")))
        #expect(OutcomeShape(Self.outcomes("a b c d|b a d c")) != OutcomeShape(Self.outcomes("1 2 3 4|2 1 3 4|1 2 4 3")))
    }
}
