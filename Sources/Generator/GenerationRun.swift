import Quiz

/// What `gcdquiz generate` asks for.
public struct GenerationRequest: Sendable {
    /// Make variants of these (round the seed's choice); empty: fresh puzzles and variants of
    /// any bank puzzle.
    public var like: [Question] = []
    /// Every kept puzzle has all of these tags.
    public var tags: [String] = []
    /// Every kept puzzle has this computed level.
    public var level: Int?
    public var count = 10
    public var seed: UInt64 = 1

    public init(like: [Question] = [], tags: [String] = [], level: Int? = nil, count: Int = 10, seed: UInt64 = 1) {
        self.like = like
        self.tags = tags
        self.level = level
        self.count = count
        self.seed = seed
    }

    /// Candidates tried before giving up on reaching `count`.
    public var attemptLimit: Int { 200 + count * 80 }
}

/// The puzzles kept and the candidates dropped, by reason.
public struct GenerationReport: Sendable {
    public var puzzles: [GeneratedPuzzle] = []
    public var drops: [DropReason: Int] = [:]
    public var attempts = 0
    /// Puzzles dropped because reality did what the model does not allow, and what it did: each
    /// one a bug in the model or the runner, worth reporting.
    public var disagreements: [(puzzle: GeneratedPuzzle, detail: String)] = []

    /// "kept 100 of 164 candidates; dropped 64: 30 copies, 20 too few outcomes, …".
    public var summary: String {
        let dropped = drops.values.reduce(0, +)
        var text = "kept \(puzzles.count) of \(attempts) candidates"
        if dropped > 0 {
            let reasons = DropReason.allCases.compactMap { reason in drops[reason].map { "\($0) \(reason.words)" } }
            text += "; dropped \(dropped): " + reasons.joined(separator: ", ")
        }
        return text
    }
}

extension PuzzleGenerator {
    /// Failed candidates in a row after which a source is set aside for the rest of a run.
    static let sourcePatience = 25

    /// Candidates in a fixed order, each through the model's checks and then through `reality`
    /// (live runs, swiftc), until `request.count` are kept or the attempts run out. The same
    /// bank, request and reality give the same puzzles.
    public func generate(_ request: GenerationRequest, reality: [any RealityCheck] = [], parallel: Int = 2) throws -> GenerationReport {
        let pool = request.like.isEmpty
            ? variantSources.filter { source in request.tags.allSatisfy(source.tags.contains) }
            : request.like
        let filter = Filter(level: request.level, tags: request.tags)
        var report = GenerationReport()
        var seen = Fingerprints()
        // Candidates in a row that each source gave nothing new: a small puzzle soon runs out of
        // variants that are not copies, and is then set aside.
        var misses: [String: Int] = [:]
        var memo = CheckMemo()
        search: while report.puzzles.count < request.count && report.attempts < request.attemptLimit {
            // The model's checks, one candidate after another, until enough are waiting.
            var batch: [GeneratedPuzzle] = []
            while report.puzzles.count + batch.count < request.count && report.attempts < request.attemptLimit {
                let active = pool.filter { misses[$0.id, default: 0] < Self.sourcePatience }
                if active.isEmpty && !request.like.isEmpty && batch.isEmpty { break search }
                if active.isEmpty && !request.like.isEmpty { break }
                let seed = Self.attemptSeed(request.seed, report.attempts)
                report.attempts += 1
                let draft = draft(from: active, fresh: request.like.isEmpty, level: request.level, tags: request.tags, seed: seed)
                let result = check(draft, avoiding: seen, filter: filter, memo: &memo)
                if let id = draft?.source?.id {
                    misses[id] = result.isSuccess ? 0 : misses[id, default: 0] + 1
                }
                switch result {
                case .success(let puzzle):
                    seen.insert(puzzle)
                    batch.append(puzzle)
                case .failure(let reason):
                    report.drops[reason, default: 0] += 1
                }
            }
            // Reality, several puzzles at a time.
            for check in reality where !batch.isEmpty {
                let found = try check.disagreements(batch, parallel: parallel)
                for (puzzle, detail) in zip(batch, found) {
                    guard let detail else { continue }
                    report.drops[check.dropReason, default: 0] += 1
                    report.disagreements.append((puzzle, detail))
                }
                batch = zip(batch, found).filter { $0.1 == nil }.map(\.0)
            }
            report.puzzles += batch
        }
        return report
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
