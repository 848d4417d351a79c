import ConcurrencyModel
import Quiz

/// One variant's answer key as the templates see it: per question, what to accept in this
/// variant's order and letters, the points and the rule, and the note that says why.
struct KeySectionView {
    var header: VariantHeaderView
    var questions: [KeyAnswerView]
    /// The notes on the questions only this variant asks (its generated twins).
    var ownNotes: [NoteView]
    var hasOwnNotes: Bool

    init(_ variant: Variant, of sheet: Sheet, notes: AnswerNotes, parts: PartsCache) {
        header = VariantHeaderView(variant, of: sheet)
        questions = variant.items.map { item in
            KeyAnswerView(item, note: notes.noteNumber(variant: variant.number, item: item.number) ?? 0,
                          isBelow: notes.isOwn(variant: variant.number, item: item.number), parts: parts.parts(for: item))
        }
        ownNotes = notes.ownNotes(of: variant.number).map { NoteView($0, variantCount: sheet.variants.count, parts: parts.parts(for: $0.item)) }
        hasOwnNotes = !ownNotes.isEmpty
    }
}

/// A question in a variant's key: only what a grader needs and what differs between variants.
/// The question itself, the reasons and the explanation are in its note.
struct KeyAnswerView {
    var number: Int
    var points: Int
    var pointsWord: String
    var rule: String
    var noteNumber: Int
    /// Whether the note ends this key rather than the notes file.
    var noteIsBelow: Bool
    /// The title, id, outcomes and key ideas; the templates see its entries as this view's own.
    var parts: PreparedParts

    var isWrite = false
    var isSelect = false
    var ticks = ""
    var cannotHappen = ""
    var hasCannotHappen = false
    var isChoice = false
    var correctLetters = ""
    var isShort = false

    init(_ item: SheetItem, note: Int, isBelow: Bool = false, parts: PreparedParts) {
        number = item.number
        points = item.scoring.points
        pointsWord = points == 1 ? "point" : "points"
        rule = item.scoring.rule
        noteNumber = note
        noteIsBelow = isBelow
        self.parts = parts
        switch item.answer {
        case .trace:
            if item.traceOptions.isEmpty {
                isWrite = true
            } else {
                isSelect = true
                let letters = item.traceOptions.indices.map(Letters.letter)
                let possible = item.traceOptions.indices.filter { item.traceOptions[$0].canHappen }.map { letters[$0] }
                let impossible = item.traceOptions.indices.filter { !item.traceOptions[$0].canHappen }.map { letters[$0] }
                ticks = possible.isEmpty ? "none" : possible.joined(separator: ", ")
                cannotHappen = impossible.joined(separator: ", ")
                hasCannotHappen = !impossible.isEmpty
            }
        case .choice(let choice):
            isChoice = true
            correctLetters = Letters.of(choice.correct, in: item.optionOrder).joined(separator: ", ")
        case .short:
            isShort = true
        }
    }
}

/// A question's whole key, as an export gives it with the question: the computed answer in the
/// export's letters, why each wrong option or near miss is wrong, the points and the rule to award
/// them, and (in `parts`) its outcomes, model answer, explanation and source.
struct KeyQuestionView {
    struct OptionKeyView {
        var letter: String
        var outcome: OutcomeView
        var canHappen: Bool
        /// The model's reason, when it cannot happen (an empty list otherwise).
        var impossibility: [ImpossibilityView]
    }

    /// A choice option with whether it is correct and, when it is not, why.
    struct ChoiceKeyView {
        var letter: String
        var runs: [RunView]
        var isCorrect: Bool
        var why: [RunView]
        var hasWhy: Bool

        init(_ option: ChoiceOption, letter: String) {
            self.letter = letter
            runs = Prose.runs(option.text).map(RunView.init)
            isCorrect = option.isCorrect
            why = option.why.map { Prose.runs($0).map(RunView.init) } ?? []
            hasWhy = !why.isEmpty
        }
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
                ChoiceKeyView(question.options[index], letter: Letters.letter(position))
            }
        case .short:
            isShort = true
        }
    }
}
