import ArgumentParser
import Foundation
import Progress
import Quiz

struct InterviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interview",
        abstract: "A mock interview: questions across topics rising in level, each against a time limit, then a readiness report.",
        discussion: """
            The time left is shown in the prompt, with a warning 30 and 10 seconds before the end; when \
            the time runs out, what is on the line is graded (nothing counts as no answer). Follow-ups \
            come after their question, as in a real interview. No hints, :explain or :run until the end: \
            then a readiness report, and a debrief going through each question with your answer, the \
            right one and why. The answers are recorded with mode 'interview', so 'gcdquiz drill \
            --missed' goes over what went wrong. Questions answered lately are asked last.
            """)

    @OptionGroup var bank: BankOptions

    @Option(name: .long, help: ArgumentHelp("How many questions (follow-ups come on top).", valueName: "n"))
    var questions = 8

    @Option(name: .long, help: ArgumentHelp("Minutes for the whole interview, shared equally by the questions (default: 2.5 a question).", valueName: "m"))
    var minutes: Double?

    @Option(name: .long, help: ArgumentHelp("Seed for the choice of questions and the order of choice options.", valueName: "s"))
    var seed: UInt64?

    @OptionGroup var recording: RecordingOptions

    func validate() throws {
        if !(1...100).contains(questions) { throw ValidationError("--questions must be between 1 and 100") }
        if let minutes, !(minutes > 0 && minutes <= 600) { throw ValidationError("--minutes must be more than 0 and at most 600") }
    }

    func run() throws {
        let bank = try self.bank.load(compilation: .onDemand)
        let seed = seed ?? UInt64.random(in: 1...UInt64.max)
        let memory = recording.begin(mode: .interview, seed: seed)
        // Questions answered lately (in the drill a minute ago) are asked only when the bank has
        // no other of their level.
        var lastSeen: [String: Date] = [:]
        for state in memory.history.cards.values {
            guard let date = state.lastAnsweredAt else { continue }
            lastSeen[state.key.questionID] = max(lastSeen[state.key.questionID] ?? date, date)
        }
        let chosen = InterviewPlan.questions(from: bank, count: questions, seed: seed, lastSeen: lastSeen)
        guard !chosen.isEmpty else { throw CommandFailure.badInput("the bank has no question to ask") }
        let limit = (minutes ?? 2.5 * Double(chosen.count)) * 60 / Double(chosen.count)
        let session = DrillSession(bank: bank, questions: chosen, seed: seed)
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        let editor = interactive ? EditLineInput(historyPath: DrillCommand.historyPath()) : nil
        InterviewREPL(session: session, input: TimedLineInput(editor: editor), style: .current(for: .standardOutput), limit: limit,
                      memory: memory).run()
    }
}
