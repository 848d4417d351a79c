import ArgumentParser
import Foundation
import Quiz

/// The root command. Running it bare starts the drill.
struct GCDQuiz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gcdquiz",
        abstract: "A trainer for Apple concurrency (GCD, OperationQueue and Swift concurrency): predict what a snippet prints, then see every possible outcome and what the real runtime did.",
        discussion: """
            With no command, starts the drill. Answers are written as printed lines separated by \
            spaces or commas, outcomes separated by '|', and a trailing 'deadlock' when the run \
            stops there: '1 2 3 4 | 2 1 3 4', '1 4 deadlock'.
            """,
        subcommands: [
            DrillCommand.self, ReviewCommand.self, InterviewCommand.self, SolveCommand.self, RunCommand.self, CheckCommand.self, ExplainCommand.self, ScheduleCommand.self,
            ListCommand.self, ShowCommand.self, TagsCommand.self, ProgressCommand.self, ValidateCommand.self, VerifyCommand.self, BenchmarkCommand.self,
            GenerateCommand.self, SheetCommand.self, ExportCommand.self, GradeCommand.self, ProgressBenchmarkCommand.self, LiveWorkerCommand.self, RecordAnswersCommand.self,
        ],
        defaultSubcommand: DrillCommand.self)
}

extension GCDQuiz {
    /// Commands parsed by themselves alone: `solve`, which scripts call in a loop, and
    /// `progress`, a report that should come at once.
    static let parsedAlone: [ParsableCommand.Type] = [SolveCommand.self, ProgressCommand.self]

    /// The command line parsed into its command. A command of `parsedAlone` is parsed by its own
    /// command alone: the root's parse builds the argument set of the default subcommand and of
    /// the one it matches through reflection, and each new type it reflects costs the Swift
    /// runtime a scan of every protocol conformance in the binary (swift-syntax's thousands among
    /// them), a third of a solve's time. Anything such a command cannot parse alone (help, an
    /// error) goes through the root, so messages and usage stay the root's.
    static func parseCommandLine(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) throws -> ParsableCommand {
        if let name = arguments.first, let command = parsedAlone.first(where: { $0.configuration.commandName == name }),
            let parsed = try? command.parse(Array(arguments.dropFirst()))
        {
            return parsed
        }
        return try parseAsRoot(arguments)
    }
}
