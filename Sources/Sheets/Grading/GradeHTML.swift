import Foundation

/// The class report as one self-contained HTML page: the mean, a histogram of the scores, each
/// question's success with its most common wrong answers and the rule each breaks, each topic's
/// mean (inline SVG, no script, no network), and every student's score. Prints on A4.
enum GradeHTML {
    static func render(_ grades: ClassGrades) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8" />
            <title>\(escape(grades.title)) — class report</title>
            <style>
            \(css)
            </style>
            </head>
            <body>
            <h1>\(escape(grades.title)) — class report</h1>
            <div class="summary"><div><b>\(grades.students.count)</b>students</div><div><b>\(GradeFiles.percent(grades.meanPercent))%</b>mean score</div>\
            <div><b>\(grades.questions.count)</b>questions</div></div>
            <div class="charts">
            <section><h2>Scores</h2>
            \(histogram(grades.histogram))</section>
            <section><h2>Topics: mean share of the points</h2>
            \(bars(grades.topics.sorted { $0.mean < $1.mean }.map { ($0.topic, $0.mean) }, width: 400, labelWidth: 150))</section>
            </div>
            <section><h2>Questions: share of the points the class earned</h2>
            \(bars(grades.questions.map { ($0.id, $0.success) }))</section>
            <section><h2>Most common wrong answers</h2>
            \(mistakes(grades))</section>
            <section><h2>Students</h2>
            \(students(grades))</section>
            </body>
            </html>

            """
        html = html.replacingOccurrences(of: "\n\n\n", with: "\n\n")
        return html
    }

    static let css = """
        @page { size: A4; margin: 12mm; }
        * { box-sizing: border-box; }
        body { font: 13px/1.4 "DejaVu Sans", Arial, "Noto Sans CJK SC", sans-serif; color: #1d2330; max-width: 900px; margin: 24px auto; padding: 0 16px; }
        h1 { font-size: 22px; margin: 0 0 8px; }
        h2 { font-size: 14px; margin: 16px 0 6px; color: #39435a; }
        .summary { display: flex; gap: 8px; flex-wrap: wrap; margin: 10px 0; }
        .summary div { border: 1px solid #d9dee8; border-radius: 6px; padding: 6px 10px; min-width: 110px; }
        .summary b { display: block; font-size: 18px; }
        .charts { display: flex; gap: 24px; flex-wrap: wrap; }
        .charts section { flex: 1 1 380px; }
        svg { display: block; max-width: 100%; height: auto; }
        svg text { font: 10px "DejaVu Sans", Arial, sans-serif; fill: #39435a; }
        table { border-collapse: collapse; width: 100%; font-size: 12px; }
        th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #e6e9f0; vertical-align: top; }
        th { color: #39435a; font-weight: 600; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        code { font: 11px "DejaVu Sans Mono", monospace; background: #f2f4f8; padding: 0 3px; }
        .rule { color: #5b6478; }
        """

    /// Ten bars, one per tenth of the scores.
    static func histogram(_ bins: [Int]) -> String {
        let width = 400.0, height = 160.0, left = 24.0, bottom = 20.0
        let top = Double(max(bins.max() ?? 1, 1))
        let barWidth = (width - left) / Double(bins.count)
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"histogram of scores\">"
        svg += "<line x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width)\" y2=\"\(height - bottom)\" stroke=\"#9aa3b5\" />"
        for (index, count) in bins.enumerated() {
            let barHeight = (height - bottom - 14) * Double(count) / top
            let x = left + Double(index) * barWidth
            let y = height - bottom - barHeight
            svg += "<rect x=\"\(fixed(x + 2))\" y=\"\(fixed(y))\" width=\"\(fixed(barWidth - 4))\" height=\"\(fixed(barHeight))\" fill=\"#4a78c2\" />"
            if count > 0 { svg += "<text x=\"\(fixed(x + barWidth / 2))\" y=\"\(fixed(y - 3))\" text-anchor=\"middle\">\(count)</text>" }
            svg += "<text x=\"\(fixed(x + barWidth / 2))\" y=\"\(fixed(height - 6))\" text-anchor=\"middle\">\(index * 10)%</text>"
        }
        return svg + "</svg>\n"
    }

    /// A horizontal bar per row, its share of 100%.
    static func bars(_ rows: [(label: String, share: Double)], width: Double = 600, labelWidth: Double = 230) -> String {
        let rowHeight = 18.0, barSpace = width - labelWidth - 50
        let height = rowHeight * Double(rows.count) + 4
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">"
        for (index, row) in rows.enumerated() {
            let y = Double(index) * rowHeight + 2
            let room = Int(labelWidth / 6)
            let label = row.label.count > room ? String(row.label.prefix(room - 1)) + "…" : row.label
            let share = min(max(row.share, 0), 1)
            let colour = share >= 0.75 ? "#3f9a5a" : share >= 0.5 ? "#c9a227" : "#c2504a"
            svg += "<text x=\"\(fixed(labelWidth - 6))\" y=\"\(fixed(y + 12))\" text-anchor=\"end\">\(escape(label))</text>"
            svg += "<rect x=\"\(fixed(labelWidth))\" y=\"\(fixed(y + 2))\" width=\"\(fixed(barSpace))\" height=\"\(fixed(rowHeight - 6))\" fill=\"#eef1f6\" />"
            svg += "<rect x=\"\(fixed(labelWidth))\" y=\"\(fixed(y + 2))\" width=\"\(fixed(barSpace * share))\" height=\"\(fixed(rowHeight - 6))\" fill=\"\(colour)\" />"
            svg += "<text x=\"\(fixed(labelWidth + barSpace + 6))\" y=\"\(fixed(y + 12))\">\(GradeFiles.percent(100 * share))%</text>"
        }
        return svg + "</svg>\n"
    }

    static func mistakes(_ grades: ClassGrades) -> String {
        var html = "<table><tr><th>question</th><th>wrong answer</th><th class=\"n\">students</th><th>the rule it breaks</th></tr>\n"
        for question in grades.questions {
            for (mistake, count) in question.commonMistakes.prefix(3) {
                html += "<tr><td>\(escape(question.id))</td><td><code>\(escape(mistake.answer))</code></td><td class=\"n\">\(count)</td><td class=\"rule\">\(escape(mistake.rule))</td></tr>\n"
            }
        }
        return html + "</table>\n"
    }

    static func students(_ grades: ClassGrades) -> String {
        var html = "<table><tr><th>name</th><th>id</th><th>variant</th><th class=\"n\">points</th><th class=\"n\">%</th></tr>\n"
        for student in grades.students.sorted(by: { $0.student.name < $1.student.name }) {
            html += "<tr><td>\(escape(student.student.name))</td><td>\(escape(student.student.id))</td><td>\(escape(student.variant.id))</td>"
                + "<td class=\"n\">\(GradeFiles.points(student.points)) / \(student.maxPoints)</td><td class=\"n\">\(GradeFiles.percent(student.percent))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func fixed(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
