import ArgumentParser
import Quiz
import Sheets

/// `--kind`, `--ids` and `--count`: with `--tag` and `--level`, which questions a sheet or an
/// export asks.
struct SelectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only questions of this kind (trace, choice, short).", valueName: "kind"))
    var kind: Question.Kind?

    @Option(name: .long, help: ArgumentHelp("Exactly these questions, in this order (comma-separated ids).", valueName: "a,b,…"))
    var ids: String?

    // `.unconditional`: `--count -1` is a count to refuse, not a missing value and an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How many of the matching questions, chosen with the seed (default: all).", valueName: "n"))
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func filter(with filter: FilterOptions) -> QuestionFilter {
        let list = (ids ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return QuestionFilter(tags: filter.tag, level: filter.level, kind: kind, ids: list, count: count)
    }
}

extension CommandFailure {
    /// A sheet's or an export's failure: bad input exits 1, anything else 2.
    init(_ error: SheetError) {
        switch error.cause {
        case .badInput: self = .badInput(error.message)
        case .internalFailure: self = .unexpected(error.message)
        }
    }

    /// Runs the steps of a sheet or an export, turning their failure into the command's.
    static func reporting(_ steps: () throws(SheetError) -> Void) throws(CommandFailure) {
        do {
            try steps()
        } catch {
            throw CommandFailure(error)
        }
    }
}
