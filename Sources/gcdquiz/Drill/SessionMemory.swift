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
    /// The review recorded last, for an overrule right after it.
    private var last: (questionID: String, review: Review)?

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
        write(Review(of: question, record: record, mode: mode, seed: seed, generated: question.isGenerated))
    }

    /// Records that the time ran out on `question` (a mock interview): no answer, so not known.
    func recordUnanswered(_ question: Question, seconds: Double) {
        let record = DrillRecord(questionID: question.id, kind: question.kind, tags: question.tags, result: .wrong, seconds: seconds)
        var review = Review(of: question, record: record, mode: mode, seed: seed, generated: question.isGenerated)
        review.grade = .unanswered
        write(review)
    }

    private func write(_ review: Review) {
        last = (review.questionID, review)
        if let failure = recorder?.record(review) {
            Output.write("gcdquiz: \(failure)\n", to: .standardError)
        }
    }

    /// The learner overruled the grade of the answer just recorded.
    func regrade(_ record: DrillRecord) {
        guard let last, last.questionID == record.questionID else { return }
        var review = last.review
        review.grade = Grade(record.result, kind: record.kind)
        review.overruledFrom = record.overruledFrom.map { Grade($0, kind: record.kind) }
        self.last = (last.questionID, review)
        if let failure = recorder?.regrade(review) {
            Output.write("gcdquiz: \(failure)\n", to: .standardError)
        }
    }
}
