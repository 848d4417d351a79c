import SwiftSyntax

/// Calls that block or assume where they run are unavailable from async code
/// (`@available(*, noasync)`, `@_unavailableFromAsync`): swiftc refuses them there in Swift 6
/// mode ("… is unavailable from asynchronous contexts") and only warns in Swift 5. Measured with
/// swiftc 6.3: `Thread.sleep(forTimeInterval:)`, `NSLock`'s and `NSRecursiveLock`'s `lock()` and
/// `unlock()`, `MainActor.assumeIsolated`; not `sleep`, `usleep`, a semaphore's or group's
/// `wait()`, `withLock`, or `DispatchQueue.main.sync`, which compile.
extension Lowering {
    /// Reports swiftc's error and answers true when `node` is in async code and the mode is
    /// Swift 6 (or says none: a snippet with async code is answered for Swift 6).
    mutating func refusesFromAsync(_ message: String, at node: Syntax) -> Bool {
        guard !swift5Mode, isAsyncCode(node) else { return false }
        report(message, node)
        return true
    }

    /// `Thread.current` (and `Thread.current.isMainThread`) in async code: swiftc's two errors,
    /// at `current` and at the property read from it, as swiftc places them.
    mutating func refusesCurrentThreadFromAsync(_ expr: ExprSyntax) -> Bool {
        guard let member = expr.as(MemberAccessExprSyntax.self) else { return false }
        let current = member.sourceText == "Thread.current" ? member : member.base?.as(MemberAccessExprSyntax.self)
        guard let current, current.sourceText == "Thread.current",
            refusesFromAsync("class property 'current' is unavailable from asynchronous contexts", at: Syntax(current.declName))
        else { return false }
        if current.id != member.id {
            report("property '\(member.declName.baseName.text)' is unavailable from asynchronous contexts", Syntax(member.declName))
        }
        return true
    }

    /// Code in an async function or closure; top-level code is async only where it awaits. A
    /// computed property's getter or an initializer is async only when it says so (`get async`):
    /// swiftc 6.3 compiles `lock.lock()` in the plain getter of a class whose instance tasks use.
    func isAsyncCode(_ node: Syntax) -> Bool {
        if let isAsync = Self.accessorOrInitializerIsAsync(around: node) { return isAsync }
        return context(of: node).isAsync && (!isAtTopLevel(node) || topLevelAwaits)
    }

    /// Whether the getter, accessor or initializer whose body holds `node` is async; nil when a
    /// closure or function is nearer (or there is none).
    static func accessorOrInitializerIsAsync(around node: Syntax) -> Bool? {
        var current = node.parent
        while let here = current {
            if here.is(ClosureExprSyntax.self) || here.is(FunctionDeclSyntax.self) { return nil }
            if let accessor = here.as(AccessorDeclSyntax.self) { return accessor.effectSpecifiers?.asyncSpecifier != nil }
            if here.is(AccessorBlockSyntax.self) { return false }
            if let initializer = here.as(InitializerDeclSyntax.self) { return initializer.signature.effectSpecifiers?.asyncSpecifier != nil }
            current = here.parent
        }
        return nil
    }

    /// Code outside every closure and function: the snippet's top-level code.
    func isAtTopLevel(_ node: Syntax) -> Bool {
        var current = node.parent
        while let here = current {
            if here.is(ClosureExprSyntax.self) || here.is(FunctionDeclSyntax.self) || here.is(AccessorBlockSyntax.self)
                || here.is(InitializerDeclSyntax.self) || here.is(MemberBlockSyntax.self) { return false }
            current = here.parent
        }
        return true
    }

    /// Whether the top-level code awaits (an `await`, `for await`, `async let` outside every
    /// closure and function): then it is an async context, as swiftc treats it.
    static func topLevelAwaits(_ file: SourceFileSyntax) -> Bool {
        TopLevelAwait.found(in: file)
    }
}
