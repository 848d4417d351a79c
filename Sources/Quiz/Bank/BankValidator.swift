import DispatchModel

/// Checks that go beyond reading a file: every trace puzzle must be fully explorable, so that the
/// answer the trainer computes is the whole truth and never a partial one.
public enum BankValidator {
    public static func validate(_ bank: Bank, explorer: Explorer = Explorer()) -> [Problem] {
        var problems = bank.problems
        for question in bank.questions where question.kind == .trace {
            guard case .success(let program) = bank.program(of: question) else { continue }
            let exploration = explorer.explore(program)
            if !exploration.isComplete {
                problems.append(Problem(
                    .error,
                    "'\(question.id)' has more schedules than the explorer's budget (\(explorer.stateBudget) states): make the puzzle smaller (fewer iterations or threads)",
                    at: question.codeOrigin.map { SourceLocation(file: question.file, line: $0.firstLine, column: $0.columnOffset + 1) }
                        ?? SourceLocation(file: question.file, line: 1, column: 1)))
            }
        }
        return problems.sorted(by: Problem.byLocation)
    }
}
