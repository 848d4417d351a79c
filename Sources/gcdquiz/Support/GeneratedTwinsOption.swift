import ArgumentParser
import Quiz
import Sheets

/// `--generated`, shared by `sheet` and `export`: generated twins of the trace puzzles in place
/// of the bank's, and one line on standard error when there are too few of them.
struct GeneratedTwinsOption: ParsableArguments {
    @Flag(name: .long, help: "Ask a generated twin of each trace puzzle instead of the bank's own (on sheets, a different one in each variant, so that neighbours cannot copy).")
    var generated = false

    /// The provider the planner asks, and a closure that reports any shortfall once it has planned.
    func provider(bank: Bank, variants: Int, seed: UInt64, answers: AnswerBook, asking questions: [Question]) -> (provider: VariantProvider, reportShortfall: () -> Void) {
        guard generated else { return (BankQuestionsOnly(), {}) }
        let twins = GeneratedTwins(bank: bank, variantCount: variants, seed: seed, answers: answers, asking: questions)
        return (twins, {
            if let note = twins.shortfallNote {
                Output.write("gcdquiz: note: \(note)\n", to: .standardError)
            }
        })
    }
}
