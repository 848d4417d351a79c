import DispatchModel
import Foundation

/// A puzzle named on the command line: a question of the bank, a question file, or a bare
/// `.swift` snippet written against the prelude.
public struct Puzzle: Sendable {
    /// What to call it in output: the question's id, or the file's path.
    public var name: String
    public var question: Question?
    public var program: Program
    public var code: String
}

/// Resolves `ID|FILE` arguments. Every failure is a `ProblemList` with a message that says what
/// to do instead.
public enum PuzzleResolver {
    public static func resolve(_ argument: String, in bank: Bank?) throws -> Puzzle {
        if argument.hasSuffix(".swift") {
            let text = try read(argument)
            let program = try SnippetCompiler.compile(text, fileName: argument).get()
            return Puzzle(name: argument, question: nil, program: program, code: text)
        }
        return try puzzle(from: question(argument, in: bank), in: bank)
    }

    /// A question by id, or the question in a `.yaml` file.
    public static func question(_ argument: String, in bank: Bank?) throws -> Question {
        if argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") {
            let text = try read(argument)
            let (question, problems) = QuestionParser.parse(text, file: argument)
            guard let question else { throw ProblemList(problems) }
            if question.kind == .trace, case .failure(let list) = question.program() { throw list }
            return question
        }
        guard let bank else {
            throw problem("no question bank found to look up '\(argument)': pass --bank PATH or set \(BankLocator.environmentVariable)")
        }
        if let question = bank.question(id: argument) {
            return question
        }
        if let broken = bank.problems.first(where: { ($0.location?.file ?? "").hasSuffix("/\(argument).yaml") }) {
            throw ProblemList(bank.problems.filter { $0.location?.file == broken.location?.file })
        }
        let near = bank.questions.map(\.id).filter { $0.contains(argument) || argument.contains($0) }.prefix(5)
        let hint = near.isEmpty ? "; 'gcdquiz list' shows every id" : "; did you mean \(near.joined(separator: ", "))?"
        throw problem("no question with id '\(argument)'\(hint)")
    }

    public static func puzzle(from question: Question, in bank: Bank? = nil) throws -> Puzzle {
        guard question.kind == .trace, let code = question.code else {
            throw problem("'\(question.id)' is a \(question.kind.rawValue) question, not a trace puzzle")
        }
        let program = try (bank?.program(of: question) ?? question.program()).get()
        return Puzzle(name: question.id, question: question, program: program, code: code)
    }

    private static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw problem("cannot read '\(path)': no such file, or not readable")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw problem("'\(path)' is not UTF-8 text")
        }
        return text
    }

    private static func problem(_ message: String) -> ProblemList {
        ProblemList([Problem(.error, message, at: nil)])
    }
}
