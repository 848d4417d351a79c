/// Follow-up questions (`follows: ID`) ask about "the puzzle you just solved": the drill asks one
/// only right after its parent was answered in the same session, never first and never alone.
public enum FollowUps {
    /// Whether `question` follows another question of the bank. A `follows` that names no
    /// question, or goes round in a circle (both reported by `validate`), does not make one: such
    /// a question is asked as any other, so that no question is lost.
    public static func isFollowUp(_ question: Question, in bank: Bank) -> Bool {
        var visited: Set<String> = [question.id]
        var current = question
        while let parentID = current.follows {
            guard let parent = bank.question(id: parentID) else { return false }
            guard visited.insert(parent.id).inserted else { return false }
            current = parent
        }
        return current.id != question.id
    }

    /// The bank's questions that follow `question` and may be asked in a drill of `kind` (nil:
    /// every kind), in bank order.
    public static func of(_ question: Question, in bank: Bank, kind: Question.Kind?) -> [Question] {
        bank.questions.filter { followUp in
            followUp.follows == question.id && followUp.id != question.id && (kind == nil || followUp.kind == kind)
        }
    }
}
