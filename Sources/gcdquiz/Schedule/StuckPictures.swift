import ConcurrencyModel
import LiveRun
import Quiz

/// `run --stuck`: each stuck outcome seen live, as the scheduler's seat shows the state it
/// stuck in. A live run reports what held it in words; the picture is the model's state on the
/// machine the runs ran on, after a schedule that prints the same lines and ends the same way
/// (the one `explain --outcome … --step` replays), which names the same waits as the run's books.
enum StuckPictures {
    static func render(_ comparison: LiveComparison, exploration: Exploration, name: String, code: String, style: TerminalStyle) -> String {
        let width = style.width ?? 80
        var text = ""
        for row in comparison.rows where row.isExpected {
            guard let outcome = row.entry.outcome.modelOutcome, outcome.end == .deadlock else { continue }
            let runs = row.entry.count == 1 ? "1 run" : "\(row.entry.count) runs"
            text += "\n" + style.wrappedLines(style.bold("Stuck: " + LiveNotation.render(row.entry.outcome, ending: true)) + " (\(runs))", hanging: 2) + "\n"
            if let reason = row.entry.reason {
                text += style.wrappedLines(style.dim("  the live run's report: " + reason), hanging: 4) + "\n"
            }
            guard let play = Playthrough.replaying(Playthrough.script(towards: outcome, in: exploration), exploration: exploration,
                                                   goal: .outcome(outcome)), case .reached = play.status
            else { continue }
            text += style.wrappedLines(style.dim("  the model's state when a run prints these lines and stops there:"), hanging: 4) + "\n"
            let screen = ScheduleScreen(title: name, code: code, play: play, mode: .still)
            text += screen.lines(width: width, height: .max).map { ScheduleSeat.paint($0, style: style) }.joined(separator: "\n") + "\n"
        }
        return text
    }
}
