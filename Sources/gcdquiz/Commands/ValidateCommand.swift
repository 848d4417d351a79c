import ArgumentParser
import ConcurrencyModel
import Foundation
import Quiz

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check question files: fields, YAML, unique ids, code in the supported subset, explorable schedules.")

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("Question files or folders (default: the whole bank).", valueName: "path"))
    var paths: [String] = []

    func run() throws {
        let roots: [String]
        if paths.isEmpty {
            guard let source = try bank.source() else {
                throw CommandFailure.badInput("no question bank found: pass a path, --bank PATH, or set \(BankLocator.environmentVariable)")
            }
            roots = [source.root]
        } else {
            roots = paths
        }
        let files = BankLoader.questionFiles(roots)
        let loaded = BankLoader.load(paths: roots)
        let problems = BankValidator.validate(loaded)

        Output.write(ProblemRenderer.render(problems, style: .current(for: .standardError)), to: .standardError)
        let errors = problems.filter { $0.severity == .error }
        let badFiles = Set(errors.compactMap { $0.location?.file }).count
        let style = TerminalStyle.current(for: .standardOutput)
        let summary = "\(files.count) file(s): \(loaded.questions.count) question(s) load, \(errors.count) error(s) in \(badFiles) file(s)"
        print(errors.isEmpty ? style.green(summary) : style.red(summary))
        if !errors.isEmpty {
            throw ExitCode(1)
        }
    }
}
