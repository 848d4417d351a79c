/// Where follow-up questions (`follows: ID`) go in a drill. A follow-up asks about "the puzzle
/// you just solved", so it belongs right after that puzzle, not wherever the shuffle put it.
public enum FollowUps {
    /// `questions` with every follow-up moved right after the question it follows, when that
    /// question is in the list too; everything else keeps its order. Chains (a follow-up of a
    /// follow-up) stay together; a cycle of `follows` cannot lose a question.
    public static func placed(_ questions: [Question]) -> [Question] {
        let ids = Set(questions.map(\.id))
        var result: [Question] = []
        var placed = Set<String>()
        func place(_ question: Question) {
            guard placed.insert(question.id).inserted else { return }
            result.append(question)
            for followUp in questions where followUp.follows == question.id {
                place(followUp)
            }
        }
        for question in questions where !(question.follows.map(ids.contains) ?? false) {
            place(question)
        }
        // Only questions in a cycle of `follows` are left: keep them, in their order.
        for question in questions { place(question) }
        return result
    }

    /// The bank's questions that follow `question` and may be asked in a drill of `kind` (nil:
    /// every kind), in bank order.
    public static func of(_ question: Question, in bank: Bank, kind: Question.Kind?) -> [Question] {
        bank.questions.filter { followUp in
            followUp.follows == question.id && followUp.id != question.id && (kind == nil || followUp.kind == kind)
        }
    }
}
