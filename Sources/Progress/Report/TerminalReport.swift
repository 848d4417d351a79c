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
        // 23 lines for 17 topics: the whole report stays on a 24-line terminal.
        text += heading("Progress") + ": \(report.answered) answers\(dot)\(report.questionsSeen) of \(report.questionsTotal) questions seen"
            + "\(dot)\(report.dueNow) due now\(dot)\(report.missed) missed\n"
        var second: [String] = []
        if let accuracy = report.accuracy30Days { second.append("last 30 days \(ProgressReport.percent(accuracy)) right") }
        second.append("streak \(report.streakDays) day" + (report.streakDays == 1 ? "" : "s"))
        second.append("\(report.newLeftToday) new left today")
        text += "  " + second.joined(separator: dot) + "\n"

        text += heading("Activity") + "  " + activityLine(report.activity, style: style) + " today\n"
        let marks = activityMarks(style)
        text += "          one mark a day since \(report.activity.first?.date ?? "?"): "
            + "\(marks[0]) none \(marks[1]) 1-2 \(marks[2]) 3-5 \(marks[3]) 6-9 \(marks[4]) 10+\n"

        let nameWidth = max(report.topics.map(\.topic.count).max() ?? 5, 5)
        let header = "Topic".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            + "   seen  30 days  recall  due  strength"
        text += heading(header) + "\n"
        for line in report.topics {
            let seen = "\(line.seen)/\(line.total)"
            text += line.topic.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + pad(seen, 7) + pad(line.accuracy30Days.map(ProgressReport.percent) ?? "-", 9) + pad(line.retrievability.map(ProgressReport.percent) ?? "-", 8)
                + pad(String(line.due), 5) + "  " + bar(line.strength, width: 16, style: style) + "\n"
        }
        if let weakest = report.topics.first {
            text += "Weakest first; practise the weakest: \(weakest.command)\n"
        }
        return text
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
