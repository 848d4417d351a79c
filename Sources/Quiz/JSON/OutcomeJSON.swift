import ConcurrencyModel
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
    /// Where the model's outcome can happen: the core counts (`max` null: that many or more) and
    /// the platform ("any", "apple", "linux").
    public var cores: [CoreRangeJSON]?
    public var platform: String?
    /// A long live outcome's lines left out between the first and last ones in `lines`; absent
    /// when `lines` holds every line.
    public var omitted: Int?
    /// With `omitted`: how many lines the outcome has, and the hash of all of them (16 hex
    /// digits) that tells two long outcomes apart.
    public var lineCount: Int?
    public var hash: String?

    public init(_ outcome: Outcome, reason: String? = nil) {
        lines = outcome.lines
        end = outcome.end.rawValue
        notation = AnswerNotation.render(outcome)
        self.reason = reason
    }

    /// A model outcome with its reason and where it happens.
    public init(_ report: OutcomeReport, narrator: Narrator) {
        self.init(report.outcome, reason: report.deadlock.map(narrator.words(for:)))
        label(report.machines)
    }

    /// Adds where the outcome happens.
    public mutating func label(_ machines: MachineLabel) {
        cores = machines.coreRanges.map { CoreRangeJSON(min: $0.min, max: $0.max) }
        platform = machines.isOnAnyPlatform ? "any" : machines.platforms.map(\.rawValue).joined(separator: ",")
    }

    /// An outcome seen live: `end` may also be `crash` or `timeout`, and the notation writes
    /// every ending but `finished` as the run stopping there, as a learner would predict it. A
    /// long outcome keeps its first and last lines (`omitted`, `lineCount`, `hash`).
    public init(_ outcome: LiveOutcome, reason: String? = nil) {
        lines = outcome.lines
        end = outcome.end.rawValue
        notation = LiveNotation.render(outcome)
        self.reason = reason
        if let elision = outcome.elision {
            omitted = elision.omitted
            lineCount = outcome.lineCount
            hash = LiveNotation.hex(elision.digest)
        }
    }
}

/// A range of core counts: `max` is null for "that many or more".
public struct CoreRangeJSON: Encodable, Sendable {
    public var min: Int
    public var max: Int?

    enum CodingKeys: String, CodingKey { case min, max }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
    }
}

/// The machine a document answers for: its cores (null: enough that no block waits for a
/// thread) and platform.
public struct MachineJSON: Encodable, Sendable {
    public var cores: Int?
    public var platform: String
    public var enoughCores: Int

    enum CodingKeys: String, CodingKey { case cores, platform, enoughCores }

    public init(_ exploration: Exploration) {
        cores = exploration.machine.cores
        // Where the platforms cannot differ only Apple's is explored, and its answer is the
        // one asked for: say the platform asked for.
        platform = (exploration.platforms.count == 1 ? exploration.requested.platform : exploration.machine.platform).rawValue
        enoughCores = exploration.enoughCores
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cores, forKey: .cores)
        try container.encode(platform, forKey: .platform)
        try container.encode(enoughCores, forKey: .enoughCores)
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
