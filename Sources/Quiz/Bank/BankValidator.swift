import ConcurrencyModel

/// Checks that go beyond reading a file: every trace and schedule puzzle must be fully
/// explorable, so that the answer the trainer computes is the whole truth and never a partial one;
/// a schedule question's goal must be one its snippet's prints can spell; every "which line?"
/// question must fail (deadlock or race) and have a line whose change the model finds is a fix.
public enum BankValidator {
    public static func validate(_ bank: Bank, explorer: Explorer = Explorer()) -> [Problem] {
        var problems = bank.problems
        for question in bank.questions where question.kind == .line {
            problems += lineProblems(question, explorer: explorer)
        }
        for question in bank.questions where question.kind == .trace || question.kind == .schedule {
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

    /// What makes a line question unaskable: a snippet that does nothing wrong, one no single
    /// line's change mends, or more lines than a sheet can letter (a to z).
    static func lineProblems(_ question: Question, explorer: Explorer) -> [Problem] {
        guard let code = question.code else { return [] }
        let culprits: CulpritLines
        switch CulpritLines.find(in: code, fileName: question.file, explorer: explorer) {
        case .success(let found): culprits = found
        case .failure(let list): return list.problems.map { question.codeOrigin?.relocate($0) ?? $0 }
        }
        if culprits.failures.isEmpty {
            return [question.problem("'\(question.id)': the snippet neither deadlocks nor races, so no line is to blame: a line question needs a failure", atField: "code")]
        }
        if culprits.fixes.isEmpty {
            return [question.problem("'\(question.id)': the snippet \(culprits.failureDescription), but no single line's change (removing it, sync → async, async → sync) mends it", atField: "code")]
        }
        let named = culprits.lines.filter(CulpritLines.isStatement).count
        if named > OptionLetter.all.count {
            return [question.problem("'\(question.id)': \(named) lines to choose from; a sheet letters at most \(OptionLetter.all.count): make the snippet shorter", atField: "code")]
        }
        return []
    }
}
