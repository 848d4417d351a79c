import DispatchModel
import Foundation

/// The choices a learner makes when starting a drill.
public struct DrillOptions: Sendable {
    public var tags: [String] = []
    public var level: Int?
    public var kind: Question.Kind?
    /// At most this many questions.
    public var count: Int?
    /// Orders the questions reproducibly; nil draws a fresh order.
    public var seed: UInt64?

    public init(tags: [String] = [], level: Int? = nil, kind: Question.Kind? = nil, count: Int? = nil, seed: UInt64? = nil) {
        self.tags = tags
        self.level = level
        self.kind = kind
        self.count = count
        self.seed = seed
    }
}

/// How one answer went.
public enum DrillResult: String, Sendable, Codable {
    /// Exact (trace) or right (choice, short).
    case right
    /// Incomplete (trace) or partly right.
    case partial
    case wrong
    case skipped
}

public struct DrillRecord: Sendable {
    public var questionID: String
    public var tags: [String]
    public var result: DrillResult
    public var seconds: Double
}

/// A drill's questions and what the learner did with them. No I/O: the REPL drives it.
public final class DrillSession {
    public private(set) var questions: [Question]
    public private(set) var position = 0
    public private(set) var records: [DrillRecord] = []
    public let bank: Bank
    public let started = Date()
    public let seed: UInt64

    public init(bank: Bank, options: DrillOptions) {
        self.bank = bank
        seed = options.seed ?? UInt64.random(in: 1...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        let chosen = bank.questions(tags: options.tags, level: options.level, kind: options.kind)
            .shuffled(using: &generator)
        // Easy first: a stable sort by level keeps the shuffled order within a level.
        let ordered = chosen.enumerated().sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
        questions = options.count.map { Array(ordered.prefix(max($0, 0))) } ?? ordered
    }

    public var current: Question? {
        questions.indices.contains(position) ? questions[position] : nil
    }

    public var isFinished: Bool { position >= questions.count }

    public func advance() {
        position = min(position + 1, questions.count)
    }

    /// Makes the question with `id` the current one: it is put next in the session if it was
    /// not part of it. Returns false when the bank has no such question.
    @discardableResult
    public func jump(to id: String) -> Bool {
        if let index = questions.firstIndex(where: { $0.id == id }) {
            if index < position {
                questions.remove(at: index)
                position -= 1
                questions.insert(bank.question(id: id)!, at: position)
            } else {
                let question = questions.remove(at: index)
                questions.insert(question, at: position)
            }
            return true
        }
        guard let question = bank.question(id: id) else { return false }
        questions.insert(question, at: position)
        return true
    }

    /// Puts `question` back as the current one, to be asked again.
    public func again(_ question: Question) {
        questions.insert(question, at: position)
    }

    public func record(_ question: Question, _ result: DrillResult, seconds: Double) {
        records.append(DrillRecord(questionID: question.id, tags: question.tags, result: result, seconds: seconds))
    }

    public var summary: DrillSummary {
        DrillSummary(records: records, elapsed: Date().timeIntervalSince(started))
    }
}

/// Score, accuracy per tag and time: what the learner sees at `:score` and at the end.
public struct DrillSummary: Sendable {
    public var records: [DrillRecord]
    public var elapsed: Double

    public func count(_ result: DrillResult) -> Int { records.filter { $0.result == result }.count }

    public var answered: Int { records.filter { $0.result != .skipped }.count }

    /// Right answers count 1, partial ones ½.
    public var score: Double { Double(count(.right)) + Double(count(.partial)) / 2 }

    public var accuracy: Double { answered == 0 ? 0 : score / Double(answered) }

    /// Per tag: the score and the number of answered questions with that tag, weakest first.
    public var byTag: [(tag: String, score: Double, answered: Int)] {
        var totals: [String: (Double, Int)] = [:]
        for record in records where record.result != .skipped {
            let points = record.result == .right ? 1 : record.result == .partial ? 0.5 : 0
            for tag in record.tags {
                let (score, count) = totals[tag, default: (0, 0)]
                totals[tag] = (score + points, count + 1)
            }
        }
        return totals.map { (tag: $0.key, score: $0.value.0, answered: $0.value.1) }
            .sorted { ($0.score / Double($0.answered), $0.tag) < ($1.score / Double($1.answered), $1.tag) }
    }
}

/// SplitMix64: a small, good, seedable generator, so that `--seed` reproduces a session.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
