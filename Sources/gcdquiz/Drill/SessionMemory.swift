import Foundation
import Progress
import Quiz

/// What a session remembers: the history recorded before it (to plan it) and where its answers
/// go, each committed as it is graded, so a session killed halfway keeps every answer given.
final class SessionMemory {
    /// Nil when nothing is recorded (`--no-progress`, no usable database).
    let recorder: ProgressRecorder?
    let history: ProgressHistory
    let mode: Mode
    let seed: UInt64
    /// The scored review of each question of the session, for an overrule.
    private var scored: [String: Review] = [:]

    init(recorder: ProgressRecorder?, history: ProgressHistory, mode: Mode, seed: UInt64) {
        self.recorder = recorder
        self.history = history
        self.mode = mode
        self.seed = seed
    }

    /// Whether the learner answered anything in an earlier session.
    var isReturning: Bool { history.reviewCount > 0 }

    /// Records one answer at once (a committed transaction). A failure is said once, on
    /// standard error, and the session goes on.
    func record(_ record: DrillRecord, of question: Question) {
        let review = Review(of: question, record: record, mode: mode, seed: seed, generated: question.isGenerated)
        if !record.isPractice && record.result != .skipped && scored[question.id] == nil { scored[question.id] = review }
        write(review)
    }

    /// Records that the time ran out on `question` (a mock interview): no answer, so not known.
    func recordUnanswered(_ question: Question, seconds: Double) {
        let record = DrillRecord(questionID: question.id, kind: question.kind, tags: question.tags, result: .wrong, seconds: seconds)
        var review = Review(of: question, record: record, mode: mode, seed: seed, generated: question.isGenerated)
        review.grade = .unanswered
        write(review)
    }

    private func write(_ review: Review) {
        if let failure = recorder?.record(review) {
            Output.write("gcdquiz: \(failure)\n", to: .standardError)
        }
    }

    /// The learner overruled the grade of a question's scored answer.
    func regrade(_ record: DrillRecord) {
        guard var review = scored[record.questionID] else { return }
        review.grade = Grade(record.result, kind: record.kind)
        review.overruledFrom = record.overruledFrom.map { Grade($0, kind: record.kind) }
        scored[record.questionID] = review
        if let failure = recorder?.regrade(review) {
            Output.write("gcdquiz: \(failure)\n", to: .standardError)
        }
    }
}
