import Foundation

/// Grades the letters of a choice answer (`a`, `a,c`, `A C`, `ac`) against the correct options.
public enum ChoiceGrader {
    public struct Grade: Sendable {
        public var verdict: Verdict
        /// The options chosen, by index in the order they were shown.
        public var chosen: [Int]
        public var correct: [Int]
    }

    /// For choice and short questions: right, partly right, or wrong.
    public enum Verdict: String, Sendable {
        case right, partial, wrong
    }

    /// - Parameter order: the options' indices in the order they were shown (`OptionOrder`);
    ///   letter `a` is `order[0]`.
    public static func grade(_ answer: String, options: [ChoiceOption], order: [Int]) throws(AnswerError) -> Grade {
        var positions: [Int] = []
        for character in answer {
            if AnswerLexer.isSpace(character) { continue }
            guard let position = OptionLetter.position(of: character), position < order.count else {
                let last = OptionLetter.letter(order.count - 1)
                throw AnswerError("choose with the options' letters, a to \(last), e.g. 'a' or 'a, c'")
            }
            if !positions.contains(position) { positions.append(position) }
        }
        guard !positions.isEmpty else { throw AnswerError("the answer is empty: choose with the options' letters, e.g. 'a' or 'a, c'") }
        let chosen = positions.map { order[$0] }
        let correct = options.indices.filter { options[$0].isCorrect }
        let verdict: Verdict
        if Set(chosen) == Set(correct) {
            verdict = .right
        } else if Set(chosen).isSubset(of: Set(correct)) {
            verdict = .partial
        } else {
            verdict = .wrong
        }
        return Grade(verdict: verdict, chosen: chosen, correct: correct)
    }
}
