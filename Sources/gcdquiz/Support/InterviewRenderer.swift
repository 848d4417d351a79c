import Quiz

/// Choice and short questions as text: the question, lettered options, and verdicts.
enum InterviewRenderer {
    /// The options in the order shown, lettered a, b, c…
    static func options(_ question: Question, order: [Int], style: TerminalStyle) -> String {
        order.enumerated().map { position, index in
            "  \(style.bold(OptionLetter.letter(position) + ")")) " + style.wrapped(question.options[index].text, firstLineWidth: 5, indent: 5)
        }.joined(separator: "\n") + "\n"
    }

    static func choiceVerdict(_ grade: ChoiceGrader.Grade, question: Question, order: [Int], style: TerminalStyle) -> String {
        let shownLetter = { (index: Int) in OptionLetter.letter(order.firstIndex(of: index) ?? index) }
        var text: String
        switch grade.verdict {
        case .right: text = style.green(style.bold("right")) + "\n"
        case .partial: text = style.yellow(style.bold("partly right")) + ": some correct options are missing.\n"
        case .wrong: text = style.red(style.bold("wrong")) + "\n"
        }
        // Letters in the order shown, whatever order the file has the options in.
        let position = { (index: Int) in order.firstIndex(of: index) ?? index }
        text += "Correct: " + grade.correct.sorted { position($0) < position($1) }.map(shownLetter).joined(separator: ", ") + "\n"
        for index in grade.chosen.sorted(by: { position($0) < position($1) }) where !question.options[index].isCorrect {
            text += "  \(shownLetter(index))) is wrong" + (question.options[index].why.map { ": \($0)" } ?? ".") + "\n"
        }
        return text
    }

    static func shortVerdict(_ grade: ShortAnswerGrader.Grade, question: Question, style: TerminalStyle) -> String {
        var text: String
        switch grade.verdict {
        case .right: text = style.green(style.bold("right")) + ": every key idea is there.\n"
        case .partial: text = style.yellow(style.bold("partly right")) + ": \(grade.found.count) of \(grade.found.count + grade.missing.count) key ideas.\n"
        case .wrong: text = style.red(style.bold("wrong")) + ": none of the key ideas.\n"
        }
        // The indentation outside the colour, so that a wrapped idea hangs under its text.
        for idea in grade.found { text += "  " + style.green("✓") + " " + idea.idea + "\n" }
        for idea in grade.missing { text += "  " + style.yellow("·") + " " + idea.idea + "\n" }
        if let answer = question.modelAnswer {
            text += style.bold("A model answer") + "\n" + QuestionRenderer.prose(answer, style: style) + "\n"
        }
        return text
    }

    /// Every option in the order shown, marked: ✓ the right ones, ✗ a wrong one chosen (with why
    /// it is wrong). For the debrief after a mock interview, where the options are off screen.
    static func choiceKey(_ question: Question, order: [Int], chosen: [Int], style: TerminalStyle) -> String {
        order.enumerated().map { position, index in
            let option = question.options[index]
            let letter = OptionLetter.letter(position) + ")"
            let picked = chosen.contains(index)
            let mark = option.isCorrect ? style.green("✓") : picked ? style.red("✗") : " "
            var text = option.text + (picked ? style.dim(" (your choice)") : "")
            if picked && !option.isCorrect, let why = option.why { text += " " + style.dim("Wrong: " + why) }
            return "  \(mark) \(style.bold(letter)) " + style.wrapped(text, firstLineWidth: 7, indent: 7)
        }.joined(separator: "\n") + "\n"
    }

    /// A short question's key ideas and model answer, for the debrief of a question left
    /// without an answer.
    static func shortKey(_ question: Question, style: TerminalStyle) -> String {
        var text = style.bold("The key ideas") + "\n"
        for idea in question.keyIdeas { text += style.wrappedLines("  · " + idea.idea, hanging: 2) + "\n" }
        if let answer = question.modelAnswer {
            text += style.bold("A model answer") + "\n" + QuestionRenderer.prose(answer, style: style) + "\n"
        }
        return text
    }
}
