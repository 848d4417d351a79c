import ConcurrencyModel
import Quiz

/// What every variant shows of a question alike: its title, code and text, and in the key its
/// outcomes, data races, live runs, model answer and key ideas, explanation and source. Made and
/// prepared for the templates once per question, however many variants ask it.
struct QuestionPartsView {
    struct KeyIdeaView {
        var idea: String
    }

    var title: String
    var questionID: String
    var hasCode: Bool
    var code: [CodeLineView]
    var prompt: [BlockView]
    var explanation: [BlockView]
    var source: String
    var hasSource: Bool
    var outcomes: [OutcomeView] = []
    var outcomeCount = 0
    /// Outcomes only other machines show (fewer cores, the other Foundation), labelled.
    var elsewhere: [OutcomeView] = []
    var hasElsewhere = false
    var races: [String] = []
    var hasLive = false
    var live: [LiveView] = []
    var modelAnswer: [BlockView] = []
    var keyIdeas: [KeyIdeaView] = []
    var hasKeyIdeas = false

    init(_ item: SheetItem) {
        let question = item.question
        title = question.title
        questionID = question.id
        hasCode = question.code != nil
        code = question.code.map(CodeLineView.snippet) ?? []
        // A stated language mode is part of the question: the answer depends on it.
        let modeLine = question.mode.map { "Compiled in \($0)." }
        prompt = ([modeLine, question.prompt].compactMap { $0 }.joined(separator: "\n\n")).nilIfEmpty.map(BlockView.blocks) ?? []
        explanation = BlockView.blocks(question.explanation)
        source = question.source
        hasSource = !question.source.isEmpty
        switch item.answer {
        case .trace(let trace):
            outcomes = trace.reports.map { OutcomeView($0, narrator: trace.exploration.narrator) }
            outcomeCount = outcomes.count
            elsewhere = trace.exploration.elsewhere.map { OutcomeView($0, narrator: trace.exploration.narrator) }
            hasElsewhere = !elsewhere.isEmpty
            races = trace.exploration.races.map(trace.exploration.narrator.words(for:))
            if let comparison = trace.live {
                hasLive = true
                live = [LiveView(comparison)]
            }
        case .choice:
            break
        case .short(let short):
            modelAnswer = BlockView.blocks(short.modelAnswer)
            keyIdeas = short.keyIdeas.map { KeyIdeaView(idea: $0.idea) }
            hasKeyIdeas = !keyIdeas.isEmpty
        }
    }
}

/// A question's parts, converted for the templates once. A view that holds it shows its entries
/// as its own (`TemplateSet.context` merges them in), so the templates need not know.
final class PreparedParts {
    let view: QuestionPartsView
    let entries: [String: Any]

    init(_ item: SheetItem) {
        view = QuestionPartsView(item)
        entries = TemplateSet.context(view) as? [String: Any] ?? [:]
    }
}

/// Each question's prepared parts, made on first use while a sheet is rendered.
final class PartsCache {
    private var prepared: [AnswerKey: PreparedParts] = [:]

    func parts(for item: SheetItem) -> PreparedParts {
        let key = AnswerKey(item.question)
        if let known = prepared[key] { return known }
        let parts = PreparedParts(item)
        prepared[key] = parts
        return parts
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
