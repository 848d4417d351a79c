import ConcurrencyModel
import Quiz

/// The answer notes as the templates see them: why each answer is right, once per question for
/// every variant.
struct NotesSectionView {
    struct Header {
        var sheetTitle: String
        var runningTitle: String
        /// "All 30 variants", or "Variant 1" for a sheet of one.
        var scope: String
        var seed: UInt64
        var noteCount: Int
        var questionsWord: String
        var isEmpty: Bool
        /// Whether some notes end a variant's key instead (generated twins).
        var hasOwnNotes: Bool
    }

    var header: Header
    var notes: [NoteView]

    init(_ notes: AnswerNotes, of sheet: Sheet, parts: PartsCache) {
        let count = sheet.variants.count
        header = Header(sheetTitle: sheet.title, runningTitle: VariantHeaderView.shortened(sheet.title), scope: count == 1 ? "Variant \(sheet.variants[0].id)" : "All \(count) variants",
                        seed: sheet.seed, noteCount: notes.shared.count,
                        questionsWord: notes.shared.count == 1 ? "question" : "questions", isEmpty: notes.shared.isEmpty,
                        hasOwnNotes: sheet.variants.contains { !notes.ownNotes(of: $0.number).isEmpty })
        self.notes = notes.shared.map { NoteView($0, variantCount: count, parts: parts.parts(for: $0.item)) }
    }
}

/// One question's note: the question, its computed answer with every reason, and the explanation.
/// Choice options are in the question file's order, without letters, and there are no points:
/// each variant letters the options its own way and may offer a different number of outcomes to
/// tick; its key gives both.
struct NoteView {
    var noteNumber: Int
    /// The variants asking it, when several but not all of them do (a generated twin the
    /// generator could make too few of, whose bank puzzle the rest ask).
    var askedBy: String
    var hasAskedBy: Bool
    /// The title, code, text, outcomes, live runs, model answer, explanation and source; the
    /// templates see its entries as this view's own.
    var parts: PreparedParts

    var isTrace = false
    var nearMisses: [ImpossibilityView] = []
    var hasNearMisses = false
    var nearMissHeading = ""
    var isChoice = false
    /// The options without letters.
    var options: [KeyQuestionView.ChoiceKeyView] = []
    var isShort = false

    init(_ note: AnswerNotes.Note, variantCount: Int, parts: PreparedParts) {
        let item = note.item
        noteNumber = note.number
        // A note asked by one variant ends that variant's key, which needs no saying.
        hasAskedBy = note.variantIDs.count > 1 && note.variantIDs.count < variantCount
        askedBy = "variants " + note.variantIDs.joined(separator: ", ")
        self.parts = parts
        switch item.answer {
        case .trace:
            isTrace = true
            nearMisses = note.distractors.map(ImpossibilityView.init)
            hasNearMisses = !nearMisses.isEmpty
            nearMissHeading = item.traceOptions.isEmpty
                ? "Wrong answers to expect"
                : "Options that cannot happen (each variant offers some of these)"
        case .choice:
            isChoice = true
            options = item.question.options.map { KeyQuestionView.ChoiceKeyView($0, letter: "") }
        case .short:
            isShort = true
        }
    }
}
