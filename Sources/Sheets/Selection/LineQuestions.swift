import Quiz

/// Sheets and exports print a "which line?" question as a choice question, one option per line
/// of its code (`CulpritLines.choiceQuestion`), so that paper, Moodle, GIFT, Anki and QTI ask it
/// with what they already have.
enum LineQuestions {
    static func asChoice(_ question: Question) throws(SheetError) -> Question {
        switch CulpritLines.choiceQuestion(from: question) {
        case .success(let choice): return choice
        case .failure(let problems):
            throw .badInput("'\(question.id)' cannot be asked: " + problems.problems.map(\.message).joined(separator: "; "))
        }
    }
}
