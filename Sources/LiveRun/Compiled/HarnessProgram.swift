import ConcurrencyModel
import SwiftParser
import SwiftSyntax

/// The `main.swift` of a harness: the prelude, the snippet, and an ending that keeps the main
/// actor served until nothing is left (the host's rule, DESIGN.md). The snippet's own text is
/// kept, with its line numbers (`#sourceLocation`), except that each unstructured task's closure
/// (`Task { … }`, `Task.detached { … }`) counts the tasks alive, so that a run ends when the last
/// one has, and a task suspended for good is a hang: a capture evaluated where the closure is made
/// (`[_gqTask = _gqTaskCreated()]`), so that a task made but not yet started counts, and two calls
/// at the start of its body, the second a `defer` that counts it ended. Everything goes on the
/// same line, so no line moves, and changes neither the closure's isolation (an `Int32`
/// captured, nothing else) nor its type (a single expression gets a `return`).
enum HarnessProgram {
    static let snippetFileName = "snippet.swift"

    static func mainSource(for code: String) -> String {
        let tree = Parser.parse(source: code)
        let edits = TaskBodies(viewMode: .sourceAccurate)
        edits.walk(tree)
        var utf8 = Array(code.utf8)
        // From the end, so that each offset still holds; at one offset, in the order they were
        // made (the last made goes in first, and ends up last).
        let ordered = edits.insertions.enumerated().sorted { ($0.element.offset, $0.offset) > ($1.element.offset, $1.offset) }
        for (_, (offset, text)) in ordered {
            utf8.insert(contentsOf: Array(text.utf8), at: offset)
        }
        let body = String(decoding: utf8, as: UTF8.self)

        // After an `await` the top-level code is an async main, which the runtime ends with
        // exit(0) when it returns: it suspends for good instead, and the main actor is served
        // by the runtime. Synchronous top-level code serves it on the main thread's run loop.
        let ending = TopLevelAwait.found(in: tree) ? "await _gqServeForever()" : "_gqServeMainQueue()"
        return Prelude.source + AsyncAndWaitShim.source(for: body) + "#sourceLocation(file: \"\(snippetFileName)\", line: 1)\n" + body
            + "\n#sourceLocation()\n" + SnippetTypes.declaration(for: tree) + "_gqTopLevelEnded()\n\(ending)\n"
    }
}

/// Where to put the counting calls: after the `{` (or the `in`) of each unstructured task's
/// closure, and `return ` before a body of one expression.
final class TaskBodies: SyntaxVisitor {
    var insertions: [(offset: Int, text: String)] = []

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard Self.makesUnstructuredTask(call.calledExpression) else { return .visitChildren }
        for closure in Self.closures(of: call) { mark(closure) }
        return .visitChildren
    }

    /// The task's closure, trailing or `operation:`, when it is written in the call.
    static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        let trailing: [ClosureExprSyntax] = call.trailingClosure.map { [$0] } ?? []
        return trailing + call.arguments.compactMap { $0.label?.text == "operation" ? $0.expression.as(ClosureExprSyntax.self) : nil }
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
        insertions.append(Self.creationCount(in: closure))
        let start = closure.signature?.endPositionBeforeTrailingTrivia ?? closure.leftBrace.endPositionBeforeTrailingTrivia
        insertions.append((start.utf8Offset, " _gqTaskStarted(_gqTask); defer { _gqTaskEnded() };"))
        if closure.statements.count == 1, let only = closure.statements.first, Self.isValueExpression(only.item) {
            insertions.append((only.positionAfterSkippingLeadingTrivia.utf8Offset, "return "))
        }
    }

    /// The capture that counts the task where its closure is made: first in the closure's capture
    /// list, or a capture list of its own after the closure's attributes (`{ @MainActor [_gqTask =
    /// …] in`), or a signature of its own when it has none.
    private static func creationCount(in closure: ClosureExprSyntax) -> (offset: Int, text: String) {
        let capture = "_gqTask = _gqTaskCreated()"
        guard let signature = closure.signature else {
            return (closure.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset, " [\(capture)] in")
        }
        if let list = signature.capture {
            return (list.leftSquare.endPositionBeforeTrailingTrivia.utf8Offset, list.items.isEmpty ? capture : "\(capture), ")
        }
        let next: [AbsolutePosition?] = [signature.parameterClause?.positionAfterSkippingLeadingTrivia,
                                         signature.effectSpecifiers?.positionAfterSkippingLeadingTrivia,
                                         signature.returnClause?.positionAfterSkippingLeadingTrivia]
        let position = next.compactMap { $0 }.first ?? signature.inKeyword.positionAfterSkippingLeadingTrivia
        return (position.utf8Offset, "[\(capture)] ")
    }

    /// An expression that gives the closure its value (not an `if`/`switch` used as a statement).
    private static func isValueExpression(_ item: CodeBlockItemSyntax.Item) -> Bool {
        guard case .expr(let expression) = item else { return false }
        return !expression.is(IfExprSyntax.self) && !expression.is(SwitchExprSyntax.self)
    }
}

