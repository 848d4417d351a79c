import Foundation

/// QTI 1.2 (IMS Question and Test Interoperability, ASI), what Canvas and Blackboard import: one
/// assessment of one section, an item per question — multiple choice (one right option),
/// multiple answers (a trace puzzle's outcomes to tick, a choice question with several right
/// options) or essay (a short question, the model answer as feedback) — with Canvas's
/// `question_type` and `points_possible` metadata. Scores follow the tick rule (`TickScoring`):
/// each right answer adds its share of 100, each wrong one subtracts its share, and the score is
/// declared between 0 and 100. Packaged as an IMS content package: a ZIP with `imsmanifest.xml`.
enum QTIPackage {
    struct ItemView {
        struct AnswerView {
            var ident: String
            var html: String
            var setvar: String
            var action: String
            var hasScore: Bool
            var feedbackHTML: String
            var hasFeedback: Bool
        }

        var ident: String
        var title: String
        var questionType: String
        var points: Int
        var questionHTML: String
        var isChoice: Bool
        var isEssay: Bool
        var cardinality: String
        var answers: [AnswerView]
        var isSingle: Bool
        var correctIdent: String
        var generalFeedbackHTML: String
    }

    static let template = TemplateSet(["qti": ExportTemplates.qti, "qtiManifest": ExportTemplates.qtiManifest])

    /// The assessment's file inside the package.
    static let assessmentFile = "gcdquiz/gcdquiz.xml"

    static func assessment(_ items: [SheetItem]) -> String {
        template.render(["items": items.map(view)], "qti")
    }

    static func package(_ items: [SheetItem]) -> Data {
        let manifest = template.render(["file": assessmentFile], "qtiManifest")
        return StoredZip.archive([("imsmanifest.xml", Data(manifest.utf8)), (assessmentFile, Data(assessment(items).utf8))])
    }

    static func view(_ item: SheetItem) -> ItemView {
        let question = ExportQuestionView(item)
        let single = question.single == "true"
        let answers = question.answers.enumerated().map { index, answer in
            let value = Double(answer.fraction) ?? 0
            return ItemView.AnswerView(
                ident: Letters.letter(index), html: answer.html, setvar: MoodleFraction.text(abs(value)),
                action: value < 0 ? "Subtract" : "Add", hasScore: value != 0,
                feedbackHTML: answer.feedbackHTML, hasFeedback: answer.hasFeedback)
        }
        let type = question.isEssay ? "essay_question" : single ? "multiple_choice_question" : "multiple_answers_question"
        return ItemView(
            ident: "gcdquiz-" + question.id, title: question.title, questionType: type, points: question.defaultGrade,
            questionHTML: question.questionHTML, isChoice: question.isMultichoice, isEssay: question.isEssay,
            cardinality: single ? "Single" : "Multiple", answers: answers, isSingle: single,
            correctIdent: answers.first { (Double($0.setvar) ?? 0) >= 100 && $0.action == "Add" }?.ident ?? "",
            generalFeedbackHTML: question.generalFeedbackHTML)
    }
}
