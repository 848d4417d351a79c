import Foundation
import Quiz

/// A question as the exports write it: HTML fragments for its text, answers and feedback,
/// rendered by the HTML templates (so escaped for HTML), which each file format then escapes
/// for itself.
struct ExportQuestionView {
    struct AnswerView {
        var fraction: String
        var hasWeight: Bool
        /// GIFT's `=`: the one right answer of a single-answer question.
        var isSingleCorrect: Bool
        var html: String
        var feedbackHTML: String
        var hasFeedback: Bool
    }

    var id: String
    var title: String
    var tags: [String]
    var type: String
    var isMultichoice: Bool
    var isEssay: Bool
    var single: String
    /// Moodle's `shuffleanswers`: false where the options are lines of code, in order.
    var shuffleAnswers: String
    var defaultGrade: Int
    var questionHTML: String
    var generalFeedbackHTML: String
    var graderInfoHTML: String
    var answers: [AnswerView]

    init(_ item: SheetItem) {
        let templates = TemplateSet.html
        let parts = PreparedParts(item)
        let asked = SheetQuestionView(item, parts: parts)
        let key = KeyQuestionView(item, parts: parts)
        let question = item.question
        id = question.id
        title = question.title
        tags = question.tags
        shuffleAnswers = question.keepsOptionOrder ? "false" : "true"
        defaultGrade = item.scoring.points
        questionHTML = templates.render(asked, "exportQuestion")
        let explanation = templates.render(key, "exportExplanation")
        graderInfoHTML = ""
        answers = []
        switch item.answer {
        case .trace:
            type = "multichoice"
            let options = Array(zip(item.traceOptions, key.optionKeys))
            let right = item.traceOptions.filter(\.canHappen).count
            let wrong = options.count - right
            // Always several answers allowed: a single-answer question would say there is exactly
            // one outcome, and grade a wrong pick below 0, where the sheet's rule stops at 0.
            let isSingle = false
            single = "false"
            answers = options.map { option, view in
                let fraction = option.canHappen ? MoodleFraction.share(of: right) : -MoodleFraction.share(of: wrong)
                let feedback = view.impossibility.first.map { templates.render($0, "exportImpossibility") } ?? ""
                return AnswerView(fraction: MoodleFraction.text(fraction), hasWeight: fraction != 0,
                                  isSingleCorrect: isSingle && option.canHappen,
                                  html: templates.render(view.outcome, "exportOutcome"),
                                  feedbackHTML: feedback, hasFeedback: !feedback.isEmpty)
            }
            generalFeedbackHTML = templates.render(key, "exportTraceAnswer") + explanation
        case .choice(let choice):
            type = "multichoice"
            single = choice.isSingle ? "true" : "false"
            let right = choice.correct.count
            let wrong = question.options.count - right
            answers = key.choiceKeys.map { option in
                let fraction: Double = option.isCorrect ? MoodleFraction.share(of: right) : choice.isSingle ? 0 : -MoodleFraction.share(of: wrong)
                let feedback = option.hasWhy ? templates.render(option, "exportWhy") : ""
                return AnswerView(fraction: MoodleFraction.text(fraction), hasWeight: fraction != 0,
                                  isSingleCorrect: choice.isSingle && option.isCorrect,
                                  html: templates.render(option, "exportRuns"), feedbackHTML: feedback, hasFeedback: !feedback.isEmpty)
            }
            generalFeedbackHTML = explanation
        case .short:
            type = "essay"
            single = "false"
            graderInfoHTML = templates.render(key, "exportShortAnswer") + explanation
            generalFeedbackHTML = graderInfoHTML
        }
        isMultichoice = type == "multichoice"
        isEssay = type == "essay"
    }
}

/// Moodle accepts only certain answer grades (question_bank::fraction_options_full, matched to
/// 0.00001 on import): 100/n for n up to 10, among others. Shares are chosen from those.
enum MoodleFraction {
    /// The most right (or wrong) answers whose equal shares are all grades Moodle accepts.
    static let maximumShares = 10

    static let allowed: [Double] = [100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                                    16.66667, 14.28571, 12.5, 11.11111, 10, 5]

    /// Each of `count` answers' share of 100%: the largest accepted grade not above 100/count.
    static func share(of count: Int) -> Double {
        guard count > 0 else { return 0 }
        let exact = 100 / Double(count)
        return allowed.first { $0 <= exact + 0.00001 } ?? 5
    }

    /// "100", "33.33333", "-50": as Moodle writes them.
    static func text(_ value: Double) -> String {
        var text = String(format: "%.5f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
