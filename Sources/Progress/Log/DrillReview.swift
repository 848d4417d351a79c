import Foundation
import Quiz

extension Grade {
    /// What a drill result means in the log: a trace's right is `exact` and its partial
    /// `incomplete`, a schedule's right `reached` and its wrong `gave-up`, so the log says exactly
    /// what the learner saw.
    public init(_ result: DrillResult, kind: Question.Kind) {
        switch (result, kind) {
        case (.right, .trace): self = .exact
        case (.partial, .trace): self = .incomplete
        case (.right, .schedule): self = .reached
        case (.wrong, .schedule): self = .gaveUp
        case (.right, .choice), (.right, .short), (.right, .line): self = .right
        case (.partial, .choice), (.partial, .short), (.partial, .schedule), (.partial, .line): self = .partial
        case (.wrong, _): self = .wrong
        case (.skipped, _): self = .skipped
        }
    }
}

extension Review {
    /// A drill's answer to `question` as the log keeps it: the grade (and the grader's, when
    /// overruled), the answer as typed, the help used before answering, practice or not. `code`
    /// is kept for a generated puzzle, which no bank holds, so that it can come back for review.
    public init(of question: Question, record: DrillRecord, mode: Mode, seed: UInt64?, generated: Bool = false,
                at date: Date = Date()) {
        self.init(
            questionID: question.id, contentHash: generated ? ContentHash.of(code: question.code ?? "") : ContentHash.of(question),
            kind: question.kind, answeredAt: date, grade: Grade(record.result, kind: question.kind),
            overruledFrom: record.overruledFrom.map { Grade($0, kind: question.kind) }, answer: record.answer,
            seconds: record.seconds, hints: record.help.hints, explains: record.help.explained ? 1 : 0,
            runs: record.help.ran ? 1 : 0, mode: mode, seed: seed, topics: question.tags,
            code: generated ? question.code : nil, isPractice: record.isPractice)
    }
}
