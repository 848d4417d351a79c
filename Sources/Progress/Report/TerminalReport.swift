import Foundation

/// The report for a terminal at 80 columns: totals, an activity line (one mark a day) and a
/// per-topic table with a bar, weakest first. Unicode blocks, or plain ASCII for a terminal that
/// cannot show them (`TERM=dumb`, `NO_COLOR`).
public enum TerminalReport {
    public struct Style: Sendable {
        /// Unicode block characters; plain ASCII otherwise.
        public var unicode: Bool
        /// Bold headings (escape codes).
        public var bold: Bool

        public init(unicode: Bool, bold: Bool) {
            self.unicode = unicode
            self.bold = bold
        }
    }

    public static func render(_ report: ProgressReport, style: Style) -> String {
        func heading(_ text: String) -> String { style.bold ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
        let dot = style.unicode ? " · " : ", "
        var text = ""
        if report.answered == 0 {
            text += "No answers recorded yet: \(report.questionsTotal) questions wait. Start with 'gcdquiz'.\n"
            return text
        }
        // At most 23 lines for 17 topics: the whole report stays on a 24-line terminal.
        var totals = ["\(report.answered) answers", "\(report.questionsSeen) of \(report.questionsTotal) questions seen"]
        var due = "\(report.dueNow) due now"
        if report.missedDue > 0 { due += report.missedDue == report.dueNow ? " (missed last time)" : " (\(report.missedDue) missed last time)" }
        totals.append(due)
        // A question missed last time and due now is counted once, among the due ones.
        if report.missed > report.missedDue { totals.append("\(report.missed - report.missedDue) more missed, due later") }
        if let accuracy = report.accuracy30Days { totals.append("last 30 days \(ProgressReport.percent(accuracy)) right") }
        totals.append(report.streakDays == 1 ? "streak 1 day" : "streak \(report.streakDays) days")
        totals.append("\(report.newLeftToday) new left today")
        text += fill(heading("Progress") + ": ", totals, separator: dot, width: 80, indent: 2, headingWidth: 10)

        text += heading("Activity") + "  " + activityLine(report.activity, style: style) + " today\n"
        let marks = activityMarks(style)
        text += "          one mark a day from Monday \(report.activity.first?.date ?? "?"): "
            + "\(marks[0]) none \(marks[1]) 1-2 \(marks[2]) 3-5 \(marks[3]) 6-9 \(marks[4]) 10+\n"

        let studied = report.topics.filter(\.studied)
        let nameWidth = max(studied.map(\.topic.count).max() ?? 5, 5)
        if !studied.isEmpty {
            let header = "Studied".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + "   seen  30 days  recall  due  strength"
            text += heading(header) + "\n"
        }
        for line in studied {
            let seen = "\(line.seen)/\(line.total)"
            text += line.topic.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + pad(seen, 7) + pad(line.accuracy30Days.map(ProgressReport.percent) ?? "-", 9) + pad(line.retrievability.map(ProgressReport.percent) ?? "-", 8)
                + pad(String(line.due), 5) + "  " + bar(line.strength, width: 16, style: style) + "\n"
        }
        let unstudied = report.topics.filter { !$0.studied }.map(\.topic)
        if !unstudied.isEmpty {
            text += fill(heading("Not studied yet") + ": ", unstudied, separator: ", ", width: 80, indent: 2, headingWidth: 17)
        }
        text += fill(heading("Next") + ": ", (report.next.command + (style.unicode ? " — " : " - ") + report.next.why + ".").split(separator: " ").map(String.init),
                     separator: " ", width: 80, indent: 6, headingWidth: 6)
        return text
    }

    /// `items` after `heading`, joined by `separator`, as many a line as fit `width`;
    /// continuation lines are indented by `indent`. `headingWidth`: the heading's visible width.
    static func fill(_ heading: String, _ items: [String], separator: String, width: Int, indent: Int, headingWidth: Int) -> String {
        var lines: [String] = []
        var line = heading
        var used = headingWidth
        var ending = separator
        while ending.last == " " { ending.removeLast() }
        for (index, item) in items.enumerated() {
            let joiner = index == 0 ? "" : separator
            // Room for the separator that ends the line, should the next item not fit.
            let reserve = index < items.count - 1 ? ending.count : 0
            if index > 0 && used + joiner.count + item.count + reserve > width {
                lines.append(line + ending)
                line = String(repeating: " ", count: indent) + item
                used = indent + item.count
            } else {
                line += joiner + item
                used += joiner.count + item.count
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// One mark a day, a space between weeks.
    /// No answer, 1–2, 3–5, 6–9, 10 or more.
    static func activityMarks(_ style: Style) -> [String] {
        style.unicode ? ["·", "░", "▒", "▓", "█"] : [".", ":", "+", "*", "#"]
    }

    static func activityLine(_ days: [ProgressReport.Day], style: Style) -> String {
        let marks = activityMarks(style)
        var line = ""
        for (index, day) in days.enumerated() {
            if index > 0 && index % 7 == 0 { line += " " }
            line += marks[day.intensity]
        }
        return line
    }

    /// A bar `width` columns wide, filled to `fraction`, in eighths with Unicode.
    static func bar(_ fraction: Double, width: Int, style: Style) -> String {
        let clamped = min(max(fraction, 0), 1)
        guard style.unicode else {
            let filled = Int((clamped * Double(width)).rounded())
            return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        }
        let eighths = Int((clamped * Double(width * 8)).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        let full = String(repeating: "█", count: eighths / 8)
        let used = eighths / 8 + (partial.isEmpty ? 0 : 1)
        return "▕" + full + partial + String(repeating: " ", count: width - used) + "▏"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(width - text.count, 0)) + text
    }
}
