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

    func run() throws {
        let question = try PuzzleResolver.question(id, in: bank.loadIfPresent())
        let style = TerminalStyle.current(for: .standardOutput)
        print(QuestionRenderer.render(question, style: style, withExplanation: explanation), terminator: "")
    }
}
