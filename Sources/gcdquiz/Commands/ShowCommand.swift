import ArgumentParser
import Foundation
import Quiz

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a question as the learner sees it (no answer).")

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, or a question .yaml file.", valueName: "id"))
    var id: String

    @Flag(name: .long, help: "Also print the explanation.")
    var explanation = false

    @Option(name: .long, help: ArgumentHelp("Choice questions: letter the options as a drill with --seed S does (the order never depends on which are right).", valueName: "s"))
    var seed: UInt64?

    func run() throws {
        let question = try PuzzleResolver.question(id, bank: bank.source())
        let style = TerminalStyle.current(for: .standardOutput)
        let order = OptionOrder.shuffled(question, seed: seed ?? OptionOrder.defaultSeed)
        print(QuestionRenderer.render(question, order: order, style: style, withExplanation: explanation), terminator: "")
    }
}
