import ConcurrencyModel
import LiveRun
import Foundation

/// A puzzle named on the command line: a question of the bank, a question file, or a bare
/// `.swift` snippet written against the prelude.
public struct Puzzle: Sendable {
    /// What to call it in output: the question's id, or the file's path.
    public var name: String
    public var question: Question?
    public var program: Program
    public var code: String

    /// A problem at a place in the puzzle's code, where its file has it (a question's code
    /// stands at its line in the YAML file).
    public func problem(_ message: String, at span: SourceSpan) -> Problem {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        let line = lines.indices.contains(span.line - 1) ? String(lines[span.line - 1]) : nil
        let local = Problem(.error, message, at: SourceLocation(file: question?.file ?? name, line: span.line, column: span.column), sourceLine: line)
        return question?.codeOrigin?.relocate(local) ?? local
    }
}

/// A puzzle to run live: its code, and the model's program of it or why the model refuses it.
public struct LiveTarget: Sendable {
    public var name: String
    public var question: Question?
    public var code: String
    public var program: Result<Program, ProblemList>
    /// The language mode stated for it (nil: the default for its code), known also when the
    /// model refuses the code.
    public var mode: LanguageMode?
}

extension Question {
    /// The question answered in `mode` instead of its own, when one is given.
    public func inMode(_ mode: LanguageMode?) -> Question {
        guard let mode else { return self }
        var question = self
        question.mode = mode
        return question
    }
}

/// Resolves `ID|FILE` arguments, reading no more of the bank than the argument needs (a file
/// needs none of it: the bank is not even looked for). Every failure is a `ProblemList` with a
/// message that says what to do.
public enum PuzzleResolver {
    /// `mode` (`--mode`) overrides a question's own `mode:` and a snippet's default mode.
    public static func resolve(_ argument: String, bank: @autoclosure () throws -> BankSource?, mode: LanguageMode? = nil) throws -> Puzzle {
        if isSnippetFile(argument) {
            let text = try read(argument)
            let program = try SnippetCompiler.compile(text, fileName: argument, mode: mode).get()
            return Puzzle(name: argument, question: nil, program: program, code: text)
        }
        return try puzzle(from: question(argument, bank: try bank()).inMode(mode))
    }

    /// Like `resolve(_:bank:)`, for a command that has loaded the whole bank already.
    public static func resolve(_ argument: String, in bank: Bank) throws -> Puzzle {
        if isSnippetFile(argument) || BankLoader.isQuestionFile(argument) {
            return try resolve(argument, bank: nil)
        }
        guard let question = bank.question(id: argument) else {
            return try resolve(argument, bank: BankSource(root: bank.root))
        }
        return try puzzle(from: question, in: bank)
    }

    /// A question by id, or the question in a `.yaml` file.
    public static func question(_ argument: String, bank: @autoclosure () throws -> BankSource?) throws -> Question {
        if BankLoader.isQuestionFile(argument) {
            let (question, problems) = BankLoader.read(argument)
            guard let question else { throw ProblemList(problems) }
            if question.kind.hasCode, case .failure(let list) = question.program() { throw list }
            return question
        }
        guard let bank = try bank() else {
            throw problem("no question bank found to look up '\(argument)': pass --bank PATH or set \(BankLocator.environmentVariable)")
        }
        return try bank.question(id: argument).get()
    }

    /// Like `question(_:bank:)`, for a command that has loaded the whole bank already.
    public static func question(_ argument: String, in bank: Bank) throws -> Question {
        if BankLoader.isQuestionFile(argument) { return try question(argument, bank: nil) }
        if let question = bank.question(id: argument) { return question }
        return try question(argument, bank: BankSource(root: bank.root))
    }

    /// A trace (or schedule) question as a puzzle; its program from `bank` when it has compiled it already.
    public static func puzzle(from question: Question, in bank: Bank? = nil) throws -> Puzzle {
        guard question.kind.hasCode, let code = question.code else {
            throw problem("'\(question.id)' is a \(question.kind.rawValue) question, not a trace puzzle")
        }
        let program = try (bank?.program(of: question) ?? question.program()).get()
        return Puzzle(name: question.id, question: question, program: program, code: code)
    }

    /// A puzzle for a live run: its code, and its program if the model takes it. A snippet written
    /// with Swift concurrency runs compiled (`LiveRoute`), so the model's refusal does not stop
    /// its live runs; for any other, the refusal is thrown as `resolve` throws it.
    public static func liveTarget(_ argument: String, bank: @autoclosure () throws -> BankSource?, mode: LanguageMode? = nil) throws -> LiveTarget {
        let target: LiveTarget
        if isSnippetFile(argument) {
            let text = try read(argument)
            target = LiveTarget(name: argument, question: nil, code: text, program: SnippetCompiler.compile(text, fileName: argument, mode: mode), mode: mode)
        } else {
            let question: Question
            if BankLoader.isQuestionFile(argument) {
                let (read, problems) = BankLoader.read(argument)
                guard let read else { throw ProblemList(problems) }
                question = read
            } else {
                guard let bank = try bank() else {
                    throw problem("no question bank found to look up '\(argument)': pass --bank PATH or set \(BankLocator.environmentVariable)")
                }
                question = try bank.question(id: argument).get()
            }
            guard question.kind == .trace, let code = question.code else {
                throw problem("'\(question.id)' is a \(question.kind.rawValue) question, not a trace puzzle")
            }
            let stated = question.inMode(mode)
            target = LiveTarget(name: question.id, question: stated, code: code, program: stated.program(), mode: stated.mode)
        }
        if LiveRoute.route(for: target.code) == .interpreter, case .failure(let problems) = target.program { throw problems }
        return target
    }

    /// A `.swift` snippet (any case of the extension).
    public static func isSnippetFile(_ argument: String) -> Bool {
        argument.lowercased().hasSuffix(".swift")
    }

    private static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw problem("cannot read '\(path)': no such file, or not readable")
        }
        switch SourceText.decode(data, file: path) {
        case .success(let text): return text
        case .failure(let problem): throw ProblemList([problem])
        }
    }

    private static func problem(_ message: String) -> ProblemList {
        ProblemList([Problem(.error, message, at: nil)])
    }
}
