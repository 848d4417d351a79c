import Quiz

/// A question as the learner sees it: title, level, tags, and the code with line numbers.
enum QuestionRenderer {
    /// What a trace puzzle asks.
    static let tracePrompt = "What does it print? Write every possible output, separated by '|' (e.g. 1 2 3 | 2 1 3), ending in 'deadlock' where the run stops."

    /// - Parameter order: a choice question's options in the order shown (`OptionOrder`).
    static func render(_ question: Question, order: [Int], style: TerminalStyle, withExplanation: Bool = false) -> String {
        var text = style.bold(question.title) + "\n"
        text += style.dim("\(question.id) · \(question.kind.rawValue) · level \(question.level) · \(question.tags.joined(separator: ", "))") + "\n\n"
        text += statement(question, order: order, style: style)
        if question.kind == .trace {
            text += style.wrappedLines(tracePrompt, hanging: 0) + "\n"
        }
        if question.kind == .schedule, let goal = question.goal {
            text += style.wrappedLines(style.bold("Goal: ") + goal + " — be the scheduler: 'gcdquiz schedule \(question.id)' (or the drill) plays it.", hanging: 0) + "\n"
        }
        text += style.dim(style.wrapped("Source: \(question.source)", firstLineWidth: 0, indent: 2)) + "\n"
        if withExplanation {
            text += "\n" + style.bold("Why") + "\n" + QuestionRenderer.prose(question.explanation, style: style) + "\n"
        }
        return text
    }

    /// What is asked: the code (with a blank line after it), the question's text, and a choice
    /// question's options lettered in `order` (the drill shuffles them).
    static func statement(_ question: Question, order: [Int], style: TerminalStyle) -> String {
        var text = ""
        if let code = question.code {
            text += numbered(code, style: style) + "\n"
            if let mode = question.mode {
                text += style.wrappedLines(style.dim("Compiled in \(mode) (the answer depends on the language mode)."), hanging: 0) + "\n"
            }
        }
        if let prompt = question.prompt {
            text += prose(prompt, style: style) + "\n"
        } else if question.kind == .line, let code = question.code,
                  let culprits = try? CulpritLines.find(in: code, fileName: question.file).get() {
            text += prose(culprits.defaultPrompt, style: style) + "\n"
        }
        if question.kind == .choice {
            text += InterviewRenderer.options(question, order: order, style: style)
        }
        return text
    }

    /// A question's text, its paragraphs reflowed to the terminal's width, and its fenced code
    /// blocks (```) shown as highlighted, indented code.
    static func prose(_ text: String, style: TerminalStyle) -> String {
        var output: [String] = []
        var code: [String]?
        var paragraph: [String] = []
        func endParagraph() {
            guard !paragraph.isEmpty else { return }
            let indent = paragraph[0].hasPrefix("- ") || paragraph[0].hasPrefix("* ") ? 2 : 0
            output.append(style.wrapped(paragraph.joined(separator: " "), firstLineWidth: 0, indent: indent))
            paragraph = []
        }
        for line in text.trimmingTrailingNewlines().split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if code == nil && !trimmed.hasPrefix("```") {
                // A blank line or a list item starts a new paragraph.
                let number = trimmed.prefix(while: \.isNumber)
                let isNumbered = !number.isEmpty && trimmed.dropFirst(number.count).hasPrefix(". ")
                // So does a line back at the margin after a list item (its continuation lines
                // are indented).
                let leavesList = paragraph.first.map { $0.hasPrefix("- ") || $0.hasPrefix("* ") } == true && line.first?.isWhitespace != true
                if trimmed.isEmpty || trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || isNumbered || leavesList {
                    endParagraph()
                }
                if trimmed.isEmpty { output.append("") } else { paragraph.append(paragraph.isEmpty ? String(line) : trimmed) }
                continue
            }
            endParagraph()
            if trimmed.hasPrefix("```") {
                if let block = code {
                    output += CodeHighlighter.highlight(block.joined(separator: "\n"), style: style)
                        .split(separator: "\n", omittingEmptySubsequences: false).map { style.dim("  │ ") + $0 }
                    code = nil
                } else {
                    code = []
                }
            } else {
                code?.append(String(line))
            }
        }
        endParagraph()
        if let unclosed = code { output += unclosed }
        return output.joined(separator: "\n")
    }

    static func numbered(_ code: String, style: TerminalStyle) -> String {
        var lines = CodeHighlighter.highlight(code, style: style).split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let width = String(lines.count).count
        return lines.enumerated().map { index, line in
            let number = String(index + 1)
            return style.dim(String(repeating: " ", count: width - number.count) + number + " │ ") + line
        }.joined(separator: "\n") + "\n"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }

    func trimmingTrailingNewlines() -> String {
        var copy = self
        while copy.last?.isNewline == true { copy.removeLast() }
        return copy
    }
}
