import ConcurrencyModel
import Quiz

/// How a trace puzzle is asked on paper (`--trace-as`).
public enum TraceForm: String, Sendable, CaseIterable {
    /// "Write every output it can print", with ruled lines.
    case write
    /// "Tick every output that can happen": real outcomes mixed with near misses the model
    /// proves impossible.
    case select
}

/// Everything a set of sheets and keys says, computed and ordered, before any format is chosen.
public struct Sheet: Sendable {
    public var title: String
    public var seed: UInt64
    public var traceForm: TraceForm
    public var variants: [Variant]
    /// The bank questions asked, in the order they were chosen (the answer notes' order).
    public var questionIDs: [String]
    /// Whether the variants are a class's students' (`--roster`): each page names its student.
    public var hasRoster: Bool { variants.contains { $0.student != nil } }
}

/// One student of a roster (`sheet --roster`): a name and an id to print on every page of their
/// variant, and optionally a seed of their own for it.
public struct Student: Sendable, Equatable {
    public var name: String
    public var id: String
    /// The seed the student's variant is made with (with its number), instead of the sheet's.
    public var seed: UInt64?

    public init(name: String, id: String, seed: UInt64? = nil) {
        self.name = name
        self.id = id
        self.seed = seed
    }
}

/// One student's version: the same questions as every other variant, in its own order, with its
/// own order of options.
public struct Variant: Sendable {
    /// 1-based.
    public var number: Int
    /// What the page shows and the file is named after: the number, zero-padded to the width of
    /// the variant count ("07" of 30).
    public var id: String
    /// The seed printed on the variant, which with its number makes it again (`check --variant N
    /// --seed S`): the sheet's, or the student's own.
    public var seed: UInt64
    /// Whose variant it is, with a roster.
    public var student: Student?
    public var items: [SheetItem]

    public var points: Int { items.map(\.scoring.points).reduce(0, +) }
}

/// One question as a variant asks it, with its computed answer.
public struct SheetItem: Sendable {
    /// 1-based place in the variant.
    public var number: Int
    /// The question asked (a generated twin's, when a provider replaced the bank's).
    public var question: Question
    /// The id of the bank question this item stands for: `question.id`, or the id of the puzzle a
    /// generated twin replaced.
    public var bankQuestionID: String
    public var answer: QuestionAnswer
    /// A choice question's options in the order this variant shows them: letter `a` is
    /// `optionOrder[0]`, an index into `question.options`.
    public var optionOrder: [Int]
    /// A trace puzzle asked as "tick every output that can happen": the outcomes offered, in order.
    public var traceOptions: [TraceOption]
    /// Near misses with the model's reason: the impossible options (select), or the wrong answers
    /// a grader will meet (write).
    public var distractors: [Distractor]
    public var scoring: Scoring
    /// For a question answered by ticking boxes (a trace puzzle's outcomes, a choice question with
    /// several correct options): the one rule that scores it.
    public var tickScoring: TickScoring?
}

/// One outcome offered in a "tick every output that can happen" question.
public struct TraceOption: Sendable {
    public var outcome: Outcome
    /// Set when the outcome cannot happen: the near miss and the model's reason.
    public var distractor: Distractor?

    public var canHappen: Bool { distractor == nil }
}

/// Suggested points for a question, and the rule to award them.
public struct Scoring: Sendable, Equatable {
    public var points: Int
    public var rule: String
}
