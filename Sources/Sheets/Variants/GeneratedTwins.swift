import Generator
import Quiz

/// `--generated`: each variant asks its own generated twin of every trace puzzle, so that
/// neighbours cannot copy, while the key stays exact (the twin's answer is computed like any
/// question's). A puzzle's twins are made once for all variants, distinct by code, with a seed
/// drawn from the sheet's: the same seed and bank give the same twins.
///
/// When the generator cannot make a twin for every variant, the variants left over ask the bank's
/// puzzle itself, and `shortfalls` says which puzzles and how many twins there were.
public final class GeneratedTwins: VariantProvider {
    /// A puzzle that has fewer twins than variants.
    public struct Shortfall: Sendable, Equatable {
        public var questionID: String
        /// How many twins the generator made.
        public var made: Int
        /// How many variants asked for one.
        public var wanted: Int
    }

    private let generator: PuzzleGenerator
    private let variantCount: Int
    private let seed: UInt64
    private let answers: AnswerBook?
    private var twins: [String: [Question]] = [:]
    /// In the order the puzzles were first asked for.
    public private(set) var shortfalls: [Shortfall] = []

    /// - Parameters:
    ///   - variantCount: how many twins each trace puzzle needs, one per variant.
    ///   - seed: the sheet's seed.
    ///   - answers: told each twin's program and exploration, which the generator computed
    ///     already, so that the key does not explore it again.
    public init(bank: Bank, variantCount: Int, seed: UInt64, answers: AnswerBook? = nil) {
        generator = PuzzleGenerator(bank: bank)
        self.variantCount = variantCount
        self.seed = seed
        self.answers = answers
    }

    public func question(replacing question: Question, inVariant variant: Int, seed _: UInt64) throws -> Question? {
        guard question.kind == .trace else { return nil }
        let made = twins(of: question)
        return variant <= made.count ? made[variant - 1] : nil
    }

    /// The twins of `question`, made on first use.
    func twins(of question: Question) -> [Question] {
        if let known = twins[question.id] { return known }
        let puzzles = generator.variants(of: question, count: variantCount, seed: SeedMixer.mix(seed, "generated " + question.id))
        for puzzle in puzzles {
            answers?.adopt(puzzle.question, program: puzzle.program, exploration: puzzle.exploration)
        }
        // The generator's title says how the twin differs from the bank puzzle ("…, but with sync
        // in place of …", or "… — a variant" when that is too long): words for someone who knows
        // the bank puzzle. A student may not, so the sheet names the puzzle it varies instead.
        let made = puzzles.map { puzzle in
            var twin = puzzle.question
            twin.title = "Variation on “\(question.title)”"
            return twin
        }
        twins[question.id] = made
        if made.count < variantCount {
            shortfalls.append(Shortfall(questionID: question.id, made: made.count, wanted: variantCount))
        }
        return made
    }

    /// One line for standard error when some variants ask a bank puzzle for want of twins; nil
    /// when every variant has its own.
    public var shortfallNote: String? {
        guard !shortfalls.isEmpty else { return nil }
        let each = shortfalls.map { shortfall in
            let rest = shortfall.made + 1 == shortfall.wanted
                ? "variant \(shortfall.wanted)" : "variants \(shortfall.made + 1)–\(shortfall.wanted)"
            return "\(shortfall.questionID) has \(shortfall.made == 0 ? "none" : String(shortfall.made)) (\(rest) ask\(shortfall.made + 1 == shortfall.wanted ? "s" : "") the bank's puzzle)"
        }
        return "too few generated twins for \(shortfalls.count == 1 ? "one puzzle" : "\(shortfalls.count) puzzles"): " + each.joined(separator: "; ")
    }
}
