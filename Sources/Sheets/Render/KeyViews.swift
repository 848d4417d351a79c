import DispatchModel
import Quiz

/// One variant's answer key as the templates see it.
struct KeySectionView {
    var header: VariantHeaderView
    var questions: [KeyQuestionView]

    init(_ variant: Variant, of sheet: Sheet, parts: PartsCache) {
        header = VariantHeaderView(variant, of: sheet)
        questions = variant.items.map { KeyQuestionView($0, parts: parts.parts(for: $0)) }
    }
}

/// A question's key: the computed answer in this variant's letters, the points and the rule to
/// award them, and (in `parts`) its outcomes, model answer, explanation and source.
struct KeyQuestionView {
    struct OptionKeyView {
        var letter: String
        var outcome: OutcomeView
        var canHappen: Bool
        /// The model's reason, when it cannot happen (an empty list otherwise).
        var impossibility: [ImpossibilityView]
    }

    struct ChoiceKeyView {
        var letter: String
        var runs: [RunView]
        var isCorrect: Bool
        var why: [RunView]
        var hasWhy: Bool
    }

    var number: Int
    var points: Int
    var pointsWord: String
    var rule: String
    /// What every variant shows alike; the templates see its entries as this view's own.
    var parts: PreparedParts

    var isTrace = false
    var isWrite = false
    var isSelect = false
    var ticks = ""
    var optionKeys: [OptionKeyView] = []
    var nearMisses: [ImpossibilityView] = []
    var hasNearMisses = false

    var isChoice = false
    var correctLetters = ""
    var choiceKeys: [ChoiceKeyView] = []

    var isShort = false

    init(_ item: SheetItem, parts: PreparedParts? = nil) {
        let question = item.question
        number = item.number
        points = item.scoring.points
        pointsWord = points == 1 ? "point" : "points"
        rule = item.scoring.rule
        self.parts = parts ?? PreparedParts(item)
        switch item.answer {
        case .trace:
            isTrace = true
            if item.traceOptions.isEmpty {
                isWrite = true
                nearMisses = item.distractors.map(ImpossibilityView.init)
                hasNearMisses = !nearMisses.isEmpty
            } else {
                isSelect = true
                optionKeys = item.traceOptions.enumerated().map { position, option in
                    OptionKeyView(letter: Letters.letter(position), outcome: OutcomeView(option.outcome),
                                  canHappen: option.canHappen, impossibility: option.distractor.map { [ImpossibilityView($0)] } ?? [])
                }
                let letters = optionKeys.filter(\.canHappen).map(\.letter)
                ticks = letters.isEmpty ? "none" : letters.joined(separator: ", ")
            }
        case .choice(let choice):
            isChoice = true
            correctLetters = Letters.of(choice.correct, in: item.optionOrder).joined(separator: ", ")
            choiceKeys = item.optionOrder.enumerated().map { position, index in
                let option = question.options[index]
                let why = option.why.map { Prose.runs($0).map(RunView.init) } ?? []
                return ChoiceKeyView(letter: Letters.letter(position), runs: Prose.runs(option.text).map(RunView.init),
                                     isCorrect: option.isCorrect, why: why, hasWhy: !why.isEmpty)
            }
        case .short:
            isShort = true
        }
    }
}
