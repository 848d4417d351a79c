import ConcurrencyModel
import Foundation

/// The answer to a "which line?" question, computed by the model: what goes wrong in the snippet
/// (it deadlocks or traps, or it has a data race), and each line whose change makes that go away.
/// A line is changed in the ways a learner means by "this line is the culprit": removing a line
/// that waits, or turning its `sync` into `async` (for a deadlock); its `async` into `sync` (for
/// a race). A change counts as a fix when the changed snippet compiles, is explored completely,
/// neither deadlocks nor races, and keeps what the snippet is for: after a deadlock every line
/// the snippet could print is still printed; after a race nothing new is.
public struct CulpritLines: Sendable {
    /// What the snippet does wrong.
    public enum Failure: String, Sendable, Hashable {
        case deadlock, race

        /// "deadlocks", "races": the failure in a sentence about the snippet.
        public var verb: String {
            switch self {
            case .deadlock: "deadlocks"
            case .race: "has a data race"
            }
        }
    }

    /// A change made to one line.
    public enum Change: Sendable, Hashable {
        case remove
        case syncToAsync
        case asyncToSync
        /// `NSLock()` → `NSRecursiveLock()`: the thread that holds the lock may take it again.
        case recursiveLock

        public var description: String {
            switch self {
            case .remove: "removing it"
            case .syncToAsync: "async instead of sync"
            case .asyncToSync: "sync instead of async"
            case .recursiveLock: "NSRecursiveLock instead of NSLock"
            }
        }

        /// The changed line, as the subject of a clause: "removed", "with async instead of sync".
        public var changedLine: String {
            switch self {
            case .remove: "removed"
            case .syncToAsync: "with async instead of sync"
            case .asyncToSync: "with sync instead of async"
            case .recursiveLock: "with NSRecursiveLock instead of NSLock"
            }
        }
    }

    /// What changing one line did, in the model's words.
    public struct Trial: Sendable, Hashable {
        public var line: Int
        public var change: Change
        /// Nil when the change is a fix; otherwise why not ("still deadlocks", "does not compile").
        public var failure: String?
        public var isFix: Bool { failure == nil }
    }

    /// The snippet's lines, as shown (line 1 first).
    public let lines: [String]
    /// What goes wrong in the snippet as written; empty when nothing does.
    public let failures: [Failure]
    /// Every change tried, by line then change.
    public let trials: [Trial]

    /// The lines whose change removes the failure, in order, each with the first change that does.
    public var fixes: [Trial] {
        var seen = Set<Int>()
        return trials.filter { $0.isFix && seen.insert($0.line).inserted }
    }

    /// Explores the snippet, then each line changed. A failure (the problems) when the snippet
    /// itself does not compile or its exploration does not finish.
    public static func find(in code: String, fileName: String = "<snippet>", explorer: Explorer = Explorer()) -> Result<CulpritLines, ProblemList> {
        let original: Program
        switch SnippetCompiler.compile(code, fileName: fileName) {
        case .success(let program): original = program
        case .failure(let problems): return .failure(problems)
        }
        let exploration = explorer.explore(original)
        if let stop = exploration.stop {
            return .failure(ProblemList([Problem(.error, "\(stop): make the snippet smaller", at: SourceLocation(file: fileName, line: 1, column: 1))]))
        }
        let failures = Self.failures(of: exploration)
        let printed = Self.printed(exploration)
        var lines = code.components(separatedBy: "\n")
        while lines.count > 1, lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        var trials: [Trial] = []
        if !failures.isEmpty {
            for (index, line) in lines.enumerated() where Self.isStatement(line) {
                for change in Self.changes(for: line, failures: failures) {
                    var changed = lines
                    changed[index] = Self.apply(change, to: line)
                    let outcome = Self.judge(changed.joined(separator: "\n"), fileName: fileName, explorer: explorer,
                                             failures: failures, printed: printed)
                    trials.append(Trial(line: index + 1, change: change, failure: outcome))
                }
            }
        }
        return .success(CulpritLines(lines: lines, failures: failures, trials: trials))
    }

    /// Why the changed snippet is no fix, or nil when it is one.
    static func judge(_ code: String, fileName: String, explorer: Explorer, failures: [Failure], printed: Set<String>) -> String? {
        guard case .success(let program) = SnippetCompiler.compile(code, fileName: fileName) else {
            return "the snippet no longer compiles"
        }
        let exploration = explorer.explore(program)
        if exploration.stop != nil { return "the model cannot finish exploring it" }
        let left = Self.failures(of: exploration)
        if left.contains(.deadlock) { return "it still deadlocks" }
        if left.contains(.race) { return failures.contains(.race) ? "the data race remains" : "it then has a data race" }
        let now = Self.printed(exploration)
        if failures.contains(.deadlock) {
            if let lost = printed.subtracting(now).sorted().first { return "it no longer prints \(lost)" }
        } else if let new = now.subtracting(printed).sorted().first {
            return "it then prints \(new), which the snippet never did"
        }
        return nil
    }

    static func failures(of exploration: Exploration) -> [Failure] {
        var found: [Failure] = []
        if exploration.outcomes.contains(where: { $0.end == .deadlock }) { found.append(.deadlock) }
        if !exploration.races.isEmpty { found.append(.race) }
        return found
    }

    static func printed(_ exploration: Exploration) -> Set<String> {
        Set(exploration.outcomes.flatMap(\.lines))
    }

    /// A line a learner could name: not blank, not a comment, not a lone closing brace.
    static func isStatement(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        return !text.isEmpty && !text.hasPrefix("//") && text.contains(where: { $0 != "}" && $0 != ")" && $0 != " " })
    }

    /// The changes tried on a line. For a deadlock: removing a line that waits (a `lock()`, a
    /// `wait`, a `sync`, an operation's dependency or wait), `sync` → `async`, and `NSLock()` →
    /// `NSRecursiveLock()` (a thread that takes its own lock again). For a race:
    /// `async` → `sync`. Removing any other line would mend the snippet by doing less (dropping
    /// the call that prints, or the racing write), which is not what "the culprit" means.
    static func changes(for line: String, failures: [Failure]) -> [Change] {
        var changes: [Change] = []
        if failures.contains(.deadlock), waits(line) { changes.append(.remove) }
        if failures.contains(.deadlock), line.range(of: ".sync") != nil { changes.append(.syncToAsync) }
        if failures.contains(.deadlock), line.range(of: "NSLock()") != nil { changes.append(.recursiveLock) }
        if failures.contains(.race), line.range(of: ".async") != nil, line.range(of: ".asyncAfter") == nil { changes.append(.asyncToSync) }
        return changes
    }

    /// Whether the line makes a thread wait, or owes a `leave()`: what can be to blame for a deadlock.
    static func waits(_ line: String) -> Bool {
        [".lock()", ".wait(", ".sync", "waitUntil", "addDependency", ".enter()"]
            .contains { line.range(of: $0) != nil }
    }

    static func apply(_ change: Change, to line: String) -> String {
        switch change {
        case .remove: ""
        case .syncToAsync: line.replacingOccurrences(of: ".sync", with: ".async", options: [], range: line.range(of: ".sync"))
        case .asyncToSync: line.replacingOccurrences(of: ".async", with: ".sync", options: [], range: line.range(of: ".async"))
        case .recursiveLock: line.replacingOccurrences(of: "NSLock()", with: "NSRecursiveLock()", options: [], range: line.range(of: "NSLock()"))
        }
    }

    /// The failure in words: "deadlocks", "has a data race", "deadlocks and has a data race".
    public var failureDescription: String {
        failures.map(\.verb).joined(separator: " and ")
    }

    /// The question a "which line?" question asks when its file does not say.
    public var defaultPrompt: String {
        let recursive = lines.contains { $0.range(of: "NSLock()") != nil } ? ", or make its NSLock an NSRecursiveLock" : ""
        let how = failures.contains(.deadlock) ? "remove a line that waits, or make its sync an async\(recursive)" : "make its async a sync"
        return "This snippet \(failureDescription). Which line would you change (\(how)) so that it no longer does?"
    }

    /// "5 (async instead of sync), 8 (removing it)": the lines that fix it, for keys and verdicts.
    public var fixList: String {
        fixes.map { "\($0.line) (\($0.change.description))" }.joined(separator: ", ")
    }

    /// Grades a line number (`5`, `line 5`, `L5`).
    public func grade(_ answer: String) throws(AnswerError) -> LineGrade {
        let text = answer.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let digits = text.drop { !$0.isNumber }
        let prefix = text.prefix { !$0.isNumber }.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw AnswerError("the answer is empty: give a line number, e.g. 5") }
        guard ["", "line", "l", "#"].contains(prefix), let number = Int(digits) else {
            throw AnswerError("not a line number: give one, e.g. 5")
        }
        guard lines.indices.contains(number - 1) else {
            throw AnswerError("the snippet has lines 1 to \(lines.count), not \(number)")
        }
        let tried = trials.filter { $0.line == number }
        if let fix = tried.first(where: \.isFix) {
            return LineGrade(line: number, isRight: true, reason: "changing line \(number) (\(fix.change.description)) is a fix: the snippet no longer \(failureDescription)")
        }
        if tried.isEmpty {
            return LineGrade(line: number, isRight: false, reason: Self.isStatement(lines[number - 1])
                ? "line \(number) \(failures.contains(.deadlock) ? "makes no thread wait (no lock(), wait, sync or enter())" : "dispatches nothing with async"), so changing it cannot be the mend"
                : "line \(number) holds no statement")
        }
        let reasons = tried.map { "\($0.change.changedLine), \($0.failure ?? "")" }.joined(separator: "; ")
        return LineGrade(line: number, isRight: false, reason: "changing line \(number) is no fix: \(reasons)")
    }
}

/// The verdict on one line number.
public struct LineGrade: Sendable, Equatable {
    public var line: Int
    public var isRight: Bool
    /// The model's reason, as a sentence without its final full stop.
    public var reason: String
}
