import ConcurrencyModel
import SwiftParser
import SwiftSyntax

extension HarnessProgram {
    /// Whether a run of the snippet is over the moment its top-level code has ended and its last
    /// unstructured task with it, so that the harness's monitor need not read every thread's state
    /// twice to see that nothing is left (a seventh of a short run's time): only when nothing but
    /// tasks can run the snippet's code after the top-level code. The model's program proves that
    /// no queue, work item, operation or dispatch source gets work (it has no construct it did
    /// not understand: nil, never); the syntax that every task made is counted where it is made
    /// (a literal closure), and that no child task outlives the top-level code (an `async let` of
    /// its own, never awaited before it ends) and no `deinit` prints after its object's last task.
    static func endsWithLastTask(code: String, program: Program?) -> Bool {
        guard let program, !program.containsStatement(where: { $0.action.givesWorkOutsideTasks }) else { return false }
        let finder = WorkOutsideCountedTasks(viewMode: .sourceAccurate)
        finder.walk(Parser.parse(source: code))
        return !finder.found
    }
}

/// A task the harness cannot count where it is made (`Task(operation: work)`, `Task.init`), an
/// `async let` of the top-level code, or a `deinit`.
private final class WorkOutsideCountedTasks: SyntaxVisitor {
    var found = false

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if TaskBodies.makesUnstructuredTask(call.calledExpression), TaskBodies.closures(of: call).isEmpty { found = true }
        return found ? .skipChildren : .visitChildren
    }

    override func visit(_ member: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if member.declName.baseName.text == "init", let base = member.base, TaskBodies.makesUnstructuredTask(base) { found = true }
        return found ? .skipChildren : .visitChildren
    }

    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ binding: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        if binding.isAsyncLet, binding.parent?.parent?.parent?.is(SourceFileSyntax.self) ?? false { found = true }
        return found ? .skipChildren : .visitChildren
    }
}
