import ConcurrencyModel
import LiveRun
import Quiz

/// What the drill shows after a trace answer. On a terminal, what fits one screen under the
/// answer: the verdict with its first reason, every outcome beside the prediction and the live
/// runs, one schedule the learner missed in a sentence, and as much of the explanation as there
/// is room for; `:more` shows the rest (every reason, the whole schedule, the whole explanation).
/// Printed to a pipe, everything at once.
struct TraceResult {
    let grade: TraceGrade
    let exploration: Exploration
    let histogram: LiveHistogram?
    let explanation: String
    /// A line under the verdict: practice, or help used before answering.
    let note: String?
    let style: TerminalStyle
    /// False for a question left without an answer (a mock interview's debrief): the outcomes
    /// are shown as the answer, not as what was missed.
    var answered = true

    /// Rows of the outcome table at most, on a terminal; the rest are counted.
    static let maximumRows = 10

    /// The result, fitted to the terminal's height, ending with `footer` (what to do next). When
    /// everything does not fit, the rule under the reason goes first, then table rows (down to
    /// four), then the witness: each is still one `:more` away.
    func screen(footer: String) -> String {
        guard let height = style.height else { return full(footer: footer) }
        // The answer line above and the prompt below stay on screen too.
        let budget = height - 2
        let footerText = style.wrappedLines(style.dim(footer))
        let variants: [(rule: Bool, rows: Int, witness: Bool)] = [
            (true, Self.maximumRows, true), (false, Self.maximumRows, true), (false, 6, true), (false, 4, true), (false, 4, false),
        ]
        var essentials = ""
        for variant in variants {
            essentials = "\n" + verdict(reasons: 1, rules: variant.rule) + noteText + "\n" + table(maxRows: variant.rows) + racesText
                + (variant.witness ? witnessSummary : "")
            if style.screenLines(essentials) + style.screenLines(footerText) + 1 <= budget { break }
        }
        let room = budget - style.screenLines(essentials) - style.screenLines(footerText) - 1
        return essentials + explanationPart(lines: room) + "\n" + footerText + "\n"
    }

    /// Everything the screen left out, for `:more`.
    func more() -> String {
        var text = ""
        if case .wrong = grade.verdict {
            text += verdict(reasons: .max) + "\n"
        }
        if possibleRows > Self.maximumRows {
            text += table(maxRows: nil) + "\n"
        }
        text += racesText
        text += style.bold("Why") + "\n" + QuestionRenderer.prose(explanation, style: style) + "\n"
        text += missedSchedule
        return text
    }

    // MARK: Parts

    private func full(footer: String) -> String {
        whole() + "\n" + style.dim(footer) + "\n"
    }

    /// Everything: the verdict with up to three reasons, every outcome, the explanation and the
    /// schedule of one outcome missed, step by step.
    func whole() -> String {
        var text = "\n" + verdict(reasons: 3) + noteText + "\n" + table(maxRows: nil) + racesText + "\n"
        text += style.bold("Why") + "\n" + QuestionRenderer.prose(explanation, style: style) + "\n"
        text += missedSchedule
        return text
    }

    private func verdict(reasons: Int, rules: Bool = true) -> String {
        guard answered else {
            let count = grade.possible.count
            return style.wrappedLines(style.bold("The answer") + ": " + (count == 1 ? "one possible outcome." : "\(count) possible outcomes.")) + "\n"
        }
        return GradeRenderer.render(grade, exploration: exploration, style: style, showMissing: false, reasons: reasons, rules: rules, moreHint: reasons == .max ? nil : ":more")
    }

    /// How a schedule of an outcome the learner did not give is introduced.
    private var scheduleHeading: String {
        answered ? "A schedule you did not predict" : "A schedule for one of them"
    }

    private var noteText: String {
        note.map { style.wrappedLines(style.dim($0)) + "\n" } ?? ""
    }

    private var racesText: String {
        exploration.races.map { race in
            style.wrappedLines(OutcomeListRenderer.race(race, narrator: exploration.narrator, style: style)) + "\n"
        }.joined()
    }

    private var missed: Outcome? { grade.missing.first }

    /// One missed outcome's schedule in a sentence.
    private var witnessSummary: String {
        guard let missed, let report = exploration.report(for: missed) else { return "" }
        let text = style.bold(scheduleHeading + ", ") + style.bold(AnswerNotation.render(missed)) + ": "
            + ScheduleRenderer.summary(report.witness, narrator: exploration.narrator, style: style) + "."
        return "\n" + style.wrappedLines(text) + "\n"
    }

    /// The same schedule step by step.
    private var missedSchedule: String {
        guard let missed, let report = exploration.report(for: missed) else { return "" }
        return "\n" + style.bold(scheduleHeading + ": ") + AnswerNotation.render(missed) + "\n"
            + ScheduleRenderer.render(report.witness, narrator: exploration.narrator, style: style)
    }

    /// The explanation's first `lines` screen lines, or a pointer to `:more` when it does not fit.
    private func explanationPart(lines room: Int) -> String {
        let prose = QuestionRenderer.prose(explanation, style: style)
        let proseLines = prose.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if room >= proseLines.count + 2 {
            return "\n" + style.bold("Why") + "\n" + prose + "\n"
        }
        guard room >= 4 else { return "\n" + style.dim(":more shows why, and the whole schedule.") + "\n" }
        var shown = Array(proseLines.prefix(room - 3))
        while shown.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { shown.removeLast() }
        return "\n" + style.bold("Why") + "\n" + shown.joined(separator: "\n") + "\n" + style.dim("… :more shows the rest, and the whole schedule.") + "\n"
    }

    // MARK: The outcome table

    private var impossible: [Outcome] {
        grade.predicted.filter { !grade.possible.contains($0) && !grade.elsewhere.contains($0) }
    }

    private var possibleRows: Int { grade.possible.count + grade.elsewhere.count + impossible.count }

    /// "2+ cores", "1 core", "Apple": where an outcome happens, when not on every machine.
    private func shortLabel(_ outcome: Outcome) -> String? {
        guard let label = exploration.label(of: outcome), !label.isEverywhere else { return nil }
        var parts: [String] = []
        if !label.isOnAnyCoreCount {
            parts.append(label.coreRanges.map { range in
                range.max == nil ? "\(range.min)+" : range.min == range.max ? "\(range.min)" : "\(range.min)–\(range.max!)"
            }.joined(separator: ",") + (label.coreRanges.count == 1 && label.coreRanges[0].min == 1 && label.coreRanges[0].max == 1 ? " core" : " cores"))
        }
        if !label.isOnAnyPlatform { parts.append(label.platforms.map(\.name).joined(separator: ", ")) }
        return parts.joined(separator: ", ")
    }

    /// Every possible outcome with what the learner said and what the live runs showed; at most
    /// `maxRows` rows, the predicted and impossible ones first chosen, in the model's order.
    private func table(maxRows: Int?) -> String {
        let possible = grade.possible
        var shownPossible = possible
        if let maxRows, possibleRows > maxRows {
            let room = max(maxRows - 1 - impossible.count, 0)
            let predicted = possible.filter(grade.predicted.contains)
            let missed = possible.filter { !grade.predicted.contains($0) }
            let chosen = Set(predicted.prefix(room) + missed.prefix(max(room - predicted.count, 0)))
            shownPossible = possible.filter(chosen.contains)
        }
        var rows: [(notation: String, mark: String, count: Int?, label: String?)] = []
        func live(_ outcome: Outcome) -> Int? {
            histogram.map { $0.count(of: LiveOutcome(lines: outcome.lines, end: outcome.end == .finished ? .finished : .deadlock)) }
        }
        for outcome in shownPossible {
            let mark = grade.predicted.contains(outcome) ? style.green("✓ you") : answered ? style.yellow("· missed") : style.dim("·")
            rows.append((AnswerNotation.render(outcome), mark, live(outcome), shortLabel(outcome)))
        }
        for outcome in grade.elsewhere {
            rows.append((AnswerNotation.render(outcome), style.cyan("○ you"), live(outcome), shortLabel(outcome)))
        }
        for outcome in impossible {
            rows.append((AnswerNotation.render(outcome), style.red("✗ impossible"), nil, nil))
        }
        let notationWidth = max(rows.map { TerminalColumns.width($0.notation) }.max() ?? 0, 7)
        let labelWidth = rows.compactMap(\.label).map { TerminalColumns.width($0) + 2 }.max() ?? 0
        // Bars shrink to fit the terminal: "  outcome   mark(13) count(6) bar  label".
        let barWidth = style.width.map { min(20, $0 - (2 + notationWidth + 3 + 13 + 6 + labelWidth) - 1) } ?? 20
        let machine = histogram.map { "\(Narrator.count($0.machine.cores ?? 1))" } ?? ""
        let caption = histogram.map { "\($0.runs) runs \($0.engine), \(machine)" }
        let heading = "  " + "outcome".padding(toLength: notationWidth, withPad: " ", startingAt: 0) + "   you          "
        var text = ""
        // The live runs' caption beside its column, or, where that would not fit the terminal (a
        // compiled snippet's "30 runs compiled by swiftc (Swift 6), 2 cores"), on a line above.
        if let caption, let width = style.width, TerminalColumns.width(heading + "live (\(caption))") > width {
            text += style.dim(style.wrappedLines("  live: " + caption)) + "\n"
            text += style.dim(heading + "live") + "\n"
        } else {
            text += style.dim((heading + (caption.map { "live (\($0))" } ?? "")).trimmingTrailingSpaces()) + "\n"
        }
        let largest = histogram?.entries.map(\.count).max() ?? 1
        for row in rows {
            var line = "  " + TerminalColumns.padded(row.notation, to: notationWidth) + "   "
            line += row.mark + String(repeating: " ", count: max(0, 13 - TerminalStyle.visibleLength(row.mark)))
            if let count = row.count {
                line += String(format: "%5d", count)
                if barWidth >= 4 {
                    let bar = HistogramRenderer.bar(count, of: largest, width: barWidth)
                    line += " " + style.cyan(bar) + String(repeating: " ", count: max(0, barWidth - bar.count))
                }
            }
            if let label = row.label { line += "  " + style.dim(label) }
            text += line.trimmingTrailingSpaces() + "\n"
        }
        let hidden = possible.count - shownPossible.count
        if hidden > 0 {
            text += style.dim("  … \(hidden) more possible outcome(s): :more lists every one") + "\n"
        }
        if let histogram {
            for row in LiveComparison(histogram: histogram, exploration: exploration).unexpected {
                let entry = row.entry
                text += "  " + style.red(style.bold("UNEXPECTED live outcome: \(entry.outcome.lines.joined(separator: " ")) \(entry.outcome.end.rawValue) ×\(entry.count)")) + "\n"
            }
        }
        return text
    }
}
