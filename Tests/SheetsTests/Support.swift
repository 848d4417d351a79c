import ConcurrencyModel
import Foundation
import Quiz
@testable import Sheets

/// The repository's bank, and small helpers to make sheets from it.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let bank = BankLoader.load(paths: [root.appendingPathComponent("Questions").path])

    /// Every trace puzzle of the bank.
    static let tracePuzzles = bank.questions.filter { $0.kind == .trace }.map(\.id)

    /// One of each kind, and a deadlock, for sheets that show everything.
    static let mixedIDs = ["serial-sync-in-async", "barrier-purpose", "async-operation-super-start", "concurrent-async-async",
                           "semaphore-basics", "operation-cycle-deadlock"]

    static func questions(_ ids: [String]) throws -> [Question] {
        try QuestionFilter(ids: ids).select(from: bank, seed: 1)
    }

    static func sheet(_ ids: [String] = mixedIDs, variants: Int = 3, seed: UInt64 = 42, form: TraceForm = .write) throws -> Sheet {
        try SheetPlanner(title: "Test <quiz> & co", seed: seed, variantCount: variants, traceForm: form)
            .plan(questions(ids), answers: AnswerBook(bank: bank))
    }

    /// Replaces every trace puzzle in variant n by `print(n)`, so that each variant asks its own.
    static var printingTwins: VariantProviding {
        VariantProviding { question, variant, _ in
            guard question.kind == .trace else { return nil }
            var twin = question
            twin.code = "print(\(variant))\n"
            return twin
        }
    }

    /// A trace question whose code and output hold every character GIFT and Anki treat specially.
    static let specialCharacters: Question = {
        let code = """
            var total = 0
            serialQueue.async {
                total = 1
                print("#{set}=", total)
            }
            print("main: {~:}\\\\ <b>&\\"", 2 == 2)

            """
        var question = Question(
            id: "special-characters", kind: .trace, title: "Braces {}, equals = and hash # in: code ~ and \\ too",
            level: 1, tags: ["test"], source: "tests", explanation: "The `{` and `}` and `=` and `#` must survive.",
            code: code, file: "special.yaml")
        question.prompt = nil
        return question
    }()

    static func text(_ file: OutputFile) -> String {
        String(decoding: file.contents, as: UTF8.self)
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-sheets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
