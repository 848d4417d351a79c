import DispatchModel
import Quiz

/// A verdict on a prediction, in words: exact, incomplete (what is missing), or wrong (the first
/// impossible outcome, how far it can go, what could come next, and the rule that forbids it).
enum GradeRenderer {
    static func render(_ grade: TraceGrade, style: TerminalStyle, showMissing: Bool = true) -> String {
        switch grade.verdict {
        case .exact:
            let count = grade.possible.count
            return style.green(style.bold("exact")) + ": " + (count == 1
                ? "the one possible outcome, and nothing else."
                : "all \(count) possible outcomes, and nothing else.") + "\n"
        case .incomplete(let missing):
            var text = style.yellow(style.bold("incomplete")) + ": "
            switch grade.right.count {
            case 1: text += "your outcome can happen"
            case 2: text += "both of your outcomes can happen"
            default: text += "all \(grade.right.count) of your outcomes can happen"
            }
            text += ", but \(missing.count) more can too" + (showMissing ? ":" : ".") + "\n"
            if showMissing {
                for outcome in missing {
                    text += "  " + AnswerNotation.render(outcome) + "\n"
                }
            }
            return text
        case .wrong(let why):
            return style.red(style.bold("wrong")) + ": " + impossibility(why, style: style)
        }
    }

    static func impossibility(_ why: Impossibility, style: TerminalStyle) -> String {
        var text = style.bold(AnswerNotation.render(why.outcome)) + " cannot happen.\n"
        if why.longestPrefix.isEmpty {
            text += "  no schedule starts that way.\n"
        } else {
            text += "  some schedule prints \(style.bold(why.longestPrefix.joined(separator: " "))), but then:\n"
        }
        let next = why.couldComeNext.map(\.description).joined(separator: ", ")
        text += "  what can come next there: \(next.isEmpty ? "nothing" : next)\n"
        text += "  why not \(style.bold(why.wanted.description)):\n"
        if why.blockers.isEmpty {
            text += "    no schedule reaches it.\n"
        }
        for blocker in why.blockers.prefix(3) {
            text += "    - \(blocker.detail)\n"
            text += style.dim("      rule: \(blocker.rule.statement)") + "\n"
        }
        return text
    }
}
