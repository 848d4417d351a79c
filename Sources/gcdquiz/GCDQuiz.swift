import ArgumentParser
import Foundation
import Quiz

/// The root command. Running it bare starts the drill.
struct GCDQuiz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gcdquiz",
        abstract: "A trainer for Apple concurrency (GCD and OperationQueue): predict what a snippet prints, then see every possible outcome and what libdispatch really did.",
        discussion: """
            With no command, starts the drill. Answers are written as printed lines separated by \
            spaces or commas, outcomes separated by '|', and a trailing 'deadlock' when the run \
            stops there: '1 2 3 4 | 2 1 3 4', '1 4 deadlock'.
            """,
        subcommands: [
            DrillCommand.self, ReviewCommand.self, InterviewCommand.self, SolveCommand.self, RunCommand.self, CheckCommand.self, ExplainCommand.self,
            ListCommand.self, ShowCommand.self, TagsCommand.self, ProgressCommand.self, ValidateCommand.self, VerifyCommand.self, BenchmarkCommand.self,
            GenerateCommand.self, SheetCommand.self, ExportCommand.self, ProgressBenchmarkCommand.self, LiveWorkerCommand.self, RecordAnswersCommand.self,
        ],
        defaultSubcommand: DrillCommand.self)
}
