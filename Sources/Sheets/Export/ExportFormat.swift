import Foundation
import Quiz

/// The formats of `gcdquiz export`.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// Moodle XML: multichoice and essay questions for Moodle's question bank import.
    case moodle
    /// GIFT, Moodle's plain-text import format.
    case gift
    /// Anki's plain-text import, one Basic note per question.
    case anki
    /// The questions with their computed answers, for scripts.
    case json
    /// QTI 1.2 in an IMS content package (a ZIP), for Canvas and Blackboard.
    case qti

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .moodle: "xml"
        case .gift: "gift.txt"
        case .anki: "anki.txt"
        case .json: "json"
        case .qti: "zip"
        }
    }
}

/// Turns questions into an import file for an LMS or a flashcard program. Every answer in it is
/// computed as it is written, like a sheet's key.
public enum Exporter {
    /// The questions as one planned variant: bank order, options in the file's order, and each
    /// trace puzzle offered (`.select`) with up to ten real outcomes and three near misses,
    /// picked with `seed`; `provider` may ask a generated twin in place of a trace puzzle.
    /// - Parameter drillOrder: choice options in the order the drill shows them for `seed`
    ///   (`OptionOrder`), for a flashcard that shows its own letters; else the file's order, which
    ///   an LMS shuffles itself.
    public static func plan(_ questions: [Question], answers: AnswerBook, seed: UInt64, traceForm: TraceForm,
                            provider: VariantProvider = BankQuestionsOnly(), drillOrder: Bool = false) throws(SheetError) -> Sheet {
        var planner = SheetPlanner(title: "gcdquiz", seed: seed, variantCount: 1, traceForm: traceForm)
        planner.possibleOptions = MoodleFraction.maximumShares
        planner.shuffleChoices = false
        if drillOrder { planner.optionOrder = { OptionOrder.shuffled($0, seed: seed) } }
        return try planner.plan(questions, answers: answers, provider: provider)
    }

    public static func export(_ questions: [Question], as format: ExportFormat, answers: AnswerBook, seed: UInt64,
                              provider: VariantProvider = BankQuestionsOnly()) throws(SheetError) -> Data {
        // An LMS asks to select among outcomes and near misses; a flashcard and JSON ask for
        // every outcome (JSON lists the near misses beside them).
        let traceForm: TraceForm = switch format {
        case .moodle, .gift, .qti: .select
        case .anki, .json: .write
        }
        // Anki shows the options with letters on the card, in the drill's order for the seed, so
        // that neither the first letter nor the file's order gives the answer away.
        let sheet = try plan(questions, answers: answers, seed: seed, traceForm: traceForm, provider: provider, drillOrder: format == .anki)
        let items = sheet.variants[0].items
        switch format {
        case .moodle: return Data(MoodleXML.render(items).utf8)
        case .gift: return Data(GIFT.render(items).utf8)
        case .anki: return Data(AnkiText.render(items).utf8)
        case .json: return try QuestionsJSON.render(items, seed: seed)
        case .qti: return QTIPackage.package(items)
        }
    }
}
