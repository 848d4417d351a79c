import ConcurrencyModel

/// How many live runs a puzzle gets: runs that sleep take real time, and a run that hangs is
/// only known to after 100 ms of nothing, so such puzzles get fewer, and the histogram is still
/// ready in time (the drill while the learner types, `generate` for a hundred puzzles).
public enum LiveRunBudget {
    public static let slowPuzzleRuns = 30

    public static func runs(_ requested: Int, for program: Program, exploration: Exploration) -> Int {
        let hangs = exploration.reports.contains { report in
            if case .stuck? = report.deadlock { true } else { false }
        }
        return program.usesTime || hangs ? min(requested, slowPuzzleRuns) : requested
    }
}
