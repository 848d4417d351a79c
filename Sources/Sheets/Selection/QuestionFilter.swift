import Quiz

/// Which questions of the bank a sheet or an export asks: `--tag`, `--level`, `--kind`, `--ids`
/// and `--count`.
public struct QuestionFilter: Sendable, Equatable {
    /// Every one of these tags must be on a question.
    public var tags: [String]
    public var level: Int?
    public var kind: Question.Kind?
    /// When given, exactly these questions (in this order), still subject to the other filters.
    public var ids: [String]
    /// How many of the matching questions to take; all of them when nil.
    public var count: Int?

    public init(tags: [String] = [], level: Int? = nil, kind: Question.Kind? = nil, ids: [String] = [], count: Int? = nil) {
        self.tags = tags
        self.level = level
        self.kind = kind
        self.ids = ids
        self.count = count
    }

    /// The questions to ask, in bank order (or in `ids` order). When `count` is smaller than the
    /// number that match, `seed` chooses which ones, so that the same seed gives the same sheet.
    /// Schedule questions, played at a terminal, are never among them.
    public func select(from bank: Bank, seed: UInt64) throws(SheetError) -> [Question] {
        if kind == .schedule { throw Self.playedAtATerminal(nil) }
        var matching: [Question]
        if ids.isEmpty {
            matching = bank.questions(tags: tags, level: level, kind: kind).filter { $0.kind != .schedule }
        } else {
            matching = []
            for id in ids {
                guard let question = bank.question(id: id) else {
                    throw .badInput("no question with id '\(id)' in the bank; 'gcdquiz list' shows every id")
                }
                guard !matching.contains(where: { $0.id == id }) else {
                    throw .badInput("'\(id)' is named twice in --ids: a sheet asks each question once")
                }
                guard question.kind != .schedule else { throw Self.playedAtATerminal(id) }
                matching.append(question)
            }
            matching = matching.filter { question in
                tags.allSatisfy(question.tags.contains) && (level == nil || question.level == level)
                    && (kind == nil || question.kind == kind)
            }
        }
        guard !matching.isEmpty else {
            throw .badInput("no question matches \(description); 'gcdquiz list' with the same filters shows what there is")
        }
        matching = try matching.map(LineQuestions.asChoice)
        guard let count else { return matching }
        guard count >= 1 else { throw .badInput("--count must be at least 1") }
        guard count <= matching.count else {
            throw .badInput("--count \(count) asks for more questions than match \(description): \(matching.count) do")
        }
        var generator = SeededGenerator(seed: SeedMixer.mix(seed, "count"))
        let chosen = Set(Array(matching.indices).shuffled(using: &generator).prefix(count))
        return matching.indices.filter(chosen.contains).map { matching[$0] }
    }

    /// Why a schedule question (this one, or any) cannot be on a sheet or in an export.
    static func playedAtATerminal(_ id: String?) -> SheetError {
        .badInput((id.map { "'\($0)' is a schedule question" } ?? "schedule questions are") + " played at a terminal, "
                  + "picking moves ('gcdquiz schedule ID', or in the drill): sheets and exports cannot ask them")
    }

    /// The filters in words, for messages: "tag serial, level 2".
    public var description: String {
        var parts: [String] = []
        if !tags.isEmpty { parts.append((tags.count == 1 ? "tag " : "tags ") + tags.joined(separator: ", ")) }
        if let level { parts.append("level \(level)") }
        if let kind { parts.append("kind \(kind.rawValue)") }
        if !ids.isEmpty { parts.append("ids " + ids.joined(separator: ", ")) }
        return parts.isEmpty ? "the whole bank" : "the filters (" + parts.joined(separator: "; ") + ")"
    }
}
