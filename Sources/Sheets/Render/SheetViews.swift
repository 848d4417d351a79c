import DispatchModel
import Quiz

/// What heads a variant's sheet and its key: the title, which variant of how many, the seed,
/// and the size of the test.
struct VariantHeaderView {
    var sheetTitle: String
    var variantID: String
    var variantCount: Int
    var seed: UInt64
    var questionCount: Int
    var totalPoints: Int

    init(_ variant: Variant, of sheet: Sheet) {
        sheetTitle = sheet.title
        variantID = variant.id
        variantCount = sheet.variants.count
        seed = sheet.seed
        questionCount = variant.items.count
        totalPoints = variant.points
    }
}

/// One variant's question sheet as the templates see it.
struct SheetSectionView {
    var header: VariantHeaderView
    var prelude: [CodeLineView]
    var questions: [SheetQuestionView]

    init(_ variant: Variant, of sheet: Sheet, parts: PartsCache) {
        header = VariantHeaderView(variant, of: sheet)
        prelude = CodeLineView.snippet(Prelude.source)
        questions = variant.items.map { SheetQuestionView($0, parts: parts.parts(for: $0)) }
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
    /// Ruled lines to write on, as many as the kind of question needs (never a hint of how many
    /// outcomes there are).
    var answerLines: [Int] = []
    var choices: [ChoiceOptionView] = []
    /// Whether the question's text lists the choice options (Anki's front does; a sheet and an
    /// LMS show them as answers of their own).
    var listChoices = false
    var outcomeOptions: [OutcomeOptionView] = []

    init(_ item: SheetItem, parts: PreparedParts? = nil) {
        let question = item.question
        number = item.number
        points = item.scoring.points
        pointsWord = points == 1 ? "point" : "points"
        self.parts = parts ?? PreparedParts(item)
        switch item.answer {
        case .trace:
            if item.traceOptions.isEmpty {
                isWrite = true
                answerLines = Array(1...5)
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
