import ConcurrencyModel
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

/// Help the learner used on a question before answering it: hints, `:explain`, `:run`. A right
/// answer after help is worth less to the review scheduler (FSRS "Hard"), so it is kept.
public struct DrillHelp: Sendable, Equatable, Hashable, Codable {
    public var hints: Int
    /// `:explain` before answering: it shows schedules, or why an outcome cannot happen.
    public var explained: Bool
    /// `:run` before answering: it shows what the snippet really prints.
    public var ran: Bool

    public init(hints: Int = 0, explained: Bool = false, ran: Bool = false) {
        self.hints = hints
        self.explained = explained
        self.ran = ran
    }

    public var isEmpty: Bool { hints == 0 && !explained && !ran }

    /// "2 hints, :run", for the learner.
    public var summary: String {
        var parts: [String] = []
        if hints > 0 { parts.append(hints == 1 ? "a hint" : "\(hints) hints") }
        if explained { parts.append(":explain") }
        if ran { parts.append(":run") }
        return parts.joined(separator: ", ")
    }
}

/// One answer given in a drill, as the progress store keeps it. Only the first answer to a
/// question in a session is scored; later tries (`:again`, `:goto`) are practice.
public struct DrillRecord: Sendable, Equatable, Codable {
    public var questionID: String
    public var kind: Question.Kind
    public var tags: [String]
    /// What counts: the grader's result, or the learner's when they overruled it.
    public var result: DrillResult
    /// The grader's result when the learner overruled it (`:right`, `:wrong`); nil otherwise.
    public var overruledFrom: DrillResult?
    public var seconds: Double
    /// The answer as the learner typed it (empty for a skip).
    public var answer: String
    /// What the learner looked at before answering.
    public var help: DrillHelp
    /// A try after the scored answer: shown, graded, never counted.
    public var isPractice: Bool

    public init(questionID: String, kind: Question.Kind, tags: [String], result: DrillResult, overruledFrom: DrillResult? = nil,
                seconds: Double, answer: String = "", help: DrillHelp = DrillHelp(), isPractice: Bool = false) {
        self.questionID = questionID
        self.kind = kind
        self.tags = tags
        self.result = result
        self.overruledFrom = overruledFrom
        self.seconds = seconds
        self.answer = answer
        self.help = help
        self.isPractice = isPractice
    }

    public var isOverruled: Bool { overruledFrom != nil }

    /// Right answers count 1, partial ones ½.
    public var points: Double {
        switch result {
        case .right: 1
        case .partial: 0.5
        case .wrong, .skipped: 0
        }
    }
}

/// Why an overrule was refused.
public enum OverruleRefusal: Error, Sendable, Equatable {
    /// The question on screen has no scored answer yet (nothing answered, or only skipped).
    case nothingGraded
    /// Trace and choice answers are graded exactly (by the model, by the answer key): only a
    /// short answer's grade, found by matching phrasings, is a judgement the learner may overrule.
    case exactlyGraded(Question.Kind)
    /// Only right or wrong can be asked for.
    case notAVerdict
}

/// A drill's questions and what the learner did with them. No I/O: the REPL drives it.
public final class DrillSession {
    public private(set) var questions: [Question]
    public private(set) var position = 0
    public private(set) var records: [DrillRecord] = []
    public let bank: Bank
    public let started = Date()
    public let seed: UInt64
    /// The kind the session is limited to (nil: every kind); follow-ups must be of it too.
    public let kind: Question.Kind?

    public init(bank: Bank, options: DrillOptions) {
        self.bank = bank
        kind = options.kind
        seed = options.seed ?? UInt64.random(in: 1...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        // A follow-up asks about "the puzzle you just solved": it comes only once its parent is
        // answered (`record`), never on its own.
        let chosen = bank.questions(tags: options.tags, level: options.level, kind: options.kind)
            .filter { !FollowUps.isFollowUp($0, in: bank) }
            .shuffled(using: &generator)
        // Easy first: a stable sort by level keeps the shuffled order within a level.
        let byLevel = chosen.enumerated().sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
        questions = options.count.map { Array(byLevel.prefix(max($0, 0))) } ?? byLevel
    }

    /// A session of exactly `questions`, in this order: a review's due ones, what was missed, a
    /// mock interview's. Follow-ups still come after their parent is answered.
    public init(bank: Bank, questions: [Question], seed: UInt64?, kind: Question.Kind? = nil) {
        self.bank = bank
        self.kind = kind
        self.seed = seed ?? UInt64.random(in: 1...UInt64.max)
        self.questions = questions
    }

    /// Puts `first` at the front, in their order, ahead of the rest of the session (bringing in
    /// those the session did not have): a returning learner starts with what is due.
    public func putFirst(_ first: [Question]) {
        guard position == 0, !first.isEmpty else { return }
        let ids = Set(first.map(\.id))
        questions = first + questions.filter { !ids.contains($0.id) }
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

    /// Records how the current question went, and returns the record. The first answer to a
    /// question is the scored one; a later answer is practice. A skip counts only until the
    /// question is answered. An answered question brings its follow-ups (`follows:`) right after
    /// it, even those the tag, level or count filters left out, as long as they are of the
    /// session's kind and were not asked yet: they ask about the question just answered, and
    /// make little sense anywhere else. A skipped question brings none.
    @discardableResult
    public func record(_ question: Question, _ result: DrillResult, seconds: Double, answer: String = "", help: DrillHelp = DrillHelp()) -> DrillRecord {
        let practice = scoredRecord(for: question.id) != nil
        let record = DrillRecord(
            questionID: question.id, kind: question.kind, tags: question.tags, result: result, seconds: seconds,
            answer: answer, help: help, isPractice: practice)
        if result == .skipped {
            // A skip after an answer, or a second skip, changes nothing.
            if practice || records.contains(where: { $0.questionID == question.id }) { return record }
        }
        records.append(record)
        if result != .skipped && !practice { bringFollowUps(of: question) }
        return record
    }

    /// `:skip`: records the skip and moves the current question to the end of the session, the
    /// first time; a question skipped twice is left out. Returns whether it comes back.
    @discardableResult
    public func skip(seconds: Double) -> Bool {
        guard let question = current else { return false }
        let comesBack = !skippedOnce.contains(question.id) && scoredRecord(for: question.id) == nil
        record(question, .skipped, seconds: seconds)
        questions.remove(at: position)
        if comesBack {
            skippedOnce.insert(question.id)
            questions.append(question)
        }
        return comesBack
    }

    /// Questions skipped once in this session: they came back at the end, or will.
    public private(set) var skippedOnce: Set<String> = []

    /// The answer that counts for the question: its first, unless skipped (then the skip, until
    /// an answer replaces it).
    public func scoredRecord(for id: String) -> DrillRecord? {
        records.first { $0.questionID == id && !$0.isPractice && $0.result != .skipped }
    }

    /// Whether a record for the question says it was practised after its scored answer.
    public func wasPractised(_ id: String) -> Bool {
        records.contains { $0.questionID == id && $0.isPractice }
    }

    private func bringFollowUps(of question: Question) {
        guard current?.id == question.id else { return }
        let asked = Set(records.filter { $0.result != .skipped }.map(\.questionID))
        var next = position + 1
        for followUp in FollowUps.of(question, in: bank, kind: kind) where !asked.contains(followUp.id) {
            if let index = questions.firstIndex(where: { $0.id == followUp.id }), index != position {
                questions.remove(at: index)
                if index < position { position -= 1; next -= 1 }
            }
            questions.insert(followUp, at: next)
            next += 1
        }
    }

    /// The order the options of a choice question are shown in, this session: shuffled with the
    /// session's seed. Letter `a` is `order[0]`.
    public func optionOrder(for question: Question) -> [Int] {
        OptionOrder.shuffled(question, seed: seed)
    }

    /// Replaces the grade of the scored answer to the question on screen with the learner's,
    /// keeping the grader's: right after the verdict, and still after `:again` and a practice
    /// answer, until the next question. Overruling back to the grader's result removes the
    /// overrule.
    @discardableResult
    public func overrule(to result: DrillResult) -> Result<DrillRecord, OverruleRefusal> {
        guard result == .right || result == .wrong else { return .failure(.notAVerdict) }
        guard let question = current,
              let index = records.firstIndex(where: { $0.questionID == question.id && !$0.isPractice && $0.result != .skipped })
        else { return .failure(.nothingGraded) }
        var scored = records[index]
        guard scored.kind == .short else { return .failure(.exactlyGraded(scored.kind)) }
        let graded = scored.overruledFrom ?? scored.result
        scored.result = result
        scored.overruledFrom = result == graded ? nil : graded
        records[index] = scored
        return .success(scored)
    }

    public var summary: DrillSummary {
        var scored: [DrillRecord] = []
        var seen = Set<String>()
        for record in records where seen.insert(record.questionID).inserted {
            scored.append(scoredRecord(for: record.questionID) ?? records.last { $0.questionID == record.questionID }!)
        }
        return DrillSummary(records: scored, practice: records.filter(\.isPractice).count, elapsed: Date().timeIntervalSince(started))
    }
}

/// Score, accuracy per tag and time: what the learner sees at `:score` and at the end.
public struct DrillSummary: Sendable {
    /// One record per question asked: its scored answer, or its skip.
    public var records: [DrillRecord]
    /// Tries after a scored answer, not counted.
    public var practice: Int
    public var elapsed: Double

    public init(records: [DrillRecord], practice: Int = 0, elapsed: Double) {
        self.records = records
        self.practice = practice
        self.elapsed = elapsed
    }

    /// Answers given after looking at help (hints, :explain, :run).
    public var helped: Int { records.filter { $0.result != .skipped && !$0.help.isEmpty }.count }

    public func count(_ result: DrillResult) -> Int { records.filter { $0.result == result }.count }

    /// Answers whose grade the learner overruled.
    public var overruled: Int { records.filter(\.isOverruled).count }

    public var answered: Int { records.filter { $0.result != .skipped }.count }

    /// Right answers count 1, partial ones ½.
    public var score: Double { records.map(\.points).reduce(0, +) }

    public var accuracy: Double { answered == 0 ? 0 : score / Double(answered) }

    /// Per tag: the score and the number of answered questions with that tag, weakest first.
    public var byTag: [(tag: String, score: Double, answered: Int)] {
        var totals: [String: (Double, Int)] = [:]
        for record in records where record.result != .skipped {
            for tag in record.tags {
                let (score, count) = totals[tag, default: (0, 0)]
                totals[tag] = (score + record.points, count + 1)
            }
        }
        return totals.map { (tag: $0.key, score: $0.value.0, answered: $0.value.1) }
            .sorted { ($0.score / Double($0.answered), $0.tag) < ($1.score / Double($1.answered), $1.tag) }
    }

    /// Per kind with answered questions: the score and the number answered, in the kinds' order.
    public var byKind: [(kind: Question.Kind, score: Double, answered: Int)] {
        Question.Kind.allCases.compactMap { kind in
            let answered = records.filter { $0.kind == kind && $0.result != .skipped }
            return answered.isEmpty ? nil : (kind, answered.map(\.points).reduce(0, +), answered.count)
        }
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
