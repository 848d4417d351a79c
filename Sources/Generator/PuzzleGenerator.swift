import ConcurrencyModel
import Foundation
import Quiz

/// A generated trace puzzle that passed the model's checks: its question (code, computed level,
/// tags, title and explanation), and what the checks computed on the way.
public struct GeneratedPuzzle: Sendable {
    public var question: Question
    public var tree: SnippetTree
    public var program: Program
    public var exploration: Exploration
    public var features: PuzzleFeatures
    /// Makes this puzzle again: `variant(of: source, seed:)` or `fresh(level:seed:)` with the
    /// same bank gives the same code on the first attempt.
    public var seed: UInt64
    /// The bank puzzle this is a variant of; nil for a fresh puzzle.
    public var sourceID: String?
    public var changes: [VariantChange]

    /// The question file, in the bank's format.
    public var yaml: String { QuestionWriter.yaml(question) }
}

/// Why a candidate puzzle was not kept.
public enum DropReason: String, Error, Hashable, Sendable, CaseIterable {
    /// No change applied to the source (or the change gave back the same code).
    case noChange
    /// The generated code is outside the supported subset (a generator bug).
    case doesNotCompile
    /// More states than the generator's exploration budget.
    case overBudget
    case tooFewOutcomes
    case tooManyOutcomes
    /// The same code up to labels, or the same outcomes up to renaming, as a bank puzzle or an
    /// earlier generated one.
    case copy
    /// Its computed level is not the one asked for.
    case otherLevel
    /// It lacks a tag asked for.
    case missingTag
    /// A live run printed an outcome the model does not allow.
    case unexpectedLive
    /// The program compiled by swiftc printed an outcome the model does not allow.
    case compilerDisagrees

    /// A few words for the one-line summary.
    public var words: String {
        switch self {
        case .noChange: "no change applied"
        case .doesNotCompile: "outside the subset"
        case .overBudget: "over the exploration budget"
        case .tooFewOutcomes: "too few outcomes"
        case .tooManyOutcomes: "too many outcomes"
        case .copy: "copies"
        case .otherLevel: "another level"
        case .missingTag: "without the tags asked for"
        case .unexpectedLive: "unexpected live outcome"
        case .compilerDisagrees: "swiftc run outside the model"
        }
    }
}

/// Makes new trace puzzles: variants of a bank puzzle and fresh ones from a grammar, each kept
/// only if it compiles, explores within budget, has an interesting number of outcomes and is
/// not a copy of a bank puzzle. Deterministic: the same bank and seed give the same puzzles.
///
/// For the drill and the sheets, `variant(of:seed:)`, `fresh(level:seed:)` and
/// `puzzle(topic:seed:)` return one checked puzzle (model checks only; `LiveCheck` adds
/// reality). `generate` is the command's whole run, live checks included.
public struct PuzzleGenerator: Sendable {
    public struct Options: Sendable {
        /// How many outcomes make a puzzle interesting.
        public var outcomes: ClosedRange<Int> = 2...16
        /// The explorer's budget for one candidate: a puzzle of at most 16 outcomes needs a few
        /// thousand states (the bank's largest, 997), and stopping early on larger ones is most of
        /// the generator's speed.
        public var stateBudget = 5_000
        /// Candidates tried for one `variant(of:seed:)` before giving up.
        public var attempts = 80
        /// Whether the same outcomes up to renaming make a copy (true), or only the same code up
        /// to labels: a sheet that gives each student a different variant of one small puzzle
        /// needs more of them than that puzzle has answers.
        public var copiesByAnswer = true

        public init(outcomes: ClosedRange<Int> = 2...16) {
            self.outcomes = outcomes
        }
    }

    public let bank: Bank
    public var options: Options
    /// The bank's trace puzzles, which no generated puzzle may copy.
    public let bankFingerprints: Fingerprints
    let estimator = LevelEstimator.calibrated
    /// The bank puzzles variants are made of, read and compiled once.
    let sources: [String: SourcePuzzle]

    /// A bank puzzle as variants start from it.
    struct SourcePuzzle: Sendable {
        var question: Question
        var tree: SnippetTree
        var program: Program?

        /// Nil for code with nothing to change: no dispatch and no label to wrap in one.
        init?(_ question: Question, program: Program?) {
            guard question.kind == .trace, let code = question.code, let tree = SnippetTreeReader.read(code),
                !tree.labels.isEmpty || !tree.dispatches.isEmpty
            else { return nil }
            self.question = question
            self.tree = tree
            self.program = program
        }
    }

    public init(bank: Bank, options: Options = Options()) {
        self.bank = bank
        self.options = options
        var fingerprints = Fingerprints()
        var sources: [String: SourcePuzzle] = [:]
        let explorer = Explorer(stateBudget: options.stateBudget)
        for question in bank.questions where question.kind == .trace {
            guard let code = question.code, case .success(let program) = bank.program(of: question) else { continue }
            sources[question.id] = SourcePuzzle(question, program: program)
            let exploration = explorer.explore(program)
            guard exploration.isComplete else { continue }
            fingerprints.insert(canonicalSource: Fingerprints.canonicalSource(of: code), shape: OutcomeShape(exploration.outcomes))
        }
        bankFingerprints = fingerprints
        self.sources = sources
    }

    /// The bank's trace puzzles whose code the generator can read, which variants come from.
    public var variantSources: [Question] {
        bank.questions.filter { sources[$0.id] != nil }
    }

    /// The cached source for a bank question, or a fresh reading of one from elsewhere.
    func source(_ question: Question) -> SourcePuzzle? {
        if let cached = sources[question.id], cached.question == question { return cached }
        return SourcePuzzle(question, program: try? question.program().get())
    }

    // MARK: One puzzle

    /// A variant of `question`, not a copy of the bank or of `avoiding`; nil when none of
    /// `options.attempts` candidates passes (the puzzle has too little to change).
    public func variant(of question: Question, seed: UInt64, avoiding: Fingerprints = Fingerprints()) -> GeneratedPuzzle? {
        firstPassing(seed: seed) { attemptSeed, memo in
            check(draftVariant(of: question, seed: attemptSeed), avoiding: avoiding, filter: .anything, memo: &memo)
        }
    }

    /// A fresh puzzle whose computed level is `level`.
    public func fresh(level: Int, seed: UInt64, avoiding: Fingerprints = Fingerprints()) -> GeneratedPuzzle? {
        firstPassing(seed: seed) { attemptSeed, memo in
            check(draftFresh(level: level, seed: attemptSeed), avoiding: avoiding, filter: Filter(level: level), memo: &memo)
        }
    }

    /// A puzzle on `topic` (a tag): a variant of a bank puzzle with that tag or a fresh one,
    /// that still has the tag.
    public func puzzle(topic: String, seed: UInt64, avoiding: Fingerprints = Fingerprints()) -> GeneratedPuzzle? {
        let sources = variantSources.filter { $0.tags.contains(topic) }
        return firstPassing(seed: seed) { attemptSeed, memo in
            check(draft(from: sources, fresh: true, tags: [topic], seed: attemptSeed), avoiding: avoiding, filter: Filter(tags: [topic]), memo: &memo)
        }
    }

    /// `count` variants of `question`, none a copy of another or of the bank: a different one
    /// for each student of a class. Fewer when the puzzle has fewer variants to give.
    public func variants(of question: Question, count: Int, seed: UInt64) -> [GeneratedPuzzle] {
        var byCode = self
        byCode.options.copiesByAnswer = false
        return (try? byCode.generate(GenerationRequest(like: [question], count: count, seed: seed)).puzzles) ?? []
    }

    private func firstPassing(seed: UInt64, _ attempt: (UInt64, inout CheckMemo) -> Result<GeneratedPuzzle, DropReason>) -> GeneratedPuzzle? {
        var memo = CheckMemo()
        for index in 0..<options.attempts {
            if case .success(let puzzle) = attempt(Self.attemptSeed(seed, index), &memo) { return puzzle }
        }
        return nil
    }

    /// The seed of the `index`-th attempt: the first is the seed itself, so that the seed a
    /// puzzle records makes it again.
    static func attemptSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        index == 0 ? seed : SeededRandom.derive(seed, index)
    }

    // MARK: Drafts

    /// A candidate before the checks: the tree, and what it came from.
    struct Draft {
        var tree: SnippetTree
        var seed: UInt64
        var source: Question?
        var level: Int?
        var changes: [VariantChange]
        /// Each change in words, said of the code it changed.
        var phrases: [String] = []
        /// The Swift-concurrency grammar's focus, for a fresh puzzle made by it.
        var focus: TaskGrammar.Focus?
    }

    /// One candidate from `sources` (a variant) or, when `fresh` is allowed, from the grammar;
    /// the seed chooses which.
    func draft(from sources: [Question], fresh: Bool, level: Int? = nil, tags: [String] = [], seed: UInt64) -> Draft? {
        // One source and nothing else: the seed is the variant's own, so that the seed a
        // variant records (`--like ID --seed S --count 1`) makes it again.
        if sources.count == 1 && !fresh { return draftVariant(of: sources[0], seed: seed) }
        var random = SeededRandom(seed: seed)
        let choice = random.below(sources.count + (fresh ? max(sources.count, 1) : 0))
        if choice < sources.count {
            return draftVariant(of: sources[choice], seed: random.next())
        }
        // Level 1 code is small, so its puzzles soon repeat: fewer of them when no level is asked.
        return draftFresh(level: level ?? random.pick([1, 2, 2, 3, 3]), tags: tags, seed: random.next())
    }

    func draftVariant(of question: Question, seed: UInt64) -> Draft? {
        guard let source = source(question) else { return nil }
        let (tree, program) = (source.tree, source.program)
        var catalog = QueueCatalog(program: program)
        var random = SeededRandom(seed: seed)
        var changed = tree
        var changes: [(change: VariantChange, before: SnippetTree)] = []
        for _ in 0..<(random.percent(55) ? 2 : 1) {
            var candidates = VariantChange.candidates(for: changed, catalog: catalog, program: program)
            // One change a place: a print wrapped once is not wrapped again, a dispatch moved
            // once is not moved again (the title then reads as two changes, not one twice).
            candidates.removeAll { candidate in changes.contains { $0.change.site == candidate.site } }
            // Code with no async has one outcome whatever else changes: mostly add one.
            let adding = candidates.filter { $0.addsAsync(to: changed) }
            if !changed.hasWorkerAsync && !adding.isEmpty && random.percent(75) { candidates = adding }
            guard !candidates.isEmpty else { break }
            let change = random.pick(candidates)
            guard let next = change.apply(to: changed, catalog: catalog) else { continue }
            if case .secondQueue(_, let name, let concurrent) = change { catalog.declare(name, kind: concurrent ? .concurrent : .serial) }
            changes.append((change, changed))
            changed = next
        }
        var schemes = LabelScheme.fitting(changed)
        if tree.labels.contains(where: { if case .number = $0 { true } else { false } }) {
            schemes.removeAll { $0 == .numbers }
        }
        let (renamed, names) = random.pick(schemes.isEmpty ? [.letters] : schemes).renaming(changed, random: &random)
        return Draft(tree: renamed, seed: seed, source: question, level: nil, changes: changes.map(\.change),
                     phrases: changes.map { $0.change.phrase(before: $0.before, renamed: names) })
    }

    /// A fresh candidate: from the Swift-concurrency grammar when a tag asks for one of its
    /// topics (tasks, actors, main-actor), else from the GCD grammar.
    func draftFresh(level: Int, tags: [String] = [], seed: UInt64) -> Draft {
        var random = SeededRandom(seed: seed)
        if let focus = TaskGrammar.Focus(tags: tags) {
            var tree = TaskGrammar(level: level, focus: focus).tree(random: &random)
            tree = random.pick([LabelScheme.numbers, .numbers, .letters, .colours, .animals]).apply(to: tree, random: &random)
            return Draft(tree: tree, seed: seed, source: nil, level: level, changes: [], focus: focus)
        }
        let grammar = FreshGrammar(level: level)
        let skeleton = grammar.tree(random: &random)
        var (tree, changes) = grammar.decorate(skeleton, catalog: QueueCatalog(program: nil), random: &random)
        let schemes: [LabelScheme] = [.numbers, .numbers, .letters, .colours, .animals]
        tree = random.pick(schemes).apply(to: tree, random: &random)
        return Draft(tree: tree, seed: seed, source: nil, level: level, changes: changes)
    }

    // MARK: Checks

    /// What a kept puzzle must also be: of a level, with tags.
    struct Filter {
        var level: Int?
        var tags: [String] = []
        static let anything = Filter()
    }

    /// Why candidates failed, by canonical source: random drafts often come back to the same
    /// small programs, and whatever failed once fails again (what is seen only grows).
    typealias CheckMemo = [String: DropReason]

    /// The model's checks, cheapest first; the title and explanation are written last.
    func check(_ draft: Draft?, avoiding: Fingerprints, filter: Filter, memo: inout CheckMemo) -> Result<GeneratedPuzzle, DropReason> {
        guard let draft, draft.source.flatMap(source)?.tree != draft.tree else {
            return .failure(.noChange)
        }
        let canonical = draft.tree.canonicalSource
        if let known = memo[canonical] { return .failure(known) }
        let result = check(draft, canonical: canonical, avoiding: avoiding, filter: filter)
        if case .failure(let reason) = result { memo[canonical] = reason }
        return result
    }

    private func check(_ draft: Draft, canonical: String, avoiding: Fingerprints, filter: Filter) -> Result<GeneratedPuzzle, DropReason> {
        if bankFingerprints.contains(canonicalSource: canonical) || avoiding.contains(canonicalSource: canonical) {
            return .failure(.copy)
        }
        // Without an async onto a queue other than the main one, every block runs on the main
        // thread in an order fixed by the code: one outcome, known without compiling.
        if !draft.tree.hasWorkerAsync && !draft.tree.hasCompound && options.outcomes.lowerBound > 1 {
            return .failure(.tooFewOutcomes)
        }
        let code = draft.tree.source
        guard case .success(let program) = SnippetCompiler.compile(code) else { return .failure(.doesNotCompile) }
        let exploration = Explorer(stateBudget: options.stateBudget).explore(program)
        guard exploration.isComplete else { return .failure(.overBudget) }
        let count = exploration.outcomes.count
        if count < options.outcomes.lowerBound { return .failure(.tooFewOutcomes) }
        if count > options.outcomes.upperBound { return .failure(.tooManyOutcomes) }
        let shape = OutcomeShape(exploration.outcomes)
        if options.copiesByAnswer && (bankFingerprints.contains(canonicalSource: canonical, shape: shape) || avoiding.contains(canonicalSource: canonical, shape: shape)) {
            return .failure(.copy)
        }
        let features = PuzzleFeatures(program: program, exploration: exploration)
        let level = estimator.level(features)
        if let wanted = filter.level, wanted != level { return .failure(.otherLevel) }
        let tags = TagDetector.tags(program: program, exploration: exploration, source: draft.source?.tags ?? [])
        if !filter.tags.allSatisfy(tags.contains) { return .failure(.missingTag) }

        let id = (draft.source.map { "\($0.id)-v" } ?? "gen-") + Self.shortHash(canonical)
        let changes = TitleWriter.list(draft.phrases.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst("with ".count)) })
        let title: String
        let origin: String
        var explanation = ExplanationWriter(tree: draft.tree, program: program, exploration: exploration).explanation
        if let source = draft.source {
            // The change in the title when it fits a line; always said first in the explanation.
            let full = source.title + (changes.isEmpty ? ", with other labels" : ", but " + changes)
            title = full.count <= Self.titleLength ? full : source.title + " — a variant"
            origin = "a variant of \(source.id)"
            let labels = draft.tree.labels.isEmpty ? "" : (changes.isEmpty ? " with other labels" : ", its labels renamed")
            // A variant of a Swift-concurrency puzzle: the rules of its tasks and actors too,
            // which the explanation of its dispatches does not say.
            let rules = program.usesSwiftConcurrency ? TaskGrammar.rules(draft.tree) : ""
            explanation = "This is “\(source.title)” (\(source.id))\(changes.isEmpty ? "" : " " + changes)\(labels).\n\n"
                + (rules.isEmpty ? "" : rules + "\n\n") + explanation
        } else if draft.focus != nil {
            title = TaskGrammar.title(draft.tree)
            origin = "a fresh Swift-concurrency puzzle"
            explanation = TaskGrammar.rules(draft.tree) + "\n\n" + explanation
        } else {
            title = TitleWriter.title(draft.tree, program: program)
            origin = "a fresh puzzle"
        }
        if program.usesSwiftConcurrency {
            explanation += "\n\n" + Self.realityNote
        }
        let grammar = draft.source == nil
            ? " (\(draft.focus.map { "Swift-concurrency grammar for \($0.tag), " } ?? "")grammar size \(draft.level ?? level))" : ""
        var question = Question(
            id: id, kind: .trace, title: title, level: level, tags: tags,
            source: "\(origin), by gcdquiz generate with seed \(draft.seed)\(grammar)",
            explanation: explanation, code: code, file: "\(id).yaml")
        question.isGenerated = true
        return .success(GeneratedPuzzle(
            question: question, tree: draft.tree, program: program, exploration: exploration, features: features,
            seed: draft.seed, sourceID: draft.source?.id, changes: draft.changes))
    }

    /// Said in the explanation of a puzzle that uses Swift concurrency: how reality checked it.
    static let realityNote = "Checked against reality by compiling the snippet with swiftc (Swift 6 mode) and running it "
        + "on the real concurrency runtime (gcdquiz generate's live runs, unless --live-runs 0)."

    /// The longest title: the drill shows it on one line of 80 columns after its counter.
    static let titleLength = 64

    /// Six hex digits of FNV-1a: an id that depends only on the puzzle's canonical code.
    static func shortHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(String(repeating: "0", count: max(0, 16 - hex.count)) + hex).suffix(6).description
    }
}
