import ConcurrencyModel

/// A trace puzzle's code as a small tree the generator can change and print back as Swift.
///
/// Why a tree of its own rather than rewriting swift-syntax nodes: the generator must *build*
/// code (fresh puzzles), *restructure* it (wrap a print in one more dispatch, unwrap one, replace
/// a `sync` by an `async` plus a wait) and print it as the bank's puzzles are printed (4-space
/// indentation, one statement a line). On a syntax tree each of those means rebuilding trivia
/// by hand; here they are edits of plain values, and one printer gives every generated puzzle,
/// and every canonical form compared for duplicates, the same layout. swift-syntax still does
/// the reading (`SnippetTreeReader`), and `SnippetCompiler` checks whatever is printed.
public struct SnippetTree: Hashable, Sendable {
    public var statements: [Statement]

    public init(_ statements: [Statement]) {
        self.statements = statements
    }
}

/// One statement of a snippet, as the generator sees it.
public indirect enum Statement: Hashable, Sendable {
    /// `print(1)` or `print("a")`: a label the generator may rename.
    case print(Label)
    /// `queue.sync { … }`, `queue.async(group: g, flags: .barrier) { … }`.
    case dispatch(Dispatch)
    /// Any other statement with bodies, kept as written: `for … { }`, `if … { } else { }`,
    /// `g.notify(queue: q) { }`, `let op = BlockOperation { }`.
    case compound([Clause], trailer: String)
    /// Any other statement, kept as written (on one line).
    case line(String)
}

/// A `sync` or `async` call with a trailing closure.
public struct Dispatch: Hashable, Sendable {
    /// The queue as the code names it: `serialQueue`, `DispatchQueue.main`, `DispatchQueue.global()`.
    public var queue: String
    public var mode: DispatchMode
    public var barrier: Bool
    /// The group of `async(group: g)`.
    public var group: String?
    public var body: [Statement]

    public init(queue: String, mode: DispatchMode, barrier: Bool = false, group: String? = nil, body: [Statement]) {
        self.queue = queue
        self.mode = mode
        self.barrier = barrier
        self.group = group
        self.body = body
    }
}

/// What a `print` of a literal prints.
public enum Label: Hashable, Sendable, Comparable {
    case number(Int)
    /// A string literal without interpolation or escapes.
    case text(String)

    /// The line the print writes.
    public var printed: String {
        switch self {
        case .number(let value): String(value)
        case .text(let text): text
        }
    }

    /// The Swift literal.
    public var literal: String {
        switch self {
        case .number(let value): String(value)
        case .text(let text): "\"\(text)\""
        }
    }
}

/// One `header { body }` part of a compound statement; `parameters` is a closure's `i in`.
public struct Clause: Hashable, Sendable {
    public var header: String
    public var parameters: String?
    public var body: [Statement]

    public init(header: String, parameters: String? = nil, body: [Statement]) {
        self.header = header
        self.parameters = parameters
        self.body = body
    }
}

// MARK: Printing

extension SnippetTree {
    /// The Swift source, as the bank writes puzzles: 4-space indentation, a newline at the end.
    public var source: String {
        var lines: [String] = []
        Self.append(statements, indent: 0, to: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func append(_ statements: [Statement], indent: Int, to lines: inout [String]) {
        let pad = String(repeating: " ", count: indent * 4)
        for statement in statements {
            switch statement {
            case .print(let label):
                lines.append(pad + "print(\(label.literal))")
            case .line(let text):
                lines.append(pad + text)
            case .dispatch(let dispatch):
                var arguments: [String] = []
                if let group = dispatch.group { arguments.append("group: \(group)") }
                if dispatch.barrier { arguments.append("flags: .barrier") }
                let call = arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")"
                lines.append(pad + "\(dispatch.queue).\(dispatch.mode.rawValue)\(call) {")
                append(dispatch.body, indent: indent + 1, to: &lines)
                lines.append(pad + "}")
            case .compound(let clauses, let trailer):
                for (index, clause) in clauses.enumerated() {
                    let opening = (index == 0 ? pad : pad + "} ") + (clause.header.isEmpty ? "{" : clause.header + " {")
                    lines.append(opening + (clause.parameters.map { " " + $0 } ?? ""))
                    append(clause.body, indent: indent + 1, to: &lines)
                }
                lines.append(pad + "}" + trailer)
            }
        }
    }
}

// MARK: Walking and editing

extension SnippetTree {
    /// Every dispatch, in the order the code shows them (outer before inner).
    public var dispatches: [Dispatch] {
        var found: [Dispatch] = []
        Self.visit(statements) { if case .dispatch(let dispatch) = $0 { found.append(dispatch) } }
        return found
    }

    /// Every label printed, in the order the code shows them (repeats included).
    public var labels: [Label] {
        var found: [Label] = []
        Self.visit(statements) { if case .print(let label) = $0 { found.append(label) } }
        return found
    }

    /// The names the code declares at any depth (`let g = …`, `var x = …`), so that a change
    /// that adds a declaration picks a free one.
    public var declaredNames: Set<String> {
        var names: Set<String> = []
        func name(after keyword: String, in text: String) -> String? {
            guard text.hasPrefix(keyword + " ") else { return nil }
            return String(text.dropFirst(keyword.count + 1).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }
        Self.visit(statements) { statement in
            let text: String
            switch statement {
            case .line(let line): text = line
            case .compound(let clauses, _): text = clauses[0].header
            default: return
            }
            if let found = name(after: "let", in: text) ?? name(after: "var", in: text) { names.insert(found) }
            if let found = name(after: "func", in: text) { names.insert(found) }
        }
        return names
    }

    /// Some dispatch is an `async`: without one, prints and syncs run on one thread.
    public var hasAsync: Bool {
        dispatches.contains { $0.mode == .async }
    }

    /// Some dispatch is an `async` onto a queue other than the main queue, which a worker runs.
    public var hasWorkerAsync: Bool {
        dispatches.contains { $0.mode == .async && $0.queue != "DispatchQueue.main" }
    }

    /// Some statement has a body the tree keeps as written (a loop, a notify, an operation).
    public var hasCompound: Bool {
        var found = false
        Self.visit(statements) { if case .compound = $0 { found = true } }
        return found
    }

    static func visit(_ statements: [Statement], _ body: (Statement) -> Void) {
        for statement in statements {
            body(statement)
            switch statement {
            case .dispatch(let dispatch): visit(dispatch.body, body)
            case .compound(let clauses, _): for clause in clauses { visit(clause.body, body) }
            case .print, .line: break
            }
        }
    }

    /// The tree with the `index`-th dispatch (in `dispatches` order) replaced by what `change`
    /// returns for it (nothing, itself changed, or several statements).
    public func replacingDispatch(_ index: Int, with change: (Dispatch) -> [Statement]) -> SnippetTree {
        var counter = 0
        return SnippetTree(Self.rewrite(statements, counter: &counter) { statement, number in
            guard case .dispatch(let dispatch) = statement, number == index else { return nil }
            return change(dispatch)
        } matches: { if case .dispatch = $0 { true } else { false } })
    }

    /// The tree with the `index`-th print (in `labels` order) replaced by what `change` returns.
    public func replacingPrint(_ index: Int, with change: (Label) -> [Statement]) -> SnippetTree {
        var counter = 0
        return SnippetTree(Self.rewrite(statements, counter: &counter) { statement, number in
            guard case .print(let label) = statement, number == index else { return nil }
            return change(label)
        } matches: { if case .print = $0 { true } else { false } })
    }

    /// Every label mapped through `rename`.
    public func relabelled(_ rename: (Label) -> Label) -> SnippetTree {
        func map(_ statements: [Statement]) -> [Statement] {
            statements.map { statement in
                switch statement {
                case .print(let label):
                    return .print(rename(label))
                case .dispatch(var dispatch):
                    dispatch.body = map(dispatch.body)
                    return .dispatch(dispatch)
                case .compound(let clauses, let trailer):
                    return .compound(clauses.map { Clause(header: $0.header, parameters: $0.parameters, body: map($0.body)) }, trailer: trailer)
                case .line:
                    return statement
                }
            }
        }
        return SnippetTree(map(statements))
    }

    /// Pre-order rewrite: statements that `matches` are numbered; `change` may replace one.
    private static func rewrite(
        _ statements: [Statement], counter: inout Int,
        change: (Statement, Int) -> [Statement]?, matches: (Statement) -> Bool
    ) -> [Statement] {
        var result: [Statement] = []
        for statement in statements {
            var number = -1
            if matches(statement) {
                number = counter
                counter += 1
            }
            // Children are numbered after their parent, as `dispatches` and `labels` list them.
            var rebuilt = statement
            switch statement {
            case .dispatch(var dispatch):
                dispatch.body = rewrite(dispatch.body, counter: &counter, change: change, matches: matches)
                rebuilt = .dispatch(dispatch)
            case .compound(let clauses, let trailer):
                rebuilt = .compound(clauses.map { clause in
                    Clause(header: clause.header, parameters: clause.parameters,
                           body: rewrite(clause.body, counter: &counter, change: change, matches: matches))
                }, trailer: trailer)
            case .print, .line:
                break
            }
            if number >= 0, let replacement = change(statement, number) {
                result += replacement
            } else {
                result.append(rebuilt)
            }
        }
        return result
    }
}
