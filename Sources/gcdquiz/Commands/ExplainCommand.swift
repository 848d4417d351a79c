import ArgumentParser
import ConcurrencyModel
import Foundation
import Quiz

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show a schedule that produces an outcome, or why no schedule can.",
        discussion: """
            Without --outcome, shows one schedule for every possible outcome. With --step, the \
            schedule of one outcome is replayed in the scheduler's seat (see 'gcdquiz schedule'): \
            Enter takes its next move, u goes back, a move's number leaves it for another; for an \
            outcome no schedule produces, it goes as far along it as any schedule does and says \
            why it cannot go on. Not at a terminal, every screen of the replay is printed.
            """)

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, or a .swift / .yaml file.", valueName: "id|file"))
    var target: String

    @Option(name: .long, help: ArgumentHelp("The outcome(s) to explain, in the answer notation.", valueName: "answer"))
    var outcome: String?

    @Flag(name: .long, help: "Replay the schedule of --outcome move by move, in the scheduler's seat.")
    var step = false

    @OptionGroup var machine: MachineOptions

    @OptionGroup var languageMode: ModeOptions

    @OptionGroup var budgets: ExplorationOptions

    func validate() throws {
        if step && outcome == nil { throw ValidationError("--step replays the schedule of one outcome: give --outcome ANSWER") }
    }

    func run() throws {
        let puzzle = try PuzzleResolver.resolve(target, bank: bank.source(), mode: languageMode.mode)
        let exploration = budgets.explorer.explore(puzzle.program, for: machine.machine)
        try ExplorationStops.refusePartial(exploration, puzzle: puzzle, doing: "explain")
        let style = TerminalStyle.current(for: .standardOutput)
        let grader = TraceGrader(exploration: exploration)
        let outcomes: [Outcome]
        if let outcome {
            do {
                outcomes = try grader.read(outcome)
            } catch {
                throw CommandFailure.badInput("unreadable outcome \(AnswerError.excerpt(outcome)): \(error)")
            }
        } else if exploration.isListed {
            outcomes = exploration.outcomes
        } else {
            throw CommandFailure.badInput("\(OutcomeListRenderer.grouped(exploration.outcomeCount)) outcomes are too many to explain one by one: give --outcome ANSWER")
        }
        if step {
            guard outcomes.count == 1, let outcome = outcomes.first else {
                throw CommandFailure.badInput("--step replays one outcome at a time, and \(AnswerError.excerpt(self.outcome ?? "")) holds \(outcomes.count)")
            }
            let seat = ScheduleSeat(title: puzzle.name, code: puzzle.code, play: Playthrough(exploration: exploration, goal: .outcome(outcome)),
                                    script: Playthrough.script(towards: outcome, in: exploration), style: style)
            if !seat.runAtTerminal() { seat.printReplay() }
            return
        }
        print(ExplanationRenderer.render(outcomes, exploration: exploration, style: style), terminator: "")
    }
}

/// For each outcome: a witness schedule, or the reasons none exists.
enum ExplanationRenderer {
    static func render(_ outcomes: [Outcome], exploration: Exploration, style: TerminalStyle) -> String {
        let explainer = Explainer(exploration: exploration)
        var text = ""
        for (index, outcome) in outcomes.enumerated() {
            if index > 0 { text += "\n" }
            switch explainer.explain(outcome) {
            case .possible(let report):
                let label = exploration.narrator.words(for: report.machines).map { " (it \($0))" } ?? ""
                text += style.bold(AnswerNotation.render(outcome)) + " can happen \(exploration.narrator.machinePhrase(exploration))\(label), for example:\n"
                text += ScheduleRenderer.render(report.witness, narrator: exploration.narrator, style: style)
                // The witness's own last step names the trap as it replayed (its threads numbered as
                // the run numbered them); the graph's node may name an equivalent state's.
                let replayed: DeadlockReason? = switch report.witness.last?.event {
                case .crashes(let reason)?, .traps(let reason)?: reason
                default: nil
                }
                if let reason = replayed ?? report.deadlock {
                    text += style.dim("  then: \(exploration.narrator.words(for: reason))") + "\n"
                }
            case .impossible(let why):
                text += GradeRenderer.impossibility(why, style: style)
                if let elsewhere = exploration.reportElsewhere(for: outcome) {
                    let label = exploration.narrator.words(for: elsewhere.machines) ?? "on another machine"
                    text += style.wrappedLines("  " + style.cyan("On another machine it can: it \(label) (explain --cores N shows a schedule).")) + "\n"
                }
                if !why.longestPrefix.isEmpty {
                    text += style.dim("  a schedule that prints \(why.longestPrefix.joined(separator: " ")):") + "\n"
                    text += ScheduleRenderer.render(why.witnessToPrefix, narrator: why.narrator, style: style, indent: "    ")
                }
            }
        }
        return text
    }
}
