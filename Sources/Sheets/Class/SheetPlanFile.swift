import ConcurrencyModel
import Foundation
import Quiz

/// `sheet-plan.json`, written beside every set of sheets: what each variant asks and how, so
/// that `gcdquiz grade` reads a class's answers against exactly what each student was given —
/// the questions in the variant's order, a choice question's options in its order, the outcomes
/// a "tick" question offered, a generated twin's code. It holds no answer: `grade` computes every
/// answer again from the code, as the key did.
public struct SheetPlanFile: Codable, Sendable {
    public struct Item: Codable, Sendable {
        public var number: Int
        /// The bank question the item stands for.
        public var bankQuestion: String
        /// The question asked: the bank's id, or a generated twin's.
        public var question: String
        /// A generated twin's code and title (a bank question's are in the bank).
        public var code: String?
        public var title: String?
        /// A choice question's options as shown, by index in the question file's order.
        public var options: [Int]?
        /// A "tick" trace question's outcomes as offered.
        public var offered: [Offered]?
    }

    /// An outcome offered to tick: in the answer notation, with the near miss it was made as
    /// when it cannot happen.
    public struct Offered: Codable, Sendable {
        public var outcome: String
        public var nearMiss: NearMiss?
    }

    public struct VariantPlan: Codable, Sendable {
        public var number: Int
        public var id: String
        public var seed: UInt64
        public var student: StudentEntry?
        public var items: [Item]
    }

    public struct StudentEntry: Codable, Sendable {
        public var name: String
        public var id: String
    }

    public var schema = 1
    public var title: String
    public var seed: UInt64
    public var traceAs: String
    /// The bank questions, in the order they were chosen.
    public var questions: [String]
    public var variants: [VariantPlan]

    /// The file's name in the output folder.
    public static let fileName = "sheet-plan.json"

    public init(_ sheet: Sheet) {
        title = sheet.title
        seed = sheet.seed
        traceAs = sheet.traceForm.rawValue
        questions = sheet.questionIDs
        variants = sheet.variants.map { variant in
            VariantPlan(number: variant.number, id: variant.id, seed: variant.seed,
                        student: variant.student.map { StudentEntry(name: $0.name, id: $0.id) },
                        items: variant.items.map { item in
                            Item(number: item.number, bankQuestion: item.bankQuestionID, question: item.question.id,
                                 code: item.question.isGenerated ? item.question.code : nil,
                                 title: item.question.isGenerated ? item.question.title : nil,
                                 options: item.question.kind == .choice ? item.optionOrder : nil,
                                 offered: item.traceOptions.isEmpty ? nil : item.traceOptions.map {
                                     Offered(outcome: AnswerNotation.render($0.outcome), nearMiss: $0.distractor?.kind)
                                 })
                        })
        }
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    public static func read(_ url: URL) throws(SheetError) -> SheetPlanFile {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .badInput("cannot read '\(url.path)': \(error.localizedDescription); it is written beside the sheets by 'gcdquiz sheet'")
        }
        do {
            let plan = try JSONDecoder().decode(SheetPlanFile.self, from: data)
            guard plan.schema == 1 else { throw SheetError.badInput("'\(url.path)' is of a newer gcdquiz (schema \(plan.schema))") }
            return plan
        } catch let error as SheetError {
            throw error
        } catch {
            throw .badInput("'\(url.path)' is not a sheet plan gcdquiz wrote: \(error)")
        }
    }

    /// The sheet again, every answer computed anew from the bank and the plan: each item asks
    /// the question the plan names, in the plan's order of options and offered outcomes.
    public func sheet(bank: Bank, answers: AnswerBook) throws(SheetError) -> Sheet {
        let form = TraceForm(rawValue: traceAs) ?? .write
        var rebuilt: [Variant] = []
        for variant in variants {
            var items: [SheetItem] = []
            for item in variant.items {
                guard var question = try bank.question(id: item.bankQuestion).map(LineQuestions.asChoice) else {
                    throw .badInput("the sheet asks '\(item.bankQuestion)', which the bank no longer has")
                }
                if let code = item.code {
                    question.id = item.question
                    question.code = code
                    question.title = item.title ?? question.title
                    question.isGenerated = true
                }
                items.append(try Self.item(item, question: question, form: form, answers: answers))
            }
            rebuilt.append(Variant(number: variant.number, id: variant.id, seed: variant.seed,
                                   student: variant.student.map { Student(name: $0.name, id: $0.id) }, items: items))
        }
        return Sheet(title: title, seed: seed, traceForm: form, variants: rebuilt, questionIDs: questions)
    }

    static func item(_ item: Item, question: Question, form: TraceForm, answers: AnswerBook) throws(SheetError) -> SheetItem {
        let answer = try answers.answer(for: question)
        switch answer {
        case .choice(let choice):
            let order = item.options ?? Array(question.options.indices)
            guard order.sorted() == Array(question.options.indices) else {
                throw .badInput("'\(question.id)' has \(question.options.count) options now, not the \(order.count) the sheet showed")
            }
            let (scoring, ticks) = Scoring.choice(choice, order: order, optionCount: question.options.count)
            return SheetItem(number: item.number, question: question, bankQuestionID: item.bankQuestion, answer: answer, optionOrder: order,
                             traceOptions: [], distractors: [], scoring: scoring, tickScoring: ticks)
        case .short(let short):
            return SheetItem(number: item.number, question: question, bankQuestionID: item.bankQuestion, answer: answer, optionOrder: [],
                             traceOptions: [], distractors: [], scoring: Scoring.short(short))
        case .trace(let trace):
            guard let offered = item.offered, form == .select else {
                return SheetItem(number: item.number, question: question, bankQuestionID: item.bankQuestion, answer: answer, optionOrder: [],
                                 traceOptions: [], distractors: [], scoring: Scoring.traceWritten(trace))
            }
            let grader = TraceGrader(exploration: trace.exploration)
            var options: [TraceOption] = []
            for entry in offered {
                guard let outcome = (try? grader.read(entry.outcome))?.first else {
                    throw .badInput("'\(question.id)' no longer prints the outcome '\(entry.outcome)' the sheet offered")
                }
                var option = TraceOption(outcome: outcome, distractor: nil)
                if !trace.outcomes.contains(outcome), case .wrong(let why) = grader.grade([outcome]).verdict {
                    let candidate = NearMissCandidate(outcome: outcome, kind: entry.nearMiss ?? .swappedLines, source: outcome)
                    option.distractor = Distractor(candidate: candidate, why: why)
                }
                options.append(option)
            }
            let (scoring, ticks) = Scoring.traceSelected(options)
            return SheetItem(number: item.number, question: question, bankQuestionID: item.bankQuestion, answer: answer, optionOrder: [],
                             traceOptions: options, distractors: options.compactMap(\.distractor), scoring: scoring, tickScoring: ticks)
        }
    }
}
