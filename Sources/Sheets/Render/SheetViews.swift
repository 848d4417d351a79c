import ConcurrencyModel
import Foundation
import Quiz

/// What heads a variant's sheet and its key: the title, which variant of how many, the seed,
/// and the size of the test.
struct VariantHeaderView {
    var sheetTitle: String
    /// The title in the running header, short enough to leave room for the variant line.
    var runningTitle: String
    var variantID: String
    var variantCount: Int
    /// The seed printed with the variant (the student's own, with a roster that gives one).
    var seed: UInt64
    var questionCount: Int
    var totalPoints: Int
    var hasStudent: Bool
    var studentName: String
    var studentID: String
    /// " · Ada Lovelace · s123", or nothing without a roster.
    var studentSuffix: String
    /// The PDF bookmarks of the variant's sheet and key.
    var sheetBookmark: String
    var keyBookmark: String
    /// The footer of the variant's sheet and key, on every page.
    var sheetFooter: String
    var keyFooter: String

    init(_ variant: Variant, of sheet: Sheet) {
        sheetTitle = sheet.title
        runningTitle = Self.shortened(sheet.title)
        variantID = variant.id
        variantCount = sheet.variants.count
        seed = variant.seed
        questionCount = variant.items.count
        totalPoints = variant.points
        hasStudent = variant.student != nil
        studentName = variant.student?.name ?? ""
        studentID = variant.student?.id ?? ""
        studentSuffix = variant.student.map { " · \($0.name) · \($0.id)" } ?? ""
        let whose = variant.student.map { " — \($0.name) (\($0.id))" } ?? ""
        sheetBookmark = "Variant \(variant.id)" + whose
        keyBookmark = "Key to variant \(variant.id)" + whose
        sheetFooter = variant.student.map { "\($0.name) · \($0.id)     Date: ______________" }
            ?? "Name: ______________________________   Date: ______________"
        keyFooter = "Answer key: not for students" + (variant.student.map { " · \($0.name) · \($0.id)" } ?? "")
    }

    /// The longest title the running header shows whole; a longer one is cut at a word.
    static let runningTitleLength = 60

    static func shortened(_ title: String) -> String {
        guard title.count > runningTitleLength else { return title }
        let cut = title.prefix(runningTitleLength - 1)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return atWord.trimmingCharacters(in: .whitespaces) + "…"
    }
}

/// One variant's question sheet as the templates see it.
struct SheetSectionView {
    var header: VariantHeaderView
    var prelude: [CodeLineView]
    var rules: String
    var notation = HostRules.notation
    var questions: [SheetQuestionView]
    /// How tick questions are scored, said once when the variant has any.
    var tickRule: String
    var hasTickRule: Bool

    init(_ variant: Variant, of sheet: Sheet, parts: PartsCache) {
        header = VariantHeaderView(variant, of: sheet)
        prelude = CodeLineView.snippet(Prelude.source)
        rules = HostRules.paragraph(swiftConcurrency: variant.items.contains { item in
            if case .trace(let trace) = item.answer { trace.exploration.program.usesTasks } else { false }
        })
        questions = variant.items.map { SheetQuestionView($0, parts: parts.parts(for: $0)) }
        tickRule = TickScoring.sheetRule
        hasTickRule = variant.items.contains { $0.tickScoring != nil }
    }
}

/// A question as the student sees it: what is asked and where to answer; no answer, no source.
struct SheetQuestionView {
    struct ChoiceOptionView {
        var letter: String
        var runs: [RunView]
    }

    struct OutcomeOptionView {
        var letter: String
        var outcome: OutcomeView
    }

    var number: Int
    var points: Int
    var pointsWord: String
    /// The title, code and text (and the key's parts, which a sheet does not show); the
    /// templates see its entries as this view's own.
    var parts: PreparedParts
    var isWrite = false
    var isSelect = false
    var isChoice = false
    var isShort = false
    /// Ruled lines to write on: for a trace puzzle sized to its answer, rounded so that it does
    /// not tell how many outcomes there are (`WritingSpace`).
    var answerLines: [Int] = []
    var choices: [ChoiceOptionView] = []
    /// Whether the question's text lists the choice options (Anki's front does; a sheet and an
    /// LMS show them as answers of their own).
    var listChoices = false
    var outcomeOptions: [OutcomeOptionView] = []
    /// A trace puzzle's answer depends on the prelude and the host's rules, which an export
    /// states in the question (a sheet states them once at its top).
    var hasHost = false
    var hostRules = HostRules.paragraph
    var hostPrelude = Self.preludeLines

    static let preludeLines = CodeLineView.snippet(HostRules.prelude).map { line in
        CodeLineView(lineNumber: "", source: line.source, isFirst: line.isFirst)
    }

    init(_ item: SheetItem, parts: PreparedParts? = nil) {
        let question = item.question
        number = item.number
        points = item.scoring.points
        pointsWord = points == 1 ? "point" : "points"
        self.parts = parts ?? PreparedParts(item)
        switch item.answer {
        case .trace(let trace):
            hasHost = true
            hostRules = HostRules.paragraph(swiftConcurrency: trace.exploration.program.usesTasks)
            if item.traceOptions.isEmpty {
                isWrite = true
                answerLines = Array(1...WritingSpace.lines(for: trace.outcomes))
            } else {
                isSelect = true
                outcomeOptions = item.traceOptions.enumerated().map { position, option in
                    OutcomeOptionView(letter: Letters.letter(position), outcome: OutcomeView(option.outcome))
                }
            }
        case .choice:
            isChoice = true
            choices = item.optionOrder.enumerated().map { position, index in
                ChoiceOptionView(letter: Letters.letter(position), runs: Prose.runs(question.options[index].text).map(RunView.init))
            }
        case .short:
            isShort = true
            answerLines = Array(1...6)
        }
    }
}
