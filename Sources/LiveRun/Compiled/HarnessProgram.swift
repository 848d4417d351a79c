import ConcurrencyModel
import SwiftParser
import SwiftSyntax

/// The `main.swift` of a harness: the prelude, the snippet, and an ending that keeps the main
/// actor served until nothing is left (the host's rule, DESIGN.md). The snippet's own text is
/// kept, with its line numbers (`#sourceLocation`), except for two calls put at the start of each
/// unstructured task's body (`Task { … }`, `Task.detached { … }`): they count the tasks alive,
/// so that a run ends when the last one has, and a task suspended for good is a hang. The calls
/// go on the same line, so no line moves, and change neither the closure's isolation (they
/// capture nothing) nor its type (a single expression gets a `return`).
enum HarnessProgram {
    static let snippetFileName = "snippet.swift"

    static func mainSource(for code: String) -> String {
        let tree = Parser.parse(source: code)
        let edits = TaskBodies(viewMode: .sourceAccurate)
        edits.walk(tree)
        var utf8 = Array(code.utf8)
        for (offset, text) in edits.insertions.sorted(by: { $0.offset > $1.offset }) {
            utf8.insert(contentsOf: Array(text.utf8), at: offset)
        }
        let body = String(decoding: utf8, as: UTF8.self)

        // After an `await` the top-level code is an async main, which the runtime ends with
        // exit(0) when it returns: it suspends for good instead, and the main actor is served
        // by the runtime. Synchronous top-level code serves it on the main thread's run loop.
        let ending = TopLevelAwait.found(in: tree) ? "await _gqServeForever()" : "_gqServeMainQueue()"
        return Prelude.source + AsyncAndWaitShim.source(for: body) + "#sourceLocation(file: \"\(snippetFileName)\", line: 1)\n" + body
            + "\n#sourceLocation()\n_gqTopLevelEnded()\n\(ending)\n"
    }
}

/// Where to put the counting calls: after the `{` (or the `in`) of each unstructured task's
/// closure, and `return ` before a body of one expression.
private final class TaskBodies: SyntaxVisitor {
    var insertions: [(offset: Int, text: String)] = []

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard Self.makesUnstructuredTask(call.calledExpression) else { return .visitChildren }
        var closures: [ClosureExprSyntax] = call.trailingClosure.map { [$0] } ?? []
        closures += call.arguments.compactMap { $0.label?.text == "operation" ? $0.expression.as(ClosureExprSyntax.self) : nil }
        for closure in closures { mark(closure) }
        return .visitChildren
    }

    /// `Task`, `Task<…>`, `Task.detached`, `Task.immediate`, `Task.immediateDetached`.
    static func makesUnstructuredTask(_ callee: ExprSyntax) -> Bool {
        if let name = callee.as(DeclReferenceExprSyntax.self) { return name.baseName.text == "Task" }
        if let generic = callee.as(GenericSpecializationExprSyntax.self) { return makesUnstructuredTask(generic.expression) }
        if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base {
            return ["detached", "immediate", "immediateDetached"].contains(member.declName.baseName.text)
                && makesUnstructuredTask(base)
        }
        return false
    }

    private func mark(_ closure: ClosureExprSyntax) {
        let start = closure.signature?.endPositionBeforeTrailingTrivia ?? closure.leftBrace.endPositionBeforeTrailingTrivia
        insertions.append((start.utf8Offset, " _gqTaskStarted(); defer { _gqTaskEnded() };"))
        if closure.statements.count == 1, let only = closure.statements.first, Self.isValueExpression(only.item) {
            insertions.append((only.positionAfterSkippingLeadingTrivia.utf8Offset, "return "))
        }
    }

    /// An expression that gives the closure its value (not an `if`/`switch` used as a statement).
    private static func isValueExpression(_ item: CodeBlockItemSyntax.Item) -> Bool {
        guard case .expr(let expression) = item else { return false }
        return !expression.is(IfExprSyntax.self) && !expression.is(SwitchExprSyntax.self)
    }
}

