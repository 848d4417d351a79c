import Foundation

/// The report as one self-contained HTML page: totals, accuracy over the last weeks, retention per
/// topic (inline SVG, no script, no network), an activity calendar, and the table with the command
/// that practises each topic. Laid out to print on one A4 page.
public enum HTMLReport {
    public static func render(_ report: ProgressReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>gcdquiz progress</title>
            <style>
            \(css)
            </style>
            </head>
            <body>
            <h1>gcdquiz progress</h1>
            <p class="generated">Report of \(escape(report.generatedAt.prefix(10).description)) · \(report.answered) answers</p>

            """
        html += summary(report)
        html += "<p class=\"next\"><b>Do this next:</b> <code>\(escape(report.next.command))</code> — \(escape(report.next.why)).</p>\n"
        let studied = report.topics.filter(\.studied)
        let unstudied = report.topics.filter { !$0.studied }
        html += "<div class=\"charts\">\n"
        html += "<section><h2>Accuracy by week, last \(report.weeks.count) weeks</h2>\n" + accuracyChart(report.weeks) + "</section>\n"
        html += "<section><h2>Activity, last \(report.weeks.count) weeks</h2>\n" + calendar(report.activity) + "</section>\n"
        html += "</div>\n"
        html += "<section><h2>Recall per topic studied, weakest first</h2>\n" + retentionChart(studied) + "</section>\n"
        html += "<section><h2>Topics studied, weakest first</h2>\n" + table(studied) + "</section>\n"
        if !unstudied.isEmpty {
            html += "<section><h2>Not studied yet</h2>\n<p class=\"unstudied\">" + unstudied.map {
                "<b>\(escape($0.topic))</b> (\($0.total))"
            }.joined(separator: " · ") + "</p>\n<p class=\"note\"><code>gcdquiz drill --tag TOPIC</code> starts one.</p>\n</section>\n"
        }
        html += "<div class=\"charts\">\n"
        html += "<section><h2>Missed last time</h2>\n" + missedTable(report.missedQuestions) + "</section>\n"
        html += "<section><h2>Mock interviews</h2>\n" + interviewTable(report.interviews) + "</section>\n"
        html += "</div>\n"
        html += """
            <p class="note"><b>recall</b>: how likely each question already seen is answered right today (FSRS-6
            retrievability; a question whose latest answer was wrong counts as not recalled). <b>strength</b>: the
            share of the whole topic recalled today, unseen questions counting as not known. Accuracy counts a right
            answer 1 and a partly right one ½.</p>
            </body>
            </html>

            """
        return html
    }

    static let css = """
        @page { size: A4; margin: 12mm; }
        * { box-sizing: border-box; }
        body { font: 13px/1.4 -apple-system, "Helvetica Neue", "DejaVu Sans", Arial, sans-serif; color: #1d2330;
               max-width: 900px; margin: 24px auto; padding: 0 16px; }
        h1 { font-size: 22px; margin: 0 0 2px; }
        h2 { font-size: 14px; margin: 14px 0 6px; color: #39435a; }
        .generated, .note { color: #5b6478; margin: 0 0 10px; }
        .next { font-size: 14px; margin: 6px 0 10px; padding: 6px 10px; background: #eef3fd; border-radius: 6px; }
        .unstudied { line-height: 1.8; }
        .note { font-size: 11px; margin-top: 10px; }
        .summary { display: flex; gap: 8px; flex-wrap: wrap; margin: 10px 0; }
        .summary div { border: 1px solid #d9dee8; border-radius: 6px; padding: 6px 10px; min-width: 110px; }
        .summary b { display: block; font-size: 18px; }
        .charts { display: flex; gap: 24px; flex-wrap: wrap; }
        .charts section { flex: 1 1 380px; }
        svg { display: block; max-width: 100%; height: auto; }
        svg text { font: 10px -apple-system, "DejaVu Sans", Arial, sans-serif; fill: #39435a; }
        table { border-collapse: collapse; width: 100%; font-size: 12px; }
        th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #e6e9f0; vertical-align: top; }
        th { color: #39435a; font-weight: 600; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        code { font: 11px "DejaVu Sans Mono", Menlo, monospace; white-space: nowrap; }
        td:first-child { white-space: nowrap; }
        @media print {
          body { margin: 0; max-width: none; font-size: 10px; }
          h1 { font-size: 18px; } h2 { margin: 8px 0 4px; }
          section, .summary { break-inside: avoid; }
          .summary { flex-wrap: nowrap; } .summary div { padding: 3px 8px; min-width: 0; flex: 1; } .summary b { font-size: 14px; }
          .charts { gap: 16px; flex-wrap: nowrap; } .charts section { flex: 1 1 0; }
          .charts svg { max-height: 150px; width: auto; }
          svg.retention { width: 82%; }
          table { font-size: 9.5px; } th, td { padding: 1px 5px; } code { font-size: 9px; }
          .covers { display: none; }
        }
        """

    static func summary(_ report: ProgressReport) -> String {
        let cells: [(String, String)] = [
            ("\(report.questionsSeen) / \(report.questionsTotal)", "questions seen"),
            (report.accuracy30Days.map(ProgressReport.percent) ?? "–", "right, last 30 days"),
            ("\(report.dueNow)", report.missedDue > 0 ? "due now, \(report.missedDue) missed last time" : "due now"),
            ("\(report.missed - report.missedDue)", "more missed, due later"),
            ("\(report.newLeftToday)", "new left today"),
            ("\(report.streakDays)-day", "streak"),
        ]
        return "<div class=\"summary\">" + cells.map { "<div><b>\(escape($0.0))</b>\(escape($0.1))</div>" }.joined() + "</div>\n"
    }

    /// Weekly accuracy as a line over bars of answers per week.
    static func accuracyChart(_ weeks: [ProgressReport.Week]) -> String {
        let width = 420.0, height = 170.0, left = 34.0, bottom = 22.0, top = 8.0
        let plotWidth = width - left - 8, plotHeight = height - bottom - top
        let step = plotWidth / Double(max(weeks.count, 1))
        let most = Double(max(weeks.map(\.answered).max() ?? 0, 1))
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\" aria-label=\"Accuracy by week\">\n"
        for level in [0.0, 0.5, 1.0] {
            let y = top + plotHeight * (1 - level)
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(width - 8)\" y2=\"\(y)\" stroke=\"#e6e9f0\"/>"
            svg += "<text x=\"\(left - 4)\" y=\"\(y + 3)\" text-anchor=\"end\">\(Int(level * 100))%</text>\n"
        }
        var points: [String] = []
        for (index, week) in weeks.enumerated() {
            let x = left + step * Double(index)
            let barHeight = plotHeight * Double(week.answered) / most
            svg += "<rect x=\"\(format(x + step * 0.2))\" y=\"\(format(top + plotHeight - barHeight))\" width=\"\(format(step * 0.6))\" height=\"\(format(barHeight))\" fill=\"#dfe6f5\"><title>\(escape(week.start)): \(week.answered) answers</title></rect>"
            if let accuracy = week.accuracy {
                points.append("\(format(x + step / 2)),\(format(top + plotHeight * (1 - accuracy)))")
            }
            if index % 2 == 0 || weeks.count <= 6 {
                svg += "<text x=\"\(format(x + step / 2))\" y=\"\(height - 6)\" text-anchor=\"middle\">\(escape(String(week.start.dropFirst(5))))</text>"
            }
            svg += "\n"
        }
        if !points.isEmpty {
            svg += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#2f6fdf\" stroke-width=\"2\"/>\n"
            for point in points {
                let xy = point.split(separator: ",")
                svg += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"3\" fill=\"#2f6fdf\"/>"
            }
            svg += "\n"
        }
        svg += "</svg>\n<p class=\"note\">Line: share of answers right each week. Bars: answers given (most: \(Int(most))).</p>\n"
        return svg
    }

    /// Per topic: strength (filled) and, for the questions seen, mean recall (a tick).
    static func retentionChart(_ topics: [ProgressReport.TopicLine]) -> String {
        let rowHeight = 18.0, labelWidth = 140.0, barWidth = 480.0, width = labelWidth + barWidth + 120
        let height = rowHeight * Double(topics.count) + 24
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" class=\"retention\" role=\"img\" aria-label=\"Retention per topic\">\n"
        for (index, topic) in topics.enumerated() {
            let y = Double(index) * rowHeight + 4
            svg += "<text x=\"\(labelWidth - 6)\" y=\"\(format(y + 12))\" text-anchor=\"end\">\(escape(topic.topic))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(format(y + 3))\" width=\"\(barWidth)\" height=\"11\" fill=\"#eef1f6\"/>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(format(y + 3))\" width=\"\(format(barWidth * topic.strength))\" height=\"11\" fill=\"\(colour(topic.strength))\"><title>strength \(ProgressReport.percent(topic.strength))</title></rect>"
            if let recall = topic.retrievability {
                let x = labelWidth + barWidth * recall
                svg += "<line x1=\"\(format(x))\" y1=\"\(format(y + 1))\" x2=\"\(format(x))\" y2=\"\(format(y + 16))\" stroke=\"#1d2330\" stroke-width=\"2\"><title>recall \(ProgressReport.percent(recall))</title></line>"
            }
            svg += "<text x=\"\(labelWidth + barWidth + 8)\" y=\"\(format(y + 12))\">\(ProgressReport.percent(topic.strength)) · \(topic.seen)/\(topic.total) seen</text>\n"
        }
        let axis = Double(topics.count) * rowHeight + 18
        for level in [0.0, 0.25, 0.5, 0.75, 1.0] {
            svg += "<text x=\"\(format(labelWidth + barWidth * level))\" y=\"\(format(axis))\" text-anchor=\"middle\">\(Int(level * 100))%</text>"
        }
        svg += "\n</svg>\n<p class=\"note\">Bar: strength. Tick: mean recall of the questions seen.</p>\n"
        return svg
    }

    /// Weeks as columns (the date of each Monday above every other one), days as rows (Mon,
    /// Wed, Fri labelled), shaded by answers. The report's days start on a Monday.
    static func calendar(_ days: [ProgressReport.Day]) -> String {
        let cell = 14.0, gap = 3.0, left = 28.0, top = 16.0
        let weeks = (days.count + 6) / 7
        let width = left + Double(weeks) * (cell + gap) + 4, height = top + 7 * (cell + gap) + 4
        var svg = "<svg viewBox=\"0 0 \(format(width)) \(format(height))\" width=\"\(format(width))\" height=\"\(format(height))\" role=\"img\" aria-label=\"Activity calendar\">\n"
        for (row, name) in [(0, "Mon"), (2, "Wed"), (4, "Fri")] {
            svg += "<text x=\"\(format(left - 4))\" y=\"\(format(top + Double(row) * (cell + gap) + 12))\" text-anchor=\"end\">\(name)</text>"
        }
        for week in stride(from: 0, to: weeks, by: 2) where week * 7 < days.count {
            svg += "<text x=\"\(format(left + Double(week) * (cell + gap)))\" y=\"11\">\(escape(String(days[week * 7].date.dropFirst(5))))</text>"
        }
        svg += "\n"
        for (index, day) in days.enumerated() {
            let x = left + Double(index / 7) * (cell + gap), y = top + Double(index % 7) * (cell + gap)
            let shade = ["#eef1f6", "#c6d6f5", "#8fb0ee", "#4f82e3", "#1f4fb0"][day.intensity]
            svg += "<rect x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(shade)\"><title>\(escape(day.date)): \(day.answered) answers, \(day.right) right</title></rect>"
            if index % 7 == 6 { svg += "\n" }
        }
        svg += "</svg>\n<p class=\"note\">One square a day, a column a week from Monday; darker: more answers. The last column ends today.</p>\n"
        return svg
    }

    static func missedTable(_ missed: [ProgressReport.MissedQuestion]) -> String {
        guard !missed.isEmpty else { return "<p class=\"note\">Nothing: every question's latest answer was right.</p>\n" }
        var html = "<table>\n<tr><th>question</th><th>answered</th><th>grade</th></tr>\n"
        // The latest dozen: the page still prints on one sheet.
        for question in missed.prefix(12) {
            html += "<tr><td><code>\(escape(question.id))</code></td><td>\(escape(question.date))</td><td>\(escape(question.grade.spoken))</td></tr>\n"
        }
        let more = missed.count > 12 ? " (and \(missed.count - 12) more)" : ""
        return html + "</table>\n<p class=\"note\"><code>gcdquiz drill --missed</code> goes over them\(more), with hints and live runs.</p>\n"
    }

    static func interviewTable(_ interviews: [ProgressReport.Interview]) -> String {
        guard !interviews.isEmpty else { return "<p class=\"note\">None in these weeks: <code>gcdquiz interview</code> is a mock interview against the clock.</p>\n" }
        var html = "<table>\n<tr><th>date</th><th>questions</th><th>right</th><th>partly</th><th>wrong</th><th>no answer</th><th>score</th></tr>\n"
        for interview in interviews.prefix(8) {
            html += "<tr><td>\(escape(interview.date))</td><td class=\"n\">\(interview.questions)</td><td class=\"n\">\(interview.right)</td>"
                + "<td class=\"n\">\(interview.partial)</td><td class=\"n\">\(interview.wrong)</td><td class=\"n\">\(interview.noAnswer)</td>"
                + "<td class=\"n\">\(ProgressReport.percent(interview.score))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func table(_ topics: [ProgressReport.TopicLine]) -> String {
        var html = "<table>\n<tr><th>topic</th><th class=\"covers\">covers</th><th>seen</th><th>30 days</th><th>recall</th><th>due</th><th>practise</th></tr>\n"
        for topic in topics {
            html += "<tr><td><b>\(escape(topic.topic))</b></td><td class=\"covers\">\(escape(topic.covers))</td>"
                + "<td class=\"n\">\(topic.seen)/\(topic.total)</td>"
                + "<td class=\"n\">\(topic.accuracy30Days.map(ProgressReport.percent) ?? "–")</td>"
                + "<td class=\"n\">\(topic.retrievability.map(ProgressReport.percent) ?? "–")</td>"
                + "<td class=\"n\">\(topic.due)</td><td><code>\(escape(topic.command))</code></td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func colour(_ strength: Double) -> String {
        strength < 0.34 ? "#e06c5a" : strength < 0.67 ? "#e8b84a" : "#4caf72"
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
