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

    /// - Parameter order: the options' indices in the order they were shown (shuffled in the
    ///   drill); letter `a` is `order[0]`.
    public static func grade(_ answer: String, options: [ChoiceOption], order: [Int]? = nil) throws(AnswerError) -> Grade {
        let shown = order ?? Array(options.indices)
        var letters: [Character] = []
        for character in answer.lowercased() {
            if character == " " || character == "," || character == "\t" { continue }
            guard let ascii = character.asciiValue, ascii >= 97, Int(ascii - 97) < shown.count else {
                let last = Character(UnicodeScalar(UInt8(96 + shown.count)))
                throw AnswerError("choose with the options' letters, a to \(last), e.g. 'a' or 'a, c'")
            }
            if !letters.contains(character) { letters.append(character) }
        }
        guard !letters.isEmpty else { throw AnswerError("the answer is empty: choose with the options' letters, e.g. 'a' or 'a, c'") }
        let chosen = letters.map { shown[Int($0.asciiValue! - 97)] }
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
