/// The `:` commands of the drill, with their help lines; tab completion uses the names.
enum DrillCommandName: String, CaseIterable {
    case help, hint, skip, again, more, explain, run, schedule, right, wrong, show, list, goto, score, quit

    var usage: String {
        switch self {
        case .help: ":help              this list"
        case .hint: ":hint              a hint without the answer (trace: a rule at work; repeat for more)"
        case .skip: ":skip              leave this question for now: it comes back at the end"
        case .again: ":again             ask the last question again (a second answer is practice)"
        case .more: ":more              what the verdict left out: every reason, the whole schedule"
        case .explain: ":explain [OUTCOME] a schedule for an outcome, or why none exists (trace)"
        case .run: ":run [N]           run the snippet live N times (default 1000) (trace)"
        case .schedule: ":schedule [GOAL]   be the scheduler: pick the moves, to reach GOAL (trace, schedule)"
        case .right: ":right             count your short answer as right (overrule), until the next question"
        case .wrong: ":wrong             count your short answer as wrong (overrule), until the next question"
        case .show: ":show              show the question again"
        case .list: ":list [N]          the questions of this session (page N at a terminal)"
        case .goto: ":goto ID           jump to a question"
        case .score: ":score             the score so far"
        case .quit: ":quit              end the session (Ctrl-D too)"
        }
    }
}

struct DrillCommandLine {
    var name: DrillCommandName
    var argument: String

    /// Parses `:name rest`; names may be shortened when unambiguous (`:ex` is `:explain`).
    static func parse(_ line: String) -> Result<DrillCommandLine, DrillCommandError> {
        let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
        let word = String(body.prefix { !$0.isWhitespace }).lowercased()
        let argument = body.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
        if let exact = DrillCommandName(rawValue: word) {
            return .success(DrillCommandLine(name: exact, argument: argument))
        }
        let matches = DrillCommandName.allCases.filter { $0.rawValue.hasPrefix(word) }
        if matches.count == 1, !word.isEmpty {
            return .success(DrillCommandLine(name: matches[0], argument: argument))
        }
        if matches.count > 1, !word.isEmpty {
            return .failure(DrillCommandError(message: "':\(word)' could be " + matches.map { ":" + $0.rawValue }.joined(separator: ", ")))
        }
        return .failure(DrillCommandError(message: "unknown command ':\(word)'; :help lists them"))
    }
}

struct DrillCommandError: Error {
    var message: String
}
