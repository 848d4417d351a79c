import ConcurrencyModel
import Foundation

/// Every question found under a folder, plus every problem found on the way. A bad file costs
/// only itself: the rest of the bank loads and works.
public struct Bank: Sendable {
    public var questions: [Question]
    public var problems: [Problem]
    public var root: String
    /// Each trace puzzle's program, by id, compiled once: by loading (`.eager`) or when first
    /// needed, so that solving, drilling or running it does not compile it again.
    let programs: ProgramCache

    public init(questions: [Question], problems: [Problem], root: String) {
        self.init(questions: questions, problems: problems, root: root, programs: ProgramCache())
    }

    init(questions: [Question], problems: [Problem], root: String, programs: ProgramCache) {
        self.questions = questions
        self.problems = problems
        self.root = root
        self.programs = programs
    }

    /// The question's snippet lowered to the IR, compiled once per bank; a question from
    /// elsewhere (or edited) is compiled afresh.
    public func program(of question: Question) -> Result<Program, ProblemList> {
        guard self.question(id: question.id) == question else { return question.program() }
        return programs.program(of: question)
    }

    public func question(id: String) -> Question? {
        questions.first { $0.id == id }
    }

    /// Questions with every one of `tags` (if any) and the given level (if any), in bank order.
    public func questions(tags: [String] = [], level: Int? = nil, kind: Question.Kind? = nil) -> [Question] {
        questions.filter { question in
            tags.allSatisfy(question.tags.contains) && (level == nil || question.level == level)
                && (kind == nil || question.kind == kind)
        }
    }

    /// Every topic of the taxonomy, in its order, with how many questions of the bank it tags.
    public var topicCounts: [(topic: Topic, count: Int)] {
        var counts: [String: Int] = [:]
        for question in questions { for tag in question.tags { counts[tag, default: 0] += 1 } }
        return Topic.all.map { ($0, counts[$0.name] ?? 0) }
    }
}

/// A cache of compiled programs a bank and its copies share; compiling is pure, so a race
/// between two threads only costs a second compile.
final class ProgramCache: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [String: Result<Program, ProblemList>] = [:]

    func program(of question: Question) -> Result<Program, ProblemList> {
        if let known = lock.withLock({ results[question.id] }) { return known }
        let result = question.program()
        lock.withLock { results[question.id] = result }
        return result
    }
}

/// Finds and reads question files. Checks each file alone (fields, and with `.eager` the code)
/// and the files together (unique ids, follow-ups). Each file is read and checked on its own: a
/// broken one costs only itself.
public enum BankLoader {
    /// When trace puzzles' code is compiled.
    public enum Compilation: Sendable {
        /// While loading: a puzzle whose code does not compile is left out, with its problems
        /// (for `validate`, and for commands that use every puzzle).
        case eager
        /// When a puzzle is first used (`Bank.program(of:)`): for commands that read the bank's
        /// questions but not all of their code, such as `list` and the drill.
        case onDemand
    }

    /// Loads every question file (`.yaml`/`.yml`, any case) under `paths` (folders are searched
    /// recursively; files are taken as they are), in path order.
    public static func load(paths: [String], root: String? = nil, compilation: Compilation = .eager) -> Bank {
        var questions: [Question] = []
        var problems: [Problem] = []
        var firstByID: [String: Question] = [:]
        let cache = ProgramCache()

        for file in questionFiles(paths) {
            let (parsed, found) = read(file)
            problems += found
            guard let question = parsed else { continue }
            if let first = firstByID[question.id] {
                problems.append(question.problem("duplicate id '\(question.id)': \(first.file) already uses it", atField: "id"))
                continue
            }
            if question.kind == .trace || question.kind == .line, compilation == .eager, case .failure(let list) = cache.program(of: question) {
                problems += list.problems
                continue
            }
            firstByID[question.id] = question
            questions.append(question)
        }
        let ids = Set(questions.map(\.id))
        let parents = Dictionary(uniqueKeysWithValues: questions.compactMap { question in question.follows.map { (question.id, $0) } })
        for question in questions {
            if let follows = question.follows, !ids.contains(follows) {
                problems.append(question.problem("'follows: \(follows)' names no question of the bank", atField: "follows"))
            }
            // A question that (through others) follows itself would never be asked first.
            var chain = [question.id]
            while let parent = parents[chain.last!], chain.count <= parents.count {
                if parent == question.id {
                    problems.append(question.problem("'follows' goes round in a circle: " + (chain + [parent]).joined(separator: " → "), atField: "follows"))
                    break
                }
                if chain.contains(parent) { break }
                chain.append(parent)
            }
        }
        return Bank(questions: questions, problems: problems.sorted(by: Problem.byLocation), root: root ?? paths.first ?? ".", programs: cache)
    }

    /// One question file, read and checked alone: the question, or every problem found in it.
    public static func read(_ file: String) -> (question: Question?, problems: [Problem]) {
        guard let data = FileManager.default.contents(atPath: file) else {
            return (nil, [Problem(.error, "cannot read the file", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        switch SourceText.decode(data, file: file) {
        case .failure(let problem):
            return (nil, [problem])
        case .success(let text):
            return QuestionParser.parse(text, file: file)
        }
    }

    /// The question files under `paths`, sorted so that the bank's order is stable.
    public static func questionFiles(_ paths: [String]) -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                files.append(path)  // reported as unreadable by the caller
                continue
            }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            guard let enumerator = manager.enumerator(atPath: base) else { continue }
            var found: [String] = []
            for case let relative as String in enumerator where isQuestionFile(relative) {
                found.append(base + "/" + relative)
            }
            files += found.sorted()
        }
        return files
    }

    /// A question file's name ends in `.yaml` or `.yml`, in any case (`.YAML` too).
    public static func isQuestionFile(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
    }
}
