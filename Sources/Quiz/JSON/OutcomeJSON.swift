import DispatchModel
import LiveRun

// The pieces every JSON document shares (`solve`, `run`, `check`, `export --format json`), so that an
// outcome or a reason reads the same wherever a script meets it.

/// The version of the JSON shapes, in every document as `"schema"`: fields are added, never
/// renamed or removed; it counts incompatible changes.
public let jsonSchemaVersion = 1

/// An outcome as JSON: its lines, how it ends, the answer notation that writes it, and the
/// narrator's words for why it ends so (deadlocks and crashes; absent for a finished run).
public struct OutcomeJSON: Encodable, Sendable {
    public var lines: [String]
    public var end: String
    public var notation: String
    public var reason: String?

    public init(_ outcome: Outcome, reason: String? = nil) {
        lines = outcome.lines
        end = outcome.end.rawValue
        notation = AnswerNotation.render(outcome)
        self.reason = reason
    }

    /// An outcome seen live: `end` may also be `crash` or `timeout`, and the notation writes
    /// every ending but `finished` as the run stopping there, as a learner would predict it.
    public init(_ outcome: LiveOutcome, reason: String? = nil) {
        self.init(Outcome(lines: outcome.lines, end: outcome.end == .finished ? .finished : .deadlock), reason: reason)
        end = outcome.end.rawValue
    }
}

/// An outcome's fields with a document's own beside them, in one object (`{"lines", "end",
/// "notation", "count", …}`), so that each document adds to the shared shape without nesting it.
public struct OutcomeWith<Details: Encodable>: Encodable {
    public var outcome: OutcomeJSON
    public var details: Details

    public init(_ outcome: OutcomeJSON, _ details: Details) {
        self.outcome = outcome
        self.details = details
    }

    public func encode(to encoder: Encoder) throws {
        try outcome.encode(to: encoder)
        try details.encode(to: encoder)
    }
}

/// One reason an outcome cannot happen, as JSON: the rule by name and as a sentence, the
/// narrator's words for this case, and the line they point at.
public struct BlockerJSON: Encodable, Sendable {
    public var rule: String
    public var statement: String
    public var detail: String
    public var line: Int?

    public init(_ blocker: Blocker, narrator: Narrator) {
        rule = blocker.rule.rawValue
        statement = blocker.rule.statement
        detail = narrator.words(for: blocker)
        line = blocker.span?.line
    }
}
