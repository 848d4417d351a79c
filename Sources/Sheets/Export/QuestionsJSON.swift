import ConcurrencyModel
import Foundation
import Quiz

/// `export --format json`: the questions with every answer computed, for scripts and other
/// tools. Choice letters follow the file's order; each option says whether it is correct.
struct QuestionsJSON: Encodable {
    struct DistractorEntry: Encodable {
        var outcome: OutcomeJSON
        var nearMiss: String
        /// The longest start of it that some schedule prints.
        var possiblePrefix: [String]
        /// What it says comes next, which cannot.
        var wanted: String
        var couldComeNext: [String]
        var because: [BlockerJSON]
    }

    struct OptionEntry: Encodable {
        var letter: String
        var text: String
        var correct: Bool
        var why: String?
    }

    struct KeyIdeaEntry: Encodable {
        var idea: String
        var accept: [String]
    }

    struct Entry: Encodable {
        var id: String
        var kind: String
        var title: String
        var level: Int
        var tags: [String]
        var code: String?
        /// A trace puzzle's prelude and the host's rules, which its answer depends on.
        var prelude: String?
        var rules: String?
        /// The language mode the question states ("Swift 6 + NonisolatedNonsendingByDefault").
        var mode: String?
        var prompt: String?
        var outcomes: [OutcomeJSON]?
        /// Outcomes only other machines show (fewer cores, the other Foundation), each with `cores` and `platform`.
        var elsewhere: [OutcomeJSON]?
        var races: [String]?
        var distractors: [DistractorEntry]?
        var options: [OptionEntry]?
        var correct: [String]?
        var answer: String?
        var keyIdeas: [KeyIdeaEntry]?
        var explanation: String
        var source: String
        var points: Int
        var scoring: String
    }

    var schema = jsonSchemaVersion
    var questions: [Entry]
    var count: Int
    var seed: UInt64

    static func render(_ items: [SheetItem], seed: UInt64) throws(SheetError) -> Data {
        let value = QuestionsJSON(questions: items.map(entry), count: items.count, seed: seed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value) + Data("\n".utf8)
        } catch {
            throw .internalFailure("cannot encode the questions as JSON: \(error)")
        }
    }

    static func entry(_ item: SheetItem) -> Entry {
        let question = item.question
        var entry = Entry(
            id: question.id, kind: question.kind.rawValue, title: question.title, level: question.level, tags: question.tags,
            code: question.code, prompt: question.prompt, explanation: question.explanation, source: question.source,
            points: item.scoring.points, scoring: item.scoring.rule)
        switch item.answer {
        case .trace(let trace):
            entry.prelude = HostRules.prelude
            entry.rules = HostRules.paragraph(swiftConcurrency: trace.exploration.program.usesTasks)
            entry.mode = question.mode.map { "\($0)" }
            entry.outcomes = trace.reports.map { OutcomeJSON($0, narrator: trace.exploration.narrator) }
            entry.elsewhere = trace.exploration.elsewhere.map { OutcomeJSON($0, narrator: trace.exploration.narrator) }
            entry.races = trace.exploration.races.map(trace.exploration.narrator.words(for:))
            entry.distractors = item.distractors.map { distractor in
                DistractorEntry(
                    outcome: OutcomeJSON(distractor.outcome), nearMiss: distractor.kind.rawValue,
                    possiblePrefix: distractor.why.longestPrefix, wanted: distractor.why.wanted.description,
                    couldComeNext: distractor.why.couldComeNext.map(\.description),
                    because: distractor.why.blockers.map { BlockerJSON($0, narrator: distractor.why.narrator) })
            }
        case .choice(let choice):
            entry.options = question.options.enumerated().map { index, option in
                OptionEntry(letter: Letters.letter(index), text: option.text, correct: option.isCorrect, why: option.why)
            }
            entry.correct = choice.correct.map(Letters.letter)
        case .short(let short):
            entry.answer = short.modelAnswer
            entry.keyIdeas = short.keyIdeas.map { KeyIdeaEntry(idea: $0.idea, accept: $0.accept) }
        }
        return entry
    }
}
