import ArgumentParser
import Foundation
import Progress
import Quiz

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "The questions due now (most overdue first), then new ones up to --new a day; every answer is recorded.",
        discussion: """
            What is due comes from the recorded answers (FSRS-6): a question answered wrongly comes \
            back after ten minutes, one answered right after days, longer each time. A question skipped \
            with :skip comes back at the end of the session, and in the next one.
            """)

    @OptionGroup var bank: BankOptions

    @Option(name: .long, help: ArgumentHelp("New questions a day, after the due ones.", valueName: "n"))
    var new = 10

    @Option(name: .long, help: ArgumentHelp("Seed for the order of choice options and the live runs' jitter.", valueName: "s"))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("Live runs per puzzle, started while you type (0: none).", valueName: "n"))
    var liveRuns = 300

    @Option(name: .long, help: ArgumentHelp("Fresh variants of puzzles you have mastered, asked after the rest (0: none).", valueName: "n"))
    var variants = 2

    @OptionGroup var recording: RecordingOptions

    func validate() throws {
        if new < 0 { throw ValidationError("--new must be 0 or more") }
        if !(0...20).contains(variants) { throw ValidationError("--variants must be between 0 and 20") }
        if !(0...100_000).contains(liveRuns) { throw ValidationError("--live-runs must be between 0 and 100000") }
    }

    func run() throws {
        let bank = try self.bank.load(compilation: .onDemand)
        let seed = seed ?? UInt64.random(in: 1...UInt64.max)
        let memory = recording.begin(mode: .review, seed: seed)
        let plan = SessionPlan(bank: bank, history: memory.history, newPerDay: new).plan
        // Generated puzzles due come back from their kept code; a mastered puzzle is asked afresh, as a variant.
        let dueGenerated = plan.dueGenerated.map(GeneratedQuestions.question)
        let fresh = GeneratedQuestions.variantsOfMastered(bank: bank, history: memory.history, count: variants, seed: seed)
        let questions = plan.due + dueGenerated + plan.new + fresh
        guard !questions.isEmpty else {
            print("Nothing is due now, and no new question is left for today (--new \(new)). 'gcdquiz progress' shows where you stand.")
            return
        }
        let session = DrillSession(bank: bank, questions: questions, seed: seed)
        var greeting = "Review: \(plan.due.count + dueGenerated.count) due now, then \(plan.new.count) new"
        greeting += fresh.isEmpty ? "." : " and \(fresh.count) fresh variant(s) of puzzles you have mastered."
        DrillCommand.repl(session: session, liveRuns: liveRuns, memory: memory, greeting: greeting).run()
    }
}
