import ArgumentParser
import Foundation
import Quiz

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the questions of the bank.")

    @OptionGroup var bank: BankOptions

    @OptionGroup var filter: FilterOptions

    @Option(name: .long, help: ArgumentHelp("Only questions of this kind (trace, choice, short).", valueName: "kind"))
    var kind: Question.Kind?

    @Flag(name: .long, help: "Print JSON: {\"questions\": [{\"id\", \"kind\", \"title\", \"level\", \"tags\"}, …]}.")
    var json = false


    func run() throws {
        let bank = try self.bank.load(compilation: .onDemand)
        let questions = bank.questions(tags: filter.tag, level: filter.level, kind: kind)
        if json {
            try JSONOutput.print(QuestionListJSON(questions: questions.map(QuestionListJSON.Entry.init)))
            return
        }
        let style = TerminalStyle.current(for: .standardOutput)
        print(QuestionTable.render(questions, style: style), terminator: "")
        var summary = "\(questions.count) of \(bank.questions.count) questions"
        if !bank.problems.isEmpty { summary += "; \(bank.problems.count) problem(s) in the bank: run 'gcdquiz validate'" }
        print(style.dim(summary))
    }
}

extension Question.Kind: ExpressibleByArgument {}
