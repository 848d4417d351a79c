import ArgumentParser
import ConcurrencyModel
import Foundation
import Quiz

struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Be the scheduler: pick each thread's next step, each queue's next item, each timer, to reach a goal.",
        discussion: """
            A full-screen view of the snippet with each thread's next statement marked, what every \
            thread waits for, what every queue holds, the timers, the clock and the output so far. \
            Keys: a move's number, u undo, r restart, h hint (the move that keeps the goal \
            reachable), g a new goal, q quit. When standard input or output is not a terminal, \
            commands are read a line at a time (e.g. '1 2 1', 'h', 'g 2 1 4 3', 'q') and the \
            screen is printed after each line.
            """)

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, or a .swift / .yaml file.", valueName: "id|file"))
    var target: String

    @Option(name: .long, help: ArgumentHelp(
        "What to make the snippet do: an outcome in the answer notation (2 1 4 3, 1 deadlock), or deadlock, crash or race (default: a schedule question's own goal, else none).",
        valueName: "goal"))
    var goal: String?

    @OptionGroup var machine: MachineOptions

    @OptionGroup var budgets: ExplorationOptions

    func run() throws {
        let puzzle = try PuzzleResolver.resolve(target, bank: bank.source())
        let exploration = budgets.explorer.explore(puzzle.program, for: machine.machine)
        try ExplorationStops.refuseLimits(exploration, puzzle: puzzle)
        if let stop = exploration.stop {
            Output.write("gcdquiz: \(stop): the moves are the model's, but it cannot say whether a goal is still reachable (no hints)\n", to: .standardError)
        }
        let goalText = goal ?? puzzle.question?.goal
        var goal: PlayGoal?
        if let goalText {
            do {
                goal = try ScheduleGoal.read(goalText, printable: PrintableLines(exploration: exploration))
            } catch {
                throw CommandFailure.badInput("unreadable goal \(AnswerError.excerpt(goalText)): \(error.message); write an outcome (2 1 4 3, 1 deadlock), deadlock, crash or race")
            }
        }
        let seat = ScheduleSeat(title: puzzle.name, code: puzzle.code, play: Playthrough(exploration: exploration, goal: goal),
                                style: .current(for: .standardOutput))
        if !seat.runAtTerminal() { seat.runReadingLines() }
        print(seat.summary)
    }
}
