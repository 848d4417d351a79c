import ConcurrencyModel

extension CulpritLines {
    /// A "which line?" question as the choice question that sheets and exports print: its code,
    /// its question, and one option per line that holds a statement ("Line 5: serialQueue.sync {"),
    /// right where the model finds that changing the line is a fix, with the model's reason on
    /// every other (as `check` would say it). Computed now, never stored, as every answer is.
    public static func choiceQuestion(from question: Question) -> Result<Question, ProblemList> {
        guard question.kind == .line, let code = question.code else { return .success(question) }
        let culprits: CulpritLines
        switch find(in: code, fileName: question.file) {
        case .success(let found): culprits = found
        case .failure(let problems): return .failure(ProblemList(problems.problems.map { question.codeOrigin?.relocate($0) ?? $0 }))
        }
        var choice = question
        choice.kind = .choice
        choice.keepsOptionOrder = true
        let prompt = question.prompt ?? culprits.defaultPrompt
        let fence = "```swift\n" + code.trimmingTrailingNewlines + "\n```"
        choice.prompt = fence + "\n\n" + prompt.trimmingTrailingNewlines + " Tick every line that would do."
        choice.options = culprits.lines.indices.compactMap { index -> ChoiceOption? in
            let number = index + 1
            guard isStatement(culprits.lines[index]) else { return nil }
            let text = "Line \(number): `\(culprits.lines[index].trimmingCharacters(in: .whitespaces))`"
            // The model's verdict on naming this line, as `check` gives it.
            guard let grade = try? culprits.grade(String(number)) else { return nil }
            return ChoiceOption(text: text, isCorrect: grade.isRight, why: grade.isRight ? nil : grade.reason.prefix(1).uppercased() + grade.reason.dropFirst() + ".")
        }
        choice.code = nil
        choice.codeOrigin = nil
        return .success(choice)
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == " " { text.removeLast() }
        return text
    }
}
