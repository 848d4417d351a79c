import DispatchModel
import Quiz

/// One variant's answer key as the templates see it.
struct KeySectionView {
    var header: VariantHeaderView
    var questions: [KeyQuestionView]

    init(_ variant: Variant, of sheet: Sheet) {
        header = VariantHeaderView(variant, of: sheet)
        questions = variant.items.map(KeyQuestionView.init)
    }
}

/// A question's key: the computed answer in this variant's letters, the points and the rule to
/// award them, the explanation, and where the question comes from.
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

    struct KeyIdeaView {
        var idea: String
    }

    var number: Int
    var title: String
    var questionID: String
    var points: Int
    var pointsWord: String
    var rule: String
    var hasCode: Bool
    var code: [CodeLineView]
    var prompt: [BlockView]
    var explanation: [BlockView]
    var source: String
    var hasSource: Bool

    var isTrace = false
    var isWrite = false
    var isSelect = false
    var outcomes: [OutcomeView] = []
    var outcomeCount = 0
    var races: [String] = []
    var ticks = ""
    var optionKeys: [OptionKeyView] = []
    var nearMisses: [ImpossibilityView] = []
    var hasNearMisses = false
    var hasLive = false
    var live: [LiveView] = []

    var isChoice = false
    var correctLetters = ""
    var choiceKeys: [ChoiceKeyView] = []

    var isShort = false
    var modelAnswer: [BlockView] = []
    var keyIdeas: [KeyIdeaView] = []
    var hasKeyIdeas = false

    init(_ item: SheetItem) {
        let question = item.question
        number = item.number
        title = question.title
        questionID = question.id
        points = item.scoring.points
        pointsWord = points == 1 ? "point" : "points"
        rule = item.scoring.rule
        hasCode = question.code != nil
        code = question.code.map(CodeLineView.snippet) ?? []
        prompt = question.prompt.map(BlockView.blocks) ?? []
        explanation = BlockView.blocks(question.explanation)
        source = question.source
        hasSource = !question.source.isEmpty
        switch item.answer {
        case .trace(let trace):
            isTrace = true
            outcomes = trace.reports.map { OutcomeView($0.outcome, reason: $0.deadlock) }
            outcomeCount = outcomes.count
            races = trace.exploration.races.map(\.summary)
            if let comparison = trace.live {
                hasLive = true
                live = [LiveView(comparison)]
            }
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
        case .short(let short):
            isShort = true
            modelAnswer = BlockView.blocks(short.modelAnswer)
            keyIdeas = short.keyIdeas.map { KeyIdeaView(idea: $0.idea) }
            hasKeyIdeas = !keyIdeas.isEmpty
        }
    }
}
