import DispatchModel

// The pieces every JSON document shares (`solve`, `check`, `export --format json`), so that an
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
