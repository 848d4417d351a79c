import ConcurrencyModel

/// One question of the bank, as an instructor wrote it in a YAML file. Answers are never stored:
/// a trace question's outcomes are computed from its code by the model.
public struct Question: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
        /// Predict what a snippet prints.
        case trace
        /// Pick one or several options.
        case choice
        /// Answer in a few words.
        case short
        /// Be the scheduler: step the threads until the snippet does what `goal` says.
        case schedule
        /// Name the line to change so that a snippet stops deadlocking (or racing): "which line?".
        case line

        /// Whether the question asks about a snippet of its own (`code`).
        public var hasCode: Bool {
            switch self {
            case .trace, .schedule, .line: true
            case .choice, .short: false
            }
        }
    }

    public var id: String
    public var kind: Kind
    public var title: String
    /// 1 (first week) to 4 (the hardest an interview asks: the runtime's corners, Swift 6.2).
    public var level: Int
    /// The levels a question may have.
    public static let levels = 1...4
    public var tags: [String]
    /// Where the material comes from (a seed, a slide, an interview site).
    public var source: String
    /// Names the rules at work; shown after the learner answers.
    public var explanation: String
    /// The snippet of a trace or schedule question, exactly as the learner sees it and as it runs.
    public var code: String?
    /// What a schedule question asks the learner to make the snippet do, as written
    /// (`ScheduleGoal.read` reads it against the snippet): an outcome, `deadlock`, `crash` or `race`.
    public var goal: String?
    /// The language mode its answer is for (`mode:`); nil: the default for its code.
    public var mode: LanguageMode?
    /// What a choice or short question asks (trace questions ask about their code).
    public var prompt: String?
    /// A choice question's options, in the file's order.
    public var options: [ChoiceOption] = []
    /// A short question's model answer, shown after grading.
    public var modelAnswer: String?
    /// What a short answer must say to earn its points.
    public var keyIdeas: [KeyIdea] = []
    /// The id of the question this one follows in the drill.
    public var follows: String?
    /// Written by `gcdquiz generate` (its `source` names the puzzle it derives from and the seed).
    public var isGenerated = false
    /// Options shown in the file's order, never shuffled: a line question asked as a choice lists
    /// the lines of its code in order (which says nothing about which are right).
    public var keepsOptionOrder = false
    /// The file the question was read from, as shown in diagnostics.
    public var file: String
    /// Where `code` sits in `file`, to report a problem in the snippet at its place in the file.
    public var codeOrigin: CodeOrigin?
    /// Where each field's value starts in `file`, to place problems found across files (a
    /// duplicate id, a follow-up of no question) on their line.
    public var fieldPlaces: [String: FieldPlace] = [:]

    public init(
        id: String, kind: Kind, title: String, level: Int, tags: [String], source: String,
        explanation: String, code: String?, file: String, codeOrigin: CodeOrigin? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.level = level
        self.tags = tags
        self.source = source
        self.explanation = explanation
        self.code = code
        self.file = file
        self.codeOrigin = codeOrigin
    }

    /// A problem with the field `name`, placed at its value (or at the top of the file).
    public func problem(_ message: String, atField name: String) -> Problem {
        let place = fieldPlaces[name]
        return Problem(.error, message, at: place?.location ?? SourceLocation(file: file, line: 1, column: 1), sourceLine: place?.text)
    }

    /// The snippet lowered to the IR, with any problem placed in the question's file.
    public func program() -> Result<Program, ProblemList> {
        guard let code else {
            return .failure(ProblemList([Problem(.error, "question '\(id)' has no code", at: SourceLocation(file: file, line: 1, column: 1))]))
        }
        return SnippetCompiler.compile(code, fileName: file, mode: mode).mapError { list in
            ProblemList(list.problems.map { codeOrigin?.relocate($0) ?? $0 })
        }
    }
}

/// A field's place in its file, and the text of its line (to show under a problem).
public struct FieldPlace: Hashable, Sendable {
    public var location: SourceLocation
    public var text: String
}

/// One option of a choice question, and why it is wrong when it is.
public struct ChoiceOption: Hashable, Sendable {
    public var text: String
    public var isCorrect: Bool
    public var why: String?

    public init(text: String, isCorrect: Bool, why: String?) {
        self.text = text
        self.isCorrect = isCorrect
        self.why = why
    }
}

/// One idea a short answer must contain: any of `accept` says it. A phrase matches anywhere,
/// case-insensitively; `a + b` needs both parts; `/…/` is a regular expression.
public struct KeyIdea: Hashable, Sendable {
    public var idea: String
    public var accept: [String]

    public init(idea: String, accept: [String]) {
        self.idea = idea
        self.accept = accept
    }
}

/// Maps a position in a snippet embedded in a YAML file to the position in the file.
public struct CodeOrigin: Hashable, Sendable {
    /// The file line that holds the snippet's line 1.
    public var firstLine: Int
    /// Columns to add to a snippet column (the block's indentation).
    public var columnOffset: Int
    /// The file's lines, to show the line a problem is on.
    public var fileLines: [String]

    public init(firstLine: Int, columnOffset: Int, fileLines: [String]) {
        self.firstLine = firstLine
        self.columnOffset = columnOffset
        self.fileLines = fileLines
    }

    public func relocate(_ problem: Problem) -> Problem {
        guard var location = problem.location else { return problem }
        var moved = problem
        location.line += firstLine - 1
        location.column += columnOffset
        moved.location = location
        let index = location.line - 1
        moved.sourceLine = fileLines.indices.contains(index) ? fileLines[index] : problem.sourceLine
        return moved
    }
}
