import ConcurrencyModel
import Foundation

/// A bank on disk, read only as far as a command needs: `solve ID` reads the one file named
/// `ID.yaml` (the bank's convention), `list` reads every file but compiles no code, `validate`
/// compiles everything. Loading the whole bank costs tens of milliseconds, more than a solve.
public struct BankSource: Sendable {
    public var root: String

    public init(root: String) {
        self.root = root
    }

    /// Every question file, read and checked together.
    public func load(compilation: BankLoader.Compilation = .onDemand) -> Bank {
        BankLoader.load(paths: [root], compilation: compilation)
    }

    /// The question with `id`, from its own file when one is named after it, else from the whole
    /// bank; the problems of its file when that file is broken.
    public func question(id: String) -> Result<Question, ProblemList> {
        let named = BankLoader.questionFiles([root]).filter { file in
            let name = URL(fileURLWithPath: file).lastPathComponent
            return BankLoader.isQuestionFile(name) && name.prefix { $0 != "." } == id
        }
        if named.count == 1 {
            let (question, problems) = BankLoader.read(named[0])
            if let question, question.id == id { return .success(question) }
            if question == nil { return .failure(ProblemList(problems)) }
        }
        let bank = load()
        if let question = bank.question(id: id) { return .success(question) }
        return .failure(ProblemList([Problem(.error, "no question with id '\(id)'\(suggestion(for: id, in: bank))", at: nil)]))
    }

    private func suggestion(for id: String, in bank: Bank) -> String {
        let near = bank.questions.map(\.id).filter { $0.contains(id) || id.contains($0) }.prefix(5)
        return near.isEmpty ? "; 'gcdquiz list' shows every id" : "; did you mean \(near.joined(separator: ", "))?"
    }
}
