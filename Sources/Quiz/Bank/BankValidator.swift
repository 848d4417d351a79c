import ConcurrencyModel

/// Checks that go beyond reading a file: every trace puzzle must be fully explorable, so that the
/// answer the trainer computes is the whole truth and never a partial one.
public enum BankValidator {
    public static func validate(_ bank: Bank, explorer: Explorer = Explorer()) -> [Problem] {
        var problems = bank.problems
        for question in bank.questions where question.kind == .trace {
            guard case .success(let program) = bank.program(of: question) else { continue }
            let exploration = explorer.explore(program)
            if let stop = exploration.stop, let code = question.code {
                // At the place the stop is about (a loop), or at the code's first line.
                let puzzle = Puzzle(name: question.id, question: question, program: program, code: code)
                problems.append(puzzle.problem("'\(question.id)': \(stop): make the puzzle smaller (fewer iterations or threads)",
                                               at: stop.span ?? SourceSpan(line: 1, column: 1)))
            }
        }
        return problems.sorted(by: Problem.byLocation)
    }
}
