import SwiftSyntax

/// `MainActor.assumeIsolated { … }` and `MainActor.assumeIsolated(f)`: the GCD ↔ actor bridge.
/// The body runs at once, synchronously, on the calling thread, when that thread is on the main
/// actor (top-level code, a `DispatchQueue.main` block, a main-actor task's job); anywhere else
/// the process dies. The runtime (MainActor.swift) checks `_taskIsCurrentExecutor` and otherwise
/// calls `fatalError`; measured with swiftc 6.3 on Linux, off a task the check is libdispatch's
/// `dispatch_assert_queue` of the main queue, which kills the process with SIGILL and no message,
/// as `dispatchPrecondition(condition: .onQueue(.main))` does, so the model checks it as that one
/// (`PreconditionKind.assumeIsolated`). It is `@_unavailableFromAsync`: swiftc refuses it in
/// async code, top-level code that awaits included (`Lowering+Noasync`).
extension Lowering {
    static let assumeIsolatedUnavailable = "static method 'assumeIsolated' is unavailable from asynchronous contexts; await the call to the @MainActor closure directly"

    /// `MainActor.assertIsolated()` / `MainActor.preconditionIsolated()` (a message may follow):
    /// the same check, with no body, allowed in async code too (`PreconditionKind.assertIsolated`).
    func isolationCheck(_ call: FunctionCallExprSyntax) -> PreconditionKind? {
        switch call.calledExpression.sourceText {
        case "MainActor.assertIsolated": .assertIsolated
        case "MainActor.preconditionIsolated": .preconditionIsolated
        default: nil
        }
    }

    mutating func lowerIsolationCheck(_ kind: PreconditionKind, _ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        guard call.trailingClosure == nil, call.arguments.count <= 1, call.arguments.allSatisfy({ $0.label == nil }) else {
            report("write MainActor.\(kind.rawValue)() (or with a message: MainActor.\(kind.rawValue)(\"…\"))", Syntax(call))
            return nil
        }
        if let message = call.arguments.first?.expression, lowerExpression(message) == nil { return nil }
        return Statement(.precondition(kind, Program.mainQueueID(in: queues)), at: span)
    }

    func isAssumeIsolated(_ call: FunctionCallExprSyntax) -> Bool {
        call.calledExpression.sourceText == "MainActor.assumeIsolated"
    }

    mutating func lowerAssumeIsolated(_ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        if refusesFromAsync(Self.assumeIsolatedUnavailable, at: Syntax(call.calledExpression)) { return nil }
        let check = Statement(.precondition(.assumeIsolated, Program.mainQueueID(in: queues)), at: span)
        if call.arguments.count == 1, call.trailingClosure == nil, let argument = call.arguments.first, argument.label == nil,
            let reference = argument.expression.as(DeclReferenceExprSyntax.self), case .function(let function)? = lookup(reference.baseName.text)
        {
            guard let lowered = lowerReferencedCall(function, ExprSyntax(reference), expectedType: "@MainActor () throws -> ()", keepsValue: false, span: span)
            else { return nil }
            let body = BlockID(index: blocks.count)
            blocks.append(Block(statements: [check, lowered.statement], span: span))
            return Statement(.branch(condition: .literal(.bool(true)), then: body, otherwise: nil), at: span)
        } else {
            guard call.arguments.isEmpty, let closure = call.trailingClosure, closure.signature == nil else {
                report("write MainActor.assumeIsolated { … }, or MainActor.assumeIsolated(f) with a function f of the snippet", Syntax(call))
                return nil
            }
            closureContexts[closure.id] = (.mainActor, false)
            let outer = asyncContext
            asyncContext = nil
            let lowered = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
            asyncContext = outer
            blocks[lowered.index].statements.insert(check, at: 0)
            return Statement(.branch(condition: .literal(.bool(true)), then: lowered, otherwise: nil), at: span)
        }
    }
}
