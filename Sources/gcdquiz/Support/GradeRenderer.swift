import ConcurrencyModel
import Quiz

/// A verdict on a prediction, in words: exact, incomplete (what is missing), or wrong (the first
/// impossible outcome, how far it can go, what could come next, and the rule that forbids it).
/// Lines are wrapped at the terminal's width.
enum GradeRenderer {
    static func render(_ grade: TraceGrade, exploration: Exploration, style: TerminalStyle, showMissing: Bool = true, reasons: Int = 3,
                       rules: Bool = true, moreHint: String? = nil) -> String {
        let verdict: String
        switch grade.verdict {
        case .exact:
            let count = grade.possibleCount
            verdict = style.wrappedLines(style.green(style.bold("exact")) + ": " + (count == 1
                ? "the one possible outcome, and nothing else."
                : "all \(OutcomeListRenderer.grouped(count)) possible outcomes, and nothing else.")) + "\n"
        case .incomplete(let missing):
            var text = style.yellow(style.bold("incomplete")) + ": "
            switch grade.right.count {
            case 0: text += "none of your outcomes is one of them"
            case 1: text += "your outcome can happen"
            case 2: text += "both of your outcomes can happen"
            default: text += "all \(grade.right.count) of your outcomes can happen"
            }
            let listed = showMissing && !missing.isEmpty
            text += ", but \(OutcomeListRenderer.grouped(grade.missingCount)) more can too" + (listed ? ":" : ".")
            text = style.wrappedLines(text) + "\n"
            if listed {
                for outcome in missing {
                    text += "  " + AnswerNotation.render(outcome) + "\n"
                }
            }
            verdict = text
        case .wrong(let why):
            verdict = impossibility(why, style: style, reasons: reasons, rules: rules, moreHint: moreHint, lead: style.red(style.bold("wrong")) + ": ")
        }
        return verdict + elsewhere(grade, exploration: exploration, style: style)
    }

    /// Predicted outcomes only other machines show: right for them, left out of the verdict.
    static func elsewhere(_ grade: TraceGrade, exploration: Exploration, style: TerminalStyle) -> String {
        grade.elsewhere.map { outcome in
            let label = exploration.label(of: outcome).flatMap(exploration.narrator.words(for:)) ?? "only on another machine"
            return style.wrappedLines(style.dim("\(AnswerNotation.render(outcome)) can happen \(label.replacingOccurrences(of: "needs", with: "with")), "
                + "not \(exploration.narrator.machinePhrase(exploration)): not counted either way.")) + "\n"
        }.joined()
    }

    /// Why an outcome cannot happen: where it leaves every schedule, what could come there, and
    /// up to `reasons` reasons, each with its rule.
    /// - Parameter moreHint: where the learner finds the reasons left out, if anywhere.
    /// - Parameter lead: words before the first line ("wrong: "), wrapped with it so that a long
    ///   outcome still fits the terminal.
    static func impossibility(_ why: Impossibility, style: TerminalStyle, reasons: Int = 3, rules: Bool = true, moreHint: String? = nil,
                              lead: String = "") -> String {
        var lines = [lead + style.bold(AnswerNotation.render(why.outcome)) + " cannot happen."]
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
