import DispatchModel
import Foundation

/// Every question found under a folder, plus every problem found on the way. A bad file costs
/// only itself: the rest of the bank loads and works.
public struct Bank: Sendable {
    public var questions: [Question]
    public var problems: [Problem]
    public var root: String
    /// Each trace puzzle's program, by id, as loading compiled it (to find its problems): kept so
    /// that solving, drilling or running it does not compile it again.
    var programs: [String: Program] = [:]

    public init(questions: [Question], problems: [Problem], root: String) {
        self.questions = questions
        self.problems = problems
        self.root = root
    }

    /// The question's snippet lowered to the IR: the one loading made, or a fresh compile for a
    /// question from elsewhere.
    public func program(of question: Question) -> Result<Program, ProblemList> {
        if let program = programs[question.id], self.question(id: question.id) == question {
            return .success(program)
        }
        return question.program()
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

/// Finds and reads question files. Checks each file alone (fields, code) and the files together
/// (unique ids).
public enum BankLoader {
    /// Loads every `.yaml`/`.yml` file under `paths` (folders are searched recursively; files are
    /// taken as they are), in path order.
    public static func load(paths: [String], root: String? = nil) -> Bank {
        var questions: [Question] = []
        var problems: [Problem] = []
        var firstByID: [String: Question] = [:]
        var programs: [String: Program] = [:]

        for file in questionFiles(paths) {
            guard let data = FileManager.default.contents(atPath: file) else {
                problems.append(Problem(.error, "cannot read the file", at: SourceLocation(file: file, line: 1, column: 1)))
                continue
            }
            guard let text = String(data: data, encoding: .utf8) else {
                problems.append(Problem(.error, "the file is not UTF-8 text", at: SourceLocation(file: file, line: 1, column: 1)))
                continue
            }
            let (parsed, found) = QuestionParser.parse(text, file: file)
            problems += found
            guard let question = parsed else { continue }
            if let first = firstByID[question.id] {
                let line = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .firstIndex { $0.hasPrefix("id:") }.map { $0 + 1 } ?? 1
                problems.append(Problem(
                    .error, "duplicate id '\(question.id)': \(first.file) already uses it",
                    at: SourceLocation(file: file, line: line, column: 1)))
                continue
            }
            if question.kind == .trace {
                switch question.program() {
                case .failure(let list):
                    problems += list.problems
                    continue
                case .success(let program):
                    programs[question.id] = program
                }
            }
            firstByID[question.id] = question
            questions.append(question)
        }
        let ids = Set(questions.map(\.id))
        let parents = Dictionary(uniqueKeysWithValues: questions.compactMap { question in question.follows.map { (question.id, $0) } })
        for question in questions {
            if let follows = question.follows, !ids.contains(follows) {
                problems.append(Problem(.error, "'follows: \(follows)' names no question of the bank", at: SourceLocation(file: question.file, line: 1, column: 1)))
            }
            // A question that (through others) follows itself would never be asked first.
            var chain = [question.id]
            while let parent = parents[chain.last!], chain.count <= parents.count {
                if parent == question.id {
                    problems.append(Problem(.error, "'follows' goes round in a circle: " + (chain + [parent]).joined(separator: " → "), at: SourceLocation(file: question.file, line: 1, column: 1)))
                    break
                }
                if chain.contains(parent) { break }
                chain.append(parent)
            }
        }
        var bank = Bank(questions: questions, problems: problems.sorted(by: Problem.byLocation), root: root ?? paths.first ?? ".")
        bank.programs = programs
        return bank
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
            for case let relative as String in enumerator where relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                found.append(base + "/" + relative)
            }
            files += found.sorted()
        }
        return files
    }
}
