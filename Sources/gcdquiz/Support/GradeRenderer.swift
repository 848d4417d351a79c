import DispatchModel
import Quiz

/// A verdict on a prediction, in words: exact, incomplete (what is missing), or wrong (the first
/// impossible outcome, how far it can go, what could come next, and the rule that forbids it).
/// Lines are wrapped at the terminal's width.
enum GradeRenderer {
    static func render(_ grade: TraceGrade, style: TerminalStyle, showMissing: Bool = true, reasons: Int = 3, rules: Bool = true, moreHint: String? = nil) -> String {
        switch grade.verdict {
        case .exact:
            let count = grade.possible.count
            return style.wrappedLines(style.green(style.bold("exact")) + ": " + (count == 1
                ? "the one possible outcome, and nothing else."
                : "all \(count) possible outcomes, and nothing else.")) + "\n"
        case .incomplete(let missing):
            var text = style.yellow(style.bold("incomplete")) + ": "
            switch grade.right.count {
            case 1: text += "your outcome can happen"
            case 2: text += "both of your outcomes can happen"
            default: text += "all \(grade.right.count) of your outcomes can happen"
            }
            text += ", but \(missing.count) more can too" + (showMissing ? ":" : ".")
            text = style.wrappedLines(text) + "\n"
            if showMissing {
                for outcome in missing {
                    text += "  " + AnswerNotation.render(outcome) + "\n"
                }
            }
            return text
        case .wrong(let why):
            return style.red(style.bold("wrong")) + ": " + impossibility(why, style: style, reasons: reasons, rules: rules, moreHint: moreHint)
        }
    }

    /// Why an outcome cannot happen: where it leaves every schedule, what could come there, and
    /// up to `reasons` reasons, each with its rule.
    /// - Parameter moreHint: where the learner finds the reasons left out, if anywhere.
    static func impossibility(_ why: Impossibility, style: TerminalStyle, reasons: Int = 3, rules: Bool = true, moreHint: String? = nil) -> String {
        var lines = [style.bold(AnswerNotation.render(why.outcome)) + " cannot happen."]
        let next = why.couldComeNext.map(\.description).joined(separator: ", ")
        if why.longestPrefix.isEmpty {
            lines.append("  no schedule starts that way; what can come first: \(next.isEmpty ? "nothing" : next)")
        } else {
            lines.append("  some schedule prints \(style.bold(why.longestPrefix.joined(separator: " "))); what can come next there: \(next.isEmpty ? "nothing" : next)")
        }
        lines.append("  why not \(style.bold(why.wanted.description)):")
        if why.blockers.isEmpty {
            lines.append("    no schedule reaches it.")
        }
        for blocker in why.blockers.prefix(reasons) {
            lines.append("    - \(why.narrator.words(for: blocker))")
            if rules { lines.append("      " + style.dim("rule: \(blocker.rule.statement)")) }
        }
        if why.blockers.count > reasons, let moreHint {
            lines.append("    " + style.dim("(\(why.blockers.count - reasons) more reason(s): \(moreHint))"))
        }
        return style.wrappedLines(lines.joined(separator: "\n")) + "\n"
    }
}
