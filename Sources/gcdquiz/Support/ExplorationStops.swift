import ConcurrencyModel
import Foundation
import Quiz

/// What a command does when the explorer did not see every state. A limit met in the snippet (a
/// loop that runs too often, its bounds known only while running) is the snippet's problem: a
/// diagnostic at its place, exit 1. A budget (states, memory, time) leaves a partial answer:
/// every outcome found can happen, others may too; commands that print outcomes print them
/// marked incomplete and say so on standard error, and exit 0.
enum ExplorationStops {
    /// Throws the snippet's problem when the search met a limit of what gcdquiz explores.
    static func refuseLimits(_ exploration: Exploration, puzzle: Puzzle) throws {
        guard let stop = exploration.stop, case .beyondLimits = stop, let span = stop.span else { return }
        throw ProblemList([puzzle.problem(stop.description, at: span)])
    }

    /// The line on standard error for a partial answer, or nil for a complete one.
    static func budgetNote(_ exploration: Exploration) -> String? {
        guard let stop = exploration.stop else { return nil }
        return "incomplete: \(stop) (--max-seconds, --max-states, --max-memory): the outcomes found can happen, but there may be more" + sizeNote(exploration.program)
    }

    /// Why a budget may not be enough: the snippet makes very many tasks, each interleaved with
    /// all the others.
    static func sizeNote(_ program: Program) -> String {
        let tasks = program.tasksMade
        guard tasks >= 100 else { return "" }
        return "; the snippet makes \(tasks.formatted()) tasks, and every order of their steps is a schedule to explore: far more than any budget covers (the same code with a few tasks answers)"
    }

    /// For a command that cannot work with a partial answer (grading): the snippet's problem,
    /// placed at its first line.
    static func refusePartial(_ exploration: Exploration, puzzle: Puzzle, doing what: String) throws {
        try refuseLimits(exploration, puzzle: puzzle)
        guard let stop = exploration.stop else { return }
        throw ProblemList([puzzle.problem(
            "\(stop) (--max-seconds, --max-states, --max-memory): cannot \(what) against outcomes not all known", at: SourceSpan(line: 1, column: 1))])
    }
}
