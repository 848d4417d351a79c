import ConcurrencyModel
import Quiz

/// Lays out the variants of a sheet: per variant, its seed, the order of the questions, each
/// choice question's option order, and each trace puzzle's offered outcomes, all drawn from
/// `SeededGenerator`s derived from the sheet's seed. Same seed and bank, same sheet.
public struct SheetPlanner {
    public var title: String
    public var seed: UInt64
    public var variantCount: Int
    public var traceForm: TraceForm
    /// How many real outcomes a "tick every output" question offers at most.
    public var possibleOptions = 4
    /// How many near misses it offers (fewer when the model finds fewer).
    public var impossibleOptions = 3
    /// How many near misses of a question the variants choose from.
    public var nearMissPool = 8
    /// Whether choice options are shuffled (a sheet) or kept in the file's order (an export to
    /// an LMS, which shuffles them itself).
    public var shuffleChoices = true
    /// The order of a choice question's options, when someone else decides it (an Anki export
    /// shuffles them as the drill does, `OptionOrder`); nil to shuffle per variant.
    public var optionOrder: ((Question) -> [Int])?

    public init(title: String, seed: UInt64, variantCount: Int, traceForm: TraceForm) {
        self.title = title
        self.seed = seed
        self.variantCount = variantCount
        self.traceForm = traceForm
    }

    /// - Parameter students: with a roster, one student per variant, in order.
    public func plan(_ questions: [Question], answers: AnswerBook, provider: VariantProvider = BankQuestionsOnly(),
                     students: [Student] = []) throws(SheetError) -> Sheet {
        guard variantCount >= 1 else { throw .badInput("--variants must be at least 1") }
        guard students.isEmpty || students.count == variantCount else {
            throw .badInput("a roster of \(students.count) students needs \(students.count) variants, not \(variantCount)")
        }
        let width = String(variantCount).count
        var variants: [Variant] = []
        for number in 1...variantCount {
            let student = students.isEmpty ? nil : students[number - 1]
            let printedSeed = student?.seed ?? seed
            let variantSeed = Self.variantSeed(printedSeed, number: number)
            // One variant keeps the order asked for (bank order, or --ids); several are shuffled.
            var generator = SeededGenerator(seed: variantSeed)
            let order = variantCount == 1 ? Array(questions.indices) : Array(questions.indices).shuffled(using: &generator)
            var items: [SheetItem] = []
            for (place, index) in order.enumerated() {
                let questionSeed = SeedMixer.mix(variantSeed, questions[index].id)
                var question = questions[index]
                do {
                    if let replacement = try provider.question(replacing: question, inVariant: number, seed: questionSeed) {
                        question = replacement
                    }
                } catch {
                    throw .internalFailure("no variant \(number) of '\(question.id)': \(error)")
                }
                var item = try item(question, number: place + 1, seed: questionSeed, poolSeed: printedSeed, answers: answers)
                item.bankQuestionID = questions[index].id
                items.append(item)
            }
            let id = String(repeating: "0", count: width - String(number).count) + String(number)
            variants.append(Variant(number: number, id: id, seed: printedSeed, student: student, items: items))
        }
        return Sheet(title: title, seed: seed, traceForm: traceForm, variants: variants, questionIDs: questions.map(\.id))
    }

    /// The seed of variant `number` of a sheet made with `seed`: its order, options and offered
    /// outcomes come from it.
    static func variantSeed(_ seed: UInt64, number: Int) -> UInt64 {
        SeedMixer.mix(seed, UInt64(number))
    }

    /// `question` as variant `number` of a sheet with seed `seed` asks it, whatever else the
    /// sheet asks: its options' order and letters, the outcomes it offers to tick. What `check
    /// --variant N --seed S` grades against.
    public func asked(_ question: Question, inVariant number: Int, answers: AnswerBook) throws(SheetError) -> SheetItem {
        let questionSeed = SeedMixer.mix(Self.variantSeed(seed, number: number), question.id)
        return try item(question, number: 1, seed: questionSeed, poolSeed: seed, answers: answers)
    }

    /// - Parameter poolSeed: the seed printed on the variant, from which the near misses its
    ///   variants choose among are drawn.
    func item(_ question: Question, number: Int, seed: UInt64, poolSeed: UInt64, answers: AnswerBook) throws(SheetError) -> SheetItem {
        var generator = SeededGenerator(seed: seed)
        let answer = try answers.answer(for: question)
        switch answer {
        case .choice(let choice):
            let order = optionOrder?(question) ?? (shuffleChoices && !question.keepsOptionOrder ? Array(question.options.indices).shuffled(using: &generator) : Array(question.options.indices))
            let (scoring, ticks) = Scoring.choice(choice, order: order, optionCount: question.options.count)
            return SheetItem(number: number, question: question, bankQuestionID: question.id, answer: answer, optionOrder: order, traceOptions: [],
                             distractors: [], scoring: scoring, tickScoring: ticks)
        case .short(let short):
            return SheetItem(number: number, question: question, bankQuestionID: question.id, answer: answer, optionOrder: [], traceOptions: [],
                             distractors: [], scoring: Scoring.short(short))
        case .trace(let trace):
            let distractors = pickDistractors(trace, of: question, answers: answers, poolSeed: poolSeed, using: &generator)
            switch traceForm {
            case .write:
                return SheetItem(number: number, question: question, bankQuestionID: question.id, answer: answer, optionOrder: [], traceOptions: [],
                                 distractors: distractors, scoring: Scoring.traceWritten(trace))
            case .select:
                let shown = Array(trace.outcomes.shuffled(using: &generator).prefix(possibleOptions))
                var options = shown.map { TraceOption(outcome: $0, distractor: nil) }
                options += distractors.map { TraceOption(outcome: $0.outcome, distractor: $0) }
                options.shuffle(using: &generator)
                let (scoring, ticks) = Scoring.traceSelected(options)
                return SheetItem(number: number, question: question, bankQuestionID: question.id, answer: answer, optionOrder: [], traceOptions: options,
                                 distractors: distractors, scoring: scoring, tickScoring: ticks)
            }
        }
    }

    /// Up to `impossibleOptions` near misses of different kinds where the model offers them
    /// (a line moved across a sync first, then a swap, a deadlock too few or too many, a line
    /// left out or doubled), each explained by the model. They come from a pool of at most
    /// `nearMissPool` per question, drawn once with the sheet's seed, so that however many
    /// variants there are the explainer runs a bounded number of times.
    func pickDistractors(_ trace: TraceAnswer, of question: Question, answers: AnswerBook, poolSeed: UInt64,
                         using generator: inout SeededGenerator) -> [Distractor] {
        var poolGenerator = SeededGenerator(seed: SeedMixer.mix(poolSeed, question.id))
        let pool = Self.diverse(trace.nearMisses, count: nearMissPool, using: &poolGenerator)
        var picked: [Distractor] = []
        for candidate in Self.diverse(pool, count: pool.count, using: &generator) where picked.count < impossibleOptions {
            if let distractor = answers.explain(candidate, of: question, in: trace) {
                picked.append(distractor)
            }
        }
        return picked
    }

    /// `count` candidates in rounds of one per kind (in `NearMiss` order), each kind's drawn at
    /// random: as many different kinds as there are, first.
    static func diverse(_ candidates: [NearMissCandidate], count: Int, using generator: inout SeededGenerator) -> [NearMissCandidate] {
        var byKind: [NearMiss: [NearMissCandidate]] = [:]
        for candidate in candidates { byKind[candidate.kind, default: []].append(candidate) }
        var queues = NearMiss.allCases.map { (byKind[$0] ?? []).shuffled(using: &generator) }
        var chosen: [NearMissCandidate] = []
        while chosen.count < count, queues.contains(where: { !$0.isEmpty }) {
            for kind in queues.indices where chosen.count < count && !queues[kind].isEmpty {
                chosen.append(queues[kind].removeFirst())
            }
        }
        return chosen
    }
}
