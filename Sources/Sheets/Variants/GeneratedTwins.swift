import ConcurrencyModel
import Generator
import Quiz

/// `--generated`: each variant asks its own generated twin of every trace puzzle, so that
/// neighbours cannot copy, while the key stays exact (the twin's answer is computed like any
/// question's). A puzzle's twins are made once for all variants, distinct by code, each within
/// the puzzle's `DifficultyBand` so that every student's question is worth its points, with a
/// seed drawn from the sheet's: the same seed and bank give the same twins.
///
/// When the generator cannot make a twin for every variant, the variants left over ask other
/// bank puzzles of the same band that the sheet does not ask (a different one for each, as far
/// as there are), or the bank's puzzle itself when the bank has none; `shortfalls` says which.
public final class GeneratedTwins: VariantProvider {
    /// A puzzle that has fewer twins than variants.
    public struct Shortfall: Sendable, Equatable {
        public var questionID: String
        /// How many twins the generator made.
        public var made: Int
        /// How many variants asked for one.
        public var wanted: Int
        /// The other bank puzzles of the band the variants left over ask, in turn; empty when
        /// they ask the puzzle itself.
        public var substitutes: [String] = []
    }

    private let generator: PuzzleGenerator
    private let variantCount: Int
    private let seed: UInt64
    private let answers: AnswerBook?
    /// The bank questions the sheet asks, which no substitute may be.
    private let asked: Set<String>
    private var twins: [String: [Question]] = [:]
    private var substitutes: [String: [Question]] = [:]
    /// Each bank trace puzzle's features, computed when first needed.
    private var features: [String: PuzzleFeatures?] = [:]
    /// In the order the puzzles were first asked for.
    public private(set) var shortfalls: [Shortfall] = []

    /// - Parameters:
    ///   - variantCount: how many twins each trace puzzle needs, one per variant.
    ///   - seed: the sheet's seed.
    ///   - answers: told each twin's program and exploration, which the generator computed
    ///     already, so that the key does not explore it again.
    ///   - asking: the sheet's bank questions, which no variant asks in place of another.
    public init(bank: Bank, variantCount: Int, seed: UInt64, answers: AnswerBook? = nil, asking: [Question] = []) {
        generator = PuzzleGenerator(bank: bank)
        self.variantCount = variantCount
        self.seed = seed
        self.answers = answers
        asked = Set(asking.map(\.id))
    }

    public func question(replacing question: Question, inVariant variant: Int, seed _: UInt64) throws -> Question? {
        guard question.kind == .trace else { return nil }
        let made = twins(of: question)
        if variant <= made.count { return made[variant - 1] }
        let others = substitutes[question.id] ?? []
        return others.isEmpty ? nil : others[(variant - made.count - 1) % others.count]
    }

    /// The twins of `question`, made on first use.
    func twins(of question: Question) -> [Question] {
        if let known = twins[question.id] { return known }
        let band = features(of: question).map(DifficultyBand.init)
        var inBand = generator
        inBand.options.copiesByAnswer = false
        if let band { inBand.options.outcomes = band.outcomes }
        // Half as many again as needed: some of those the generator keeps use other constructs.
        let request = GenerationRequest(like: [question], level: band?.level, count: variantCount + (variantCount + 1) / 2,
                                        seed: SeedMixer.mix(seed, "generated " + question.id))
        let generated = ((try? inBand.generate(request).puzzles) ?? []).filter { band?.contains($0.features) ?? true }
        let puzzles = Array(generated.prefix(variantCount))
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
            let others = band.map { substitutes(for: question, in: $0) } ?? []
            substitutes[question.id] = others
            shortfalls.append(Shortfall(questionID: question.id, made: made.count, wanted: variantCount, substitutes: others.map(\.id)))
        }
        return made
    }

    /// Bank trace puzzles of the same band the sheet does not ask, in bank order.
    private func substitutes(for question: Question, in band: DifficultyBand) -> [Question] {
        generator.bank.questions.filter { other in
            other.kind == .trace && other.id != question.id && !asked.contains(other.id)
                && features(of: other).map(band.contains) == true
        }
    }

    private func features(of question: Question) -> PuzzleFeatures? {
        if let known = features[question.id] { return known }
        var measured: PuzzleFeatures?
        if let program = try? generator.bank.program(of: question).get() {
            let exploration = Explorer(stateBudget: 5_000).explore(program)
            if exploration.isComplete { measured = PuzzleFeatures(program: program, exploration: exploration) }
        }
        features[question.id] = measured
        return measured
    }

    /// One line for standard error when some variants ask another puzzle for want of twins; nil
    /// when every variant has its own.
    public var shortfallNote: String? {
        guard !shortfalls.isEmpty else { return nil }
        let each = shortfalls.map { shortfall in
            let rest = shortfall.made + 1 == shortfall.wanted
                ? "variant \(shortfall.wanted)" : "variants \(shortfall.made + 1)–\(shortfall.wanted)"
            let made = "\(shortfall.questionID) has \(shortfall.made == 0 ? "none" : String(shortfall.made))"
            let verb = shortfall.made + 1 == shortfall.wanted ? "asks" : "ask"
            if shortfall.substitutes.isEmpty {
                return made + " (\(rest) \(verb) the bank's puzzle: no other bank puzzle is of its difficulty)"
            }
            return made + " (\(rest) \(verb) other bank puzzles of its difficulty in turn: \(shortfall.substitutes.joined(separator: ", ")))"
        }
        return "too few generated twins for \(shortfalls.count == 1 ? "one puzzle" : "\(shortfalls.count) puzzles"): " + each.joined(separator: "; ")
    }
}
