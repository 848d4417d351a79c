import ConcurrencyModel

/// Checks that go beyond reading a file: every trace and schedule puzzle must be fully
/// explorable, so that the answer the trainer computes is the whole truth and never a partial one,
/// and a schedule question's goal must be one its snippet's prints can spell.
public enum BankValidator {
    public static func validate(_ bank: Bank, explorer: Explorer = Explorer()) -> [Problem] {
        var problems = bank.problems
        for question in bank.questions where question.kind.hasCode {
            guard case .success(let program) = bank.program(of: question) else { continue }
            let exploration = explorer.explore(program)
            if question.kind == .schedule, let goal = question.goal {
                do {
                    _ = try ScheduleGoal.read(goal, printable: PrintableLines(exploration: exploration))
                } catch {
                    problems.append(question.problem("unreadable goal \(AnswerError.excerpt(goal)): \(error.message)", atField: "goal"))
                }
            }
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
