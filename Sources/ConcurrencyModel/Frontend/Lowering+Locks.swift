import SwiftSyntax

/// Locks: `NSLock()`, `NSRecursiveLock()` and the Synchronization module's `Mutex(0)`, each a
/// semaphore of one that knows its `LockKind`. A Mutex owns the value it protects: a variable
/// of its own, which the closure of `m.withLock { $0 += 1 }` reaches through its parameter.
/// `withLock` is lowered in place: the lock's wait, the closure's statements in a scope of their
/// own (seeing the caller's locals, as a closure does), the lock's signal. So the closure's
/// statements are atomic with respect to the lock, and nothing else is new to the explorer or
/// the live runner.
extension Lowering {
    /// `let lock = NSLock()`, `NSRecursiveLock()`, `Mutex(0)` or `Mutex<Int>(0)`; nil when the
    /// value is none of them.
    mutating func declareLock(_ name: String, _ value: ExprSyntax, span: SourceSpan, declaration: Syntax) -> [Statement]? {
        guard let call = value.as(FunctionCallExprSyntax.self), let kind = Self.lockKind(made: call) else { return nil }
        guard mayDeclareObjects else {
            report("declare \(Self.typeName(kind))s at the top level of the snippet or of a function", declaration)
            return []
        }
        let id = SemaphoreID(index: semaphores.count)
        switch kind {
        case .plain, .recursive:
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(Self.typeName(kind))() takes no arguments", Syntax(call))
                return []
            }
            semaphores.append(SemaphoreDecl(name: memberName(name), initialValue: 1, span: span, lock: kind))
            bind(name, .semaphore(id))
            return []
        case .mutex:
            guard Self.importsSynchronization(Syntax(call)) else {
                report("cannot find 'Mutex' in scope: write 'import Synchronization' at the top of the snippet (the prelude imports Dispatch and Foundation only)", Syntax(call.calledExpression))
                return []
            }
            guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil, call.trailingClosure == nil else {
                report("write Mutex(initialValue): the value the mutex protects, such as Mutex(0)", Syntax(call))
                return []
            }
            guard let initial = lowerExpression(argument.expression), var type = type(of: initial) else { return [] }
            if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self), let named = generic.genericArgumentClause.arguments.first {
                guard case .type(let syntax) = named.argument, let annotated = staticType(syntax) else { return [] }
                guard type.fits(annotated) else {
                    report("cannot convert value of type '\(type)' to expected argument type '\(annotated)'", Syntax(argument.expression))
                    return []
                }
                type = annotated
            }
            let storage = newVariable(memberName(name), isGlobal: true, span: span, type: type, constant: false)
            semaphores.append(SemaphoreDecl(name: memberName(name), initialValue: 1, span: span, lock: .mutex))
            mutexValues[id] = storage
            bind(name, .semaphore(id))
            return [Statement(.assign(Assignment(target: storage, operation: .set, value: initial)), at: span)]
        }
    }

    /// Whether the file imports the Synchronization module (anywhere at its top level, as Swift
    /// reads imports).
    static func importsSynchronization(_ node: Syntax) -> Bool {
        guard let file = node.root.as(SourceFileSyntax.self) else { return false }
        return file.statements.contains { item in
            item.item.as(ImportDeclSyntax.self)?.path.map(\.name.text).joined(separator: ".") == "Synchronization"
        }
    }

    /// The lock a call makes: `NSLock()`, `NSRecursiveLock()`, `Mutex(…)`, `Mutex<T>(…)`.
    static func lockKind(made call: FunctionCallExprSyntax) -> LockKind? {
        var callee = call.calledExpression
        if let generic = callee.as(GenericSpecializationExprSyntax.self) { callee = generic.expression }
        switch callee.as(DeclReferenceExprSyntax.self)?.baseName.text {
        case "NSLock": return .plain
        case "NSRecursiveLock": return .recursive
        case "Mutex": return .mutex
        default: return nil
        }
    }

    static func typeName(_ kind: LockKind) -> String {
        switch kind {
        case .plain: "NSLock"
        case .recursive: "NSRecursiveLock"
        case .mutex: "Mutex"
        }
    }

    /// A lock's methods: `lock()`, `unlock()` (NSLock, NSRecursiveLock), `withLock { }` (all).
    mutating func lowerLockCall(_ lock: SemaphoreID, _ kind: LockKind, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> [Statement]? {
        if method == "withLock" { return lowerWithLock(lock, kind, call, result: nil) }
        switch kind {
        case .plain, .recursive:
            guard method == "lock" || method == "unlock", call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(Self.typeName(kind))'s '\(method)' is outside the supported subset (lock(), unlock(), withLock { })", Syntax(call))
                return nil
            }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                refusesFromAsync("instance method '\(method)' is unavailable from asynchronous contexts; Use async-safe scoped locking instead", at: Syntax(member.declName))
            { return nil }
            return [Statement(.semaphore(lock, method == "lock" ? .wait : .signal), at: span)]
        case .mutex:
            let value = mutexValues[lock].flatMap { variableTypes[$0] }.map { "Mutex<\($0)>" } ?? "Mutex"
            report("value of type '\(value)' has no member '\(method)': a Mutex is locked only for the closure of \(semaphores[lock.index].name).withLock { … }, which is the one way to its value", Syntax(call))
            return nil
        }
    }

    /// Whether the call is `lock.withLock { … }` on a lock the snippet declares.
    func isWithLock(_ call: FunctionCallExprSyntax) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "withLock",
            let base = member.base, case .semaphore(let lock)? = binding(of: base)
        else { return false }
        return semaphores[lock.index].isLock
    }

    /// `let v = m.withLock { $0 }`: the statements run before the one that uses the value,
    /// which is in a hidden variable.
    mutating func lowerWithLockValue(_ call: FunctionCallExprSyntax) -> Expression? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
            case .semaphore(let lock)? = binding(of: base), let kind = semaphores[lock.index].lock
        else { return nil }
        let result = newVariable("the value of \(base.sourceText).withLock", isGlobal: false, span: span(of: Syntax(call)), type: .int)
        guard let statements = lowerWithLock(lock, kind, call, result: result) else { return nil }
        hoisted += statements
        return .variable(result)
    }

    /// The lock's wait, the closure's statements, the lock's signal. With `result`, the closure
    /// is one expression whose value goes there (its type replaces the placeholder's).
    private mutating func lowerWithLock(_ lock: SemaphoreID, _ kind: LockKind, _ call: FunctionCallExprSyntax, result: VariableID?) -> [Statement]? {
        let span = self.span(of: Syntax(call))
        let name = semaphores[lock.index].name
        guard call.arguments.isEmpty, let closure = call.trailingClosure, call.additionalTrailingClosures.isEmpty else {
            report("write \(name).withLock { … } with a trailing closure", Syntax(call))
            return nil
        }
        if let exit = Self.returnStatement(in: Syntax(closure.statements)) {
            report("'return' inside withLock's closure is outside the supported subset: make the closure one expression (\(name).withLock { $0 }) to use its value", Syntax(exit))
            return nil
        }
        var parameter: String?
        switch (kind, closure.signature?.parameterClause) {
        case (.mutex, nil):
            parameter = "$0"
        case (.mutex, .simpleInput(let names)?) where names.count == 1:
            parameter = names.first?.name.text
        case (.mutex, .parameterClause(let clause)?) where clause.parameters.count == 1 && clause.parameters.first?.type == nil:
            parameter = clause.parameters.first?.firstName.text
        case (.mutex, _):
            report("write the closure's parameter as a name ({ value in … }) or use $0", Syntax(closure))
            return nil
        case (.plain, nil), (.recursive, nil):
            break
        case (.plain, _?), (.recursive, _?):
            report("the closure of \(Self.typeName(kind)).withLock takes no parameters", Syntax(closure))
            return nil
        }
        scopes.append([:])
        defer { scopes.removeLast() }
        if let parameter, parameter != "_", let storage = mutexValues[lock] { bind(parameter, .variable(storage)) }
        var body: [Statement]
        if let result {
            guard closure.statements.count == 1, case .expr(let expr)? = closure.statements.first?.item else {
                report("the value of withLock is supported for a closure of one expression, such as \(name).withLock { $0 }", Syntax(closure))
                return nil
            }
            let outer = hoisted
            hoisted = []
            guard let value = lowerExpression(expr), let type = type(of: value) else {
                hoisted = outer
                return nil
            }
            variableTypes[result] = type
            body = hoisted + [Statement(.assign(Assignment(target: result, operation: .set, value: value)), at: self.span(of: Syntax(expr)))]
            hoisted = outer
        } else {
            let outer = hoisted
            body = lowerItems(closure.statements)
            hoisted = outer
        }
        return [Statement(.semaphore(lock, .wait), at: span)] + body + [Statement(.semaphore(lock, .signal), at: self.span(of: Syntax(closure.rightBrace)))]
    }

    /// A `return` of this closure's own (not of a closure inside it).
    private static func returnStatement(in node: Syntax) -> ReturnStmtSyntax? {
        if let exit = node.as(ReturnStmtSyntax.self) { return exit }
        for child in node.children(viewMode: .sourceAccurate) where !child.is(ClosureExprSyntax.self) {
            if let found = returnStatement(in: child) { return found }
        }
        return nil
    }
}
