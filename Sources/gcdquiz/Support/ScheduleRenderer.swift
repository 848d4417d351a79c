import DispatchModel

/// A witness schedule as a numbered table: which thread did what, on which queue, at which line.
enum ScheduleRenderer {
    static func render(_ steps: [ScheduleStep], style: TerminalStyle, indent: String = "  ") -> String {
        guard !steps.isEmpty else { return indent + style.dim("(no step: nothing runs)") + "\n" }
        let who = steps.map { step in step.thread + (step.queue.map { " on \($0)" } ?? "") }
        let whoWidth = who.map(\.count).max() ?? 0
        let numberWidth = String(steps.count).count
        var text = ""
        for (index, step) in steps.enumerated() {
            let number = String(index + 1)
            let padded = String(repeating: " ", count: numberWidth - number.count) + number
            let action: String
            if case .printed(let line) = step.event {
                action = "prints " + style.bold(line)
            } else if case .traps = step.event {
                action = style.red(step.action)
            } else {
                action = step.action
            }
            let place = step.span.map { style.dim("  (line \($0.line))") } ?? ""
            text += "\(indent)\(style.dim(padded + ".")) \(who[index].padding(toLength: whoWidth, withPad: " ", startingAt: 0))  \(action)\(place)\n"
        }
        return text
    }
}
