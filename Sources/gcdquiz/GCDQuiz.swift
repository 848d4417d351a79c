import ArgumentParser
import Foundation
import Quiz

/// The root command. Until the drill lands, running it bare prints the bank and how to use it.
struct GCDQuiz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gcdquiz",
        abstract: "A trainer for Apple concurrency (GCD and OperationQueue): predict what a snippet prints, then see every possible outcome.",
        discussion: """
            Answers are written as printed lines separated by spaces or commas, outcomes \
            separated by '|', and a trailing 'deadlock' when the run stops there: \
            '1 2 3 4 | 2 1 3 4', '1 4 deadlock'.
            """,
        subcommands: [
            SolveCommand.self, RunCommand.self, CheckCommand.self, ExplainCommand.self, ListCommand.self, ShowCommand.self, ValidateCommand.self,
            BenchmarkCommand.self, LiveWorkerCommand.self,
        ])

    @OptionGroup var bank: BankOptions

    func run() throws {
        let bank = try self.bank.load()
        var output = ""
        output += "gcdquiz: \(bank.questions.count) questions in \(bank.root)"
        if !bank.problems.isEmpty {
            output += " (\(bank.problems.count) problem(s): run 'gcdquiz validate')"
        }
        output += "\n\n"
        output += QuestionTable.render(bank.questions, style: .current(for: .standardOutput))
        output += """

            Try:
              gcdquiz show ID          read a puzzle
              gcdquiz solve ID         every output it can produce (--json for scripts)
              gcdquiz solve FILE.swift the same for your own snippet, written against the prelude
              gcdquiz list --tag T     filter the bank (also --level N)
              gcdquiz validate         check the question files
              gcdquiz --help           everything else

            """
        print(output, terminator: "")
    }
}
