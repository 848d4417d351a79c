import ConcurrencyModel
import Foundation

/// Every line a snippet's prints can produce, so that an answer can be told apart from notation
/// the reader does not know: `->`, `[0,`, `finishd` are not lines of a snippet that prints
/// numbers, and grading them as a wrong prediction would cost the learner a point for a typo.
///
/// Computed, never listed by hand: the lines of the model's outcomes, the text of every print
/// whose items are constants (also one that never runs), and for a print of computed values a
/// pattern of what it can show (`print(i)` of an integer shows any integer; `print("x = \(x)")`
/// any `x = ` and an integer). A value whose type the IR does not say matches anything, so
/// that a plausible prediction is always graded, never refused.
public struct PrintableLines: Sendable {
    private var exact: Set<String>
    private var patterns: [String]
    /// Compiled once; `NSRegularExpression` is immutable and safe to share.
    private nonisolated(unsafe) var compiled: [NSRegularExpression]
    /// What each pattern's lines can begin and end with.
    private var edges: [PatternEdges]
    /// Every line of every possible outcome is one character: `1234` may stand for `1 2 3 4`.
    public var compactLines: Bool

    /// Accepts any line: for outcomes typed with no snippet to check them against.
    public static func any(compactLines: Bool) -> PrintableLines {
        PrintableLines(exact: [], patterns: [".*"], compactLines: compactLines)
    }

    init(exact: Set<String>, patterns: [String], compactLines: Bool) {
        self.exact = exact
        self.patterns = patterns
        self.compactLines = compactLines
        compiled = patterns.compactMap { try? NSRegularExpression(pattern: "^(?:" + $0 + ")$", options: [.dotMatchesLineSeparators]) }
        edges = patterns.map(PatternEdges.init)
    }

    public init(exploration: Exploration) {
        let printed = exploration.printedLines
        var exact = printed
        var patterns: [String] = []
        let shapes = ValueShapes(exploration.program)
        exploration.program.walk { statement, _ in
            guard case .print(let items) = statement.action else { return }
            let constant = items.map(\.constantValue)
            if constant.allSatisfy({ $0 != nil }) {
                // print splits its text into lines at line breaks, as the model does.
                let text = constant.map { $0!.description }.joined(separator: " ")
                exact.formUnion(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            } else {
                var pattern = items.map { shapes.pattern($0) }.joined(separator: " ")
                // A line break in the text splits it into lines: too rare to model, so lenient.
                if pattern.contains("\n") { pattern = ".*" }
                if !patterns.contains(pattern) { patterns.append(pattern) }
            }
        }
        self.init(exact: exact, patterns: patterns, compactLines: printed.allSatisfy { $0.count == 1 })
    }

    /// Whether some print of the snippet can produce `line`.
    public func contains(_ line: String) -> Bool {
        if exact.contains(line) { return true }
        let range = NSRange(line.startIndex..., in: line)
        return compiled.contains { $0.firstMatch(in: line, range: range) != nil }
    }

    /// Whether some printable line may hold `text` (an arrow, a bracket): then it is not notation.
    func mayContain(_ text: String) -> Bool {
        exact.contains { $0.contains(text) } || patterns.contains { $0.contains(".*") || $0.contains(NSRegularExpression.escapedPattern(for: text)) }
    }

    /// Whether some printable line may begin with `character`: then a `[` opening a word is a
    /// line's, not the notation's.
    func mayStart(with character: Character) -> Bool {
        exact.contains { $0.first == character } || edges.contains { $0.mayStart(with: character) }
    }

    /// Whether some printable line may end with `character`.
    func mayEnd(with character: Character) -> Bool {
        exact.contains { $0.last == character } || edges.contains { $0.mayEnd(with: character) }
    }

    /// The printable lines known exactly, for "did you mean" suggestions.
    var knownLines: Set<String> { exact }
}

/// What each variable of a program can hold, as regular-expression alternatives: enough to say
/// what a print of computed values can show. Unknown means anything.
private struct ValueShapes {
    static let integer = "-?[0-9]+"
    static let boolean = "true|false"
    static let anything = ".*"
    /// Beyond this many alternatives a variable is taken to hold anything.
    static let limit = 16

    let program: Program
    var variables: [VariableID: Set<String>] = [:]

    init(_ program: Program) {
        self.program = program
        // Each pass can only add alternatives; a few passes settle chains like `a = b; b = c`.
        for _ in 0..<4 {
            let before = variables
            program.walk { statement, _ in learn(from: statement.action) }
            if variables == before { break }
        }
    }

    /// A statement that gives a variable a value. A variable nothing assigns stays unknown, which
    /// is lenient: its prints match any line. A new action must say here whether it binds one.
    private mutating func learn(from action: Action) {
        switch action {
        case .assign(let assignment):
            switch assignment.operation {
            case .set: add(alternatives(assignment.value), to: assignment.target)
            case .add:
                add(Self.isInteger(alternatives(assignment.value)) ? [Self.integer] : [Self.anything], to: assignment.target)
            case .subtract: add([Self.integer], to: assignment.target)
            case .append: add(["\\[.*\\]"], to: assignment.target)
            }
        case .loop(let loop):
            if let variable = loop.variable { add([Self.integer], to: variable) }
        case .concurrentPerform(let perform):
            if let variable = perform.variable { add([Self.integer], to: variable) }
        case .call(let call):
            for argument in call.arguments { add(alternatives(argument.value), to: argument.parameter) }
            if let result = call.result { add(returned(by: call.body), to: result) }
        case .dispatch(_, _, let body, let options) where options.result != nil:
            add(returned(by: body), to: options.result!)
        case .timedWait(_, _, let result?):
            add(["success", "timedOut"], to: result)
        case .suspend(.value(_, let result?)):
            // A task's value: anything its body returns (lenient).
            add([Self.anything], to: result)
        case .print, .dispatch, .whileLoop, .branch, .group, .semaphore, .dispatchAfter, .sleep, .timedWait(_, _, nil), .activate, .queueSetting,
            .precondition, .workItem, .operation, .operationQueue, .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation,
            .stream, .timer, .throwing, .handles:
            // Gives no variable a value (a for await's element and a caught error stay unknown: lenient).
            break
        }
    }

    /// What a function's or closure's `return`s can give, through its loops and branches.
    private func returned(by body: BlockID) -> Set<String> {
        var values: Set<String> = []
        for statement in program[body].statements {
            switch statement.action {
            case .returns(let value?): values.formUnion(alternatives(value))
            case .loop(let loop): values.formUnion(returned(by: loop.body))
            case .whileLoop(let loop): values.formUnion(returned(by: loop.body))
            case .branch(_, let then, let otherwise): values.formUnion(returned(by: then).union(otherwise.map(returned) ?? []))
            case .handles(let handler):
                for body in [handler.body] + handler.clauses.map(\.body) { values.formUnion(returned(by: body)) }
            case .print, .dispatch, .assign, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate, .queueSetting, .precondition,
                .workItem, .concurrentPerform, .call, .operation, .operationQueue, .returns(nil), .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation,
                .stream, .timer, .throwing:
                continue  // returns nothing from this body (a closure it submits returns from its own)
            }
        }
        return values
    }

    private mutating func add(_ alternatives: Set<String>, to variable: VariableID) {
        var known = variables[variable, default: []].union(alternatives)
        if known.count > Self.limit || known.contains(where: { $0.count > 200 }) { known = [Self.anything] }
        variables[variable] = known
    }

    /// What evaluating `expression` can show, as alternatives.
    func alternatives(_ expression: ConcurrencyModel.Expression) -> Set<String> {
        switch expression {
        case .literal(let value): return [NSRegularExpression.escapedPattern(for: value.description)]
        case .variable(let id): return variables[id] ?? [Self.anything]
        case .isMainThread, .not, .specific(_, .isNil), .specific(_, .equals), .errorIs, .contains: return [Self.boolean]
        case .specific(_, .orElse), .specific(_, .printed): return [Self.anything]
        case .count, .typed: return [Self.integer]
        case .debugText(let inner):
            // A number or flag shows as itself, a string quoted.
            return alternatives(inner).union([NSRegularExpression.escapedPattern(for: "\"") + pattern(inner) + NSRegularExpression.escapedPattern(for: "\"")])
        case .interpolation(let parts):
            return [parts.map { pattern($0) }.joined()]
        case .conditional(_, let then, let otherwise):
            return alternatives(then).union(alternatives(otherwise))
        case .coalesce(let optional, let fallback):
            return alternatives(optional).union(alternatives(fallback))
        case .unwrapped(let optional):
            return alternatives(optional)
        case .optionalText:
            // `Optional(…)` of what the value shows, or `nil`: taken as anything.
            return [Self.anything]
        case .element, .entry, .tuple, .array, .joined, .dictionary, .parsedInt, .transformed:
            // An element of an array shows what any element may: taken as anything.
            return [Self.anything]
        case .binary(let op, let lhs, let rhs):
            switch op {
            case .add:
                return Self.isInteger(alternatives(lhs).union(alternatives(rhs))) ? [Self.integer] : [Self.anything]
            case .subtract, .multiply, .divide, .remainder:
                // Integers give an integer; a Double (`0.5 * 3`) shows as any number does.
                return Self.isInteger(alternatives(lhs).union(alternatives(rhs))) ? [Self.integer] : [Self.anything]
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .and, .or: return [Self.boolean]
            }
        }
    }

    /// Whether every alternative is an integer (the pattern, or a literal one).
    static func isInteger(_ alternatives: Set<String>) -> Bool {
        !alternatives.isEmpty && alternatives.allSatisfy { $0 == integer || Int($0) != nil }
    }

    /// One regular expression for what `expression` can show.
    func pattern(_ expression: ConcurrencyModel.Expression) -> String {
        let all = alternatives(expression)
        if all.contains(Self.anything) { return Self.anything }
        return all.count == 1 ? "(?:\(all.first!))" : "(?:" + all.sorted().joined(separator: "|") + ")"
    }
}
