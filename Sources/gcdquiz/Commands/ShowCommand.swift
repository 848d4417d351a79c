import ArgumentParser
import Foundation
import Quiz

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a question as the learner sees it (no answer).")

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, a question .yaml file, or a .swift snippet.", valueName: "id|file"))
    var id: String

    @Flag(name: .long, help: "Also print the explanation.")
    var explanation = false

    @Option(name: .long, help: ArgumentHelp("Choice questions: letter the options as a drill with --seed S does (the order never depends on which are right).", valueName: "s"))
    var seed: UInt64?

    func run() throws {
        let style = TerminalStyle.current(for: .standardOutput)
        if PuzzleResolver.isSnippetFile(id) { return try showSnippet(style: style) }
        let question = try PuzzleResolver.question(id, bank: bank.source())
        let order = OptionOrder.shuffled(question, seed: seed ?? OptionOrder.defaultSeed)
        print(QuestionRenderer.render(question, order: order, style: style, withExplanation: explanation), terminator: "")
    }

    /// A `.swift` snippet as a trace puzzle asks it: its code (checked, so that a snippet
    /// outside the subset gets its diagnostic here too) and the question. It has no title,
    /// level, tags or explanation of its own.
    func showSnippet(style: TerminalStyle) throws {
        let puzzle = try PuzzleResolver.resolve(id, bank: nil)
        var text = style.bold(puzzle.name) + "\n" + style.dim("a snippet · trace · written against the prelude") + "\n\n"
        text += QuestionRenderer.numbered(puzzle.code, style: style) + "\n"
        text += style.wrappedLines(QuestionRenderer.tracePrompt, hanging: 0) + "\n"
        if explanation {
            text += "\n" + style.dim(style.wrapped("A snippet file has no explanation: 'gcdquiz solve \(id)' gives every outcome, "
                + "'gcdquiz explain \(id)' a schedule for one.", firstLineWidth: 0, indent: 0)) + "\n"
        }
        print(text, terminator: "")
    }
}
