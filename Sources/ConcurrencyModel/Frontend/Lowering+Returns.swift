import SwiftSyntax

/// Leaving a body early and values coming back: `return`, `guard … else { return }`, `defer`,
/// functions that return a value and `let v = q.sync { … }`. A call inside an expression runs as
/// a statement of its own just before the one that uses it, its value kept in a hidden variable
/// (Swift evaluates it there too, left to right, before the statement's own effect).
extension Lowering {
    /// Where a `return` stands: the body it leaves.
    enum EnclosingBody {
        case function(FunctionDecl)
        case closure(ClosureExprSyntax)
        case topLevel
    }

    /// The function or closure whose body holds `node`.
    func enclosingBody(of node: Syntax) -> EnclosingBody {
        var current = node.parent
        while let parent = current {
            if let closure = parent.as(ClosureExprSyntax.self) { return .closure(closure) }
            if let function = parent.as(FunctionDeclSyntax.self) {
                if let overload = overloads[function.name.text]?.first(where: { functionSyntax[$0.name]?.id == function.id }) {
                    return .function(overload)
                }
                if let found = staticFunctions.values.lazy.compactMap({ $0[function.name.text] })
                    .first(where: { functionSyntax[$0.name]?.id == function.id }) {
                    return .function(found)
                }
                if case .function(let declared)? = lookup(function.name.text) { return .function(declared) }
                return .topLevel
            }
            // A computed property's getter (`var value: Int { return … }`).
            if parent.is(AccessorBlockSyntax.self), let property = parent.parent?.as(PatternBindingSyntax.self),
                let name = property.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            {
                if case .function(let declared)? = lookup(name) { return .function(declared) }
                return .topLevel
            }
            current = parent.parent
        }
        return .topLevel
    }

    /// Whether these items are a function's or a closure's own statements (or the file's).
    static func isBody(_ items: CodeBlockItemListSyntax) -> Bool {
        guard let parent = items.parent else { return false }
        if parent.is(ClosureExprSyntax.self) || parent.is(SourceFileSyntax.self) { return true }
        if parent.is(AccessorBlockSyntax.self) { return true }
        return parent.is(CodeBlockSyntax.self) && (parent.parent?.is(FunctionDeclSyntax.self) == true || parent.parent?.is(InitializerDeclSyntax.self) == true)
    }

    /// `return` and `return value`: the scopes' `defer` blocks up to the body run first (after
    /// the value is computed, as in Swift).
    mutating func lowerReturn(_ exit: ReturnStmtSyntax) -> [Statement] {
        let span = self.span(of: Syntax(exit))
        var value: Expression?
        switch enclosingBody(of: Syntax(exit)) {
        case .topLevel:
            report("return invalid outside of a func", Syntax(exit))
            return []
        case .function(let function):
            switch (function.returns, exit.expression) {
            case (nil, nil):
                break
            case (nil, let expression?):
                report("unexpected non-void return value in void function", Syntax(expression))
                return []
            case (let type?, nil):
                report("non-void function should return a value of type '\(type)'", Syntax(exit))
                return []
            case (let type?, let expression?):
                // `return 1` from a `-> Double` function returns 1.0.
                guard let lowered = lowerExpression(expression).map({ coercedLiteral($0, to: type) }),
                    expect(type, lowered, at: Syntax(expression), { "cannot convert return expression of type '\($0)' to return type '\(type)'" })
                else { return [] }
                value = lowered
            }
        case .closure(let closure):
            guard let expression = exit.expression else { break }
            guard valueClosures.keys.contains(closure.id) else {
                report("unexpected non-void return value in void closure", Syntax(expression))
                return []
            }
            guard let lowered = lowerExpression(expression), let type = type(of: lowered) else { return [] }
            if case let known?? = valueClosures[closure.id] {
                guard type.fits(known) else {
                    report("cannot convert return expression of type '\(type)' to return type '\(known)'", Syntax(expression))
                    return []
                }
            } else {
                valueClosures[closure.id] = .some(type)
            }
            value = lowered
        }
        let defers = deferredOnReturn()
        guard !defers.isEmpty, let computed = value else {
            return defers + [Statement(.returns(value), at: span)]
        }
        // `defer { n += 1 }; return n` returns n as it was: the value is kept before the defers run.
        guard let type = type(of: computed) else { return [] }
        let kept = newVariable("the returned value", isGlobal: false, span: span, type: type)
        return [Statement(.assign(Assignment(target: kept, operation: .set, value: computed)), at: span)]
            + defers + [Statement(.returns(.variable(kept)), at: span)]
    }

    /// What a `return` here runs: the cleanups of every scope up to its body's, innermost scope
    /// first, each scope's last first.
    private mutating func deferredOnReturn() -> [Statement] {
        var statements: [Statement] = []
        for scope in deferScopes.reversed() {
            statements += lowerCleanups(scope.cleanups)
            if scope.isBody { break }
        }
        return statements
    }

    /// The statements of a scope's cleanups, last declared first: a `defer` block's (in a scope
    /// of its own); an async let's end, which cancels its child task and waits for it (SE-0317:
    /// a child not awaited is cancelled and awaited where its scope ends; swiftc: of two, the
    /// one declared last first — the other runs on uncancelled meanwhile — in 5 of 5 runs each
    /// way round).
    mutating func lowerCleanups(_ cleanups: [ScopeCleanup]) -> [Statement] {
        var statements: [Statement] = []
        for cleanup in cleanups.reversed() {
            switch cleanup {
            case .deferred(let deferred):
                if let exit = deferred.body.statements.first(where: { $0.item.is(ReturnStmtSyntax.self) }) {
                    report("'return' cannot transfer control out of a defer statement", Syntax(exit))
                    continue
                }
                scopes.append([:])
                let saved = deferScopes
                deferScopes = []
                statements += lowerItems(deferred.body.statements)
                deferScopes = saved
                scopes.removeLast()
            case .asyncLet(let handle, let span):
                // The wait drops an error the child ended with (as `try?` does): only an `await`
                // of the async let throws it.
                let wait = BlockID(index: blocks.count)
                blocks.append(Block(statements: [Statement(.suspend(.value(of: handle, result: nil)), at: span)], span: span))
                statements += [Statement(.cancellation(.cancelTask(handle)), at: span),
                               Statement(.handles(ErrorHandler(kind: .optional, body: wait)), at: span)]
            }
        }
        return statements
    }

    /// An error thrown after an async let leaves its scope through the async let's end too
    /// (SE-0317: the child is cancelled and awaited, then the error goes on; swiftc: the child's
    /// sleep ends in CancellationError before the caller's `catch` runs, 20 of 20 runs). The
    /// statements after each such async let become the body of a handler that takes every
    /// error, ends the child and throws the error on; innermost (last declared) first.
    mutating func wrapErrorExits(_ statements: [Statement], _ exits: [(start: Int, child: VariableID, span: SourceSpan)]) -> [Statement] {
        var statements = statements
        for exit in exits.reversed() {
            let span = exit.span
            let body = BlockID(index: blocks.count)
            blocks.append(Block(statements: insertPendingThrows(Array(statements[exit.start...])), span: span))
            let error = newVariable("error", isGlobal: false, span: span, type: .error)
            let clause = BlockID(index: blocks.count)
            blocks.append(Block(statements: [], span: span))
            blocks[clause.index].statements = lowerCleanups([.asyncLet(exit.child, span)]) + [Statement(.throwing(.value(.variable(error))), at: span)]
            statements.removeSubrange(exit.start...)
            statements.append(Statement(.handles(ErrorHandler(kind: .endsAsyncLet, body: body,
                clauses: [CatchClause(pattern: .any, binding: error, body: clause)])), at: span))
        }
        return statements
    }

    /// Whether an error can leave a statement: a `throw` or a `try` without `?`/`!` outside the
    /// closures in it.
    static func mayThrowOut(_ item: CodeBlockItemSyntax) -> Bool {
        let finder = ThrowingPoints(viewMode: .sourceAccurate)
        finder.walk(item)
        return finder.found
    }

    /// Whether an error can leave these statements (a closure's body): as `mayThrowOut`, where a
    /// `do` whose clauses catch everything keeps its body's errors in.
    static func mayThrowOut(of items: CodeBlockItemListSyntax) -> Bool {
        let finder = ThrowingPoints(viewMode: .sourceAccurate)
        finder.seesCatchAll = true
        finder.walk(items)
        return finder.found
    }

    /// `guard condition else { …; return }` (or `throw`): the else block runs when the condition is false,
    /// and must leave the body (Swift refuses one that falls through).
    mutating func lowerGuard(_ statement: GuardStmtSyntax) -> Statement? {
        guard let condition = lowerConditions(statement.conditions) else { return nil }
        guard let last = statement.body.statements.last,
            last.item.is(ReturnStmtSyntax.self) || last.item.is(BreakStmtSyntax.self) || last.item.is(ContinueStmtSyntax.self)
                || last.item.is(ThrowStmtSyntax.self)
        else {
            report("'guard' body must not fall through, consider using a 'return' to exit the scope", Syntax(statement.elseKeyword))
            return nil
        }
        // Told as the `if` it is: the condition holds and nothing happens, or its else block runs.
        let holds = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: span(of: Syntax(statement.conditions))))
        let otherwise = lowerBlock(statement.body.statements, span: span(of: Syntax(statement.body)))
        return Statement(.branch(condition: condition, then: holds, otherwise: otherwise), at: span(of: Syntax(statement)))
    }

    /// A condition list, its parts joined with `&&`: Bool conditions, and `let w = item` of a work
    /// item declared optional (never nil: it binds the item, and holds).
    mutating func lowerConditions(_ conditions: ConditionElementListSyntax) -> Expression? {
        var parts: [Expression] = []
        for element in conditions {
            switch element.condition {
            case .expression(let test):
                guard let part = lowerCondition(test) else { return nil }
                parts.append(part)
            case .optionalBinding(let binding) where bindsOptional(binding):
                guard let part = lowerOptionalBinding(binding, afterTests: !parts.isEmpty) else { return nil }
                parts.append(part)
            case .optionalBinding(let binding):
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                    let value = binding.initializer?.value, case .workItem(let id)? = self.binding(of: value), optionalWorkItems.contains(id)
                else {
                    report("'\(binding.bindingSpecifier.text)' binds a DispatchWorkItem declared optional here; or bind an optional value: if let x = o",
                           Syntax(binding))
                    return nil
                }
                bind(name, .workItem(id))
            case .matchingPattern(let match):
                guard let part = lowerCaseCondition(match) else { return nil }
                parts.append(part)
            case .availability:
                report("a condition is a Bool here (use && to combine)", Syntax(element))
                return nil
            }
        }
        guard let first = parts.first else { return .literal(.bool(true)) }
        return parts.dropFirst().reduce(first) { .binary(.and, $0, $1) }
    }

    /// A body of one expression returns its value (Swift 5.9's implicit return), when the body
    /// has a value to return: a function with a return type, or a closure whose value is used.
    mutating func implicitReturn(_ item: CodeBlockItemSyntax, in items: CodeBlockItemListSyntax) -> [Statement]? {
        guard items.count == 1, Self.isBody(items), let parent = items.parent, case .expr(let expr) = item.item else { return nil }
        if let infix = expr.as(InfixOperatorExprSyntax.self),
            infix.operator.is(AssignmentExprSyntax.self) || ["+=", "-="].contains(infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? "")
        {
            return nil  // an assignment is a statement: the body returns nothing
        }
        let attempt = expr.as(TryExprSyntax.self)
        var statementCall = (attempt?.expression ?? expr).as(FunctionCallExprSyntax.self).map { !isValueCall($0) && !givesCollectionValue($0) } ?? false
        if attempt?.questionOrExclamationMark != nil { statementCall = true }
        // `await c.bump()` (no value) and `try? await Task.sleep(…)` are statements too.
        if let awaited = Self.awaited(expr) {
            statementCall = !awaitGivesValue(awaited)
        } else if let attempt = expr.as(TryExprSyntax.self), attempt.expression.is(AwaitExprSyntax.self) {
            statementCall = true
        }
        if let closure = parent.as(ClosureExprSyntax.self) {
            // `q.sync { print(x) }` returns nothing: lowered as a statement (its value, if used, is missing).
            return valueClosures.keys.contains(closure.id) && !statementCall ? lowerValueReturn(expr, at: Syntax(item)) : nil
        }
        guard case .function(let function) = enclosingBody(of: Syntax(item)), let type = function.returns else { return nil }
        if statementCall {
            report("cannot convert return expression of type '()' to return type '\(type)'", Syntax(expr))
            return []
        }
        return lowerValueReturn(expr, at: Syntax(item))
    }

    /// `return expr` for an implicit return, checked as an explicit one would be.
    private mutating func lowerValueReturn(_ expr: ExprSyntax, at node: Syntax) -> [Statement] {
        let span = self.span(of: node)
        guard var lowered = lowerExpression(expr), let type = type(of: lowered) else { return hoisted }
        if case .function(let function) = enclosingBody(of: node) { lowered = coercedLiteral(lowered, to: function.returns) }
        switch enclosingBody(of: node) {
        case .function(let function):
            guard let expected = function.returns,
                expect(expected, lowered, at: Syntax(expr), { "cannot convert return expression of type '\($0)' to return type '\(expected)'" })
            else { return [] }
        case .closure(let closure):
            if case let known?? = valueClosures[closure.id], !type.fits(known) {
                report("cannot convert return expression of type '\(type)' to return type '\(known)'", Syntax(expr))
                return []
            }
            valueClosures[closure.id] = .some(type)
        case .topLevel:
            return []
        }
        return hoisted + [Statement(.returns(lowered), at: span)]
    }

    /// Whether every way through these statements ends in a `return` (or a trap Swift accepts
    /// as an end: `fatalError`): a function with a return type needs it.
    static func alwaysReturns(_ items: CodeBlockItemListSyntax) -> Bool {
        for item in items.reversed() {
            switch item.item {
            case .stmt(let stmt):
                if stmt.is(ReturnStmtSyntax.self) || stmt.is(ThrowStmtSyntax.self) { return true }
                if neverFallsThrough(stmt) { return true }
                // A `do` whose body and every catch clause return: an error no clause takes
                // leaves the function too.
                if let attempt = stmt.as(DoStmtSyntax.self), alwaysReturns(attempt.body.statements),
                    attempt.catchClauses.allSatisfy({ alwaysReturns($0.body.statements) }) {
                    return true
                }
                if let expression = stmt.as(ExpressionStmtSyntax.self)?.expression, alwaysReturns(expression) { return true }
            case .expr(let expr):
                if alwaysReturns(expr) { return true }
            case .decl:
                break
            }
        }
        return false
    }

    /// `while true { … }` or `repeat { … } while true` with no `break` of its own: swiftc knows
    /// nothing after it runs (it ends by `return` or `throw`, or never).
    private static func neverFallsThrough(_ stmt: StmtSyntax) -> Bool {
        let body: CodeBlockSyntax
        if let loop = stmt.as(WhileStmtSyntax.self), loop.conditions.count == 1,
            case .expression(let test)? = loop.conditions.first?.condition, test.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true) {
            body = loop.body
        } else if let loop = stmt.as(RepeatStmtSyntax.self), loop.condition.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true) {
            body = loop.body
        } else {
            return false
        }
        let breaks = OwnBreaks(viewMode: .sourceAccurate)
        breaks.walk(body)
        return !breaks.found
    }

    private static func alwaysReturns(_ expr: ExprSyntax) -> Bool {
        if let branch = expr.as(IfExprSyntax.self) {
            switch branch.elseBody {
            case .codeBlock(let block)?: return alwaysReturns(branch.body.statements) && alwaysReturns(block.statements)
            case .ifExpr(let nested)?: return alwaysReturns(branch.body.statements) && alwaysReturns(ExprSyntax(nested))
            case nil: return false
            }
        }
        if let choice = expr.as(SwitchExprSyntax.self) {
            return choice.cases.allSatisfy { element in
                guard case .switchCase(let arm) = element else { return false }
                return alwaysReturns(arm.statements)
            }
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            return name == "fatalError"
        }
        return false
    }

    // MARK: Values of calls

    /// A call used as a value: a function the snippet declares with a return type, or
    /// `q.sync { … }` whose closure returns one. The call becomes a statement before this one.
    func isValueCall(_ call: FunctionCallExprSyntax) -> Bool {
        if case .function? = binding(of: call.calledExpression) { return true }
        if namesOwnActorMethod(call.calledExpression) { return true }
        if isWithLock(call) { return true }
        return call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "sync"
            && (call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)) != nil
    }

    mutating func lowerValueCall(_ call: FunctionCallExprSyntax) -> Expression? {
        let span = self.span(of: Syntax(call))
        if isWithLock(call) { return lowerWithLockValue(call) }
        // `guard canWithdraw(amount) else { … }` in an actor's method: its own method.
        let own = ownActorMethod(call.calledExpression)
        let bound: FunctionDecl? = if case .function(let function)? = binding(of: call.calledExpression) { function } else { nil }
        if let function = own ?? bound {
            guard let type = function.returns else {
                report("'\(function.name)()' returns nothing: call it on a line of its own", Syntax(call))
                return nil
            }
            let lowered = own != nil ? lowerOwnActorCall(function, call, span: span) : lowerFunctionCall(function, call, span: span)
            guard var statement = lowered, case .call(var made) = statement.action else { return nil }
            let result = newVariable("\(function.name)()", isGlobal: false, span: span, type: type)
            made.result = result
            statement.action = .call(made)
            hoisted.append(statement)
            return .variable(result)
        }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "sync",
            let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
        {
            valueClosures[closure.id] = .some(nil)
            defer { valueClosures[closure.id] = nil }
            let reported = problems.count
            guard var statement = lowerCall(call), case .dispatch(let queue, .sync, let body, var options) = statement.action else { return nil }
            guard case let type?? = valueClosures[closure.id] else {
                if problems.count == reported { report("the closure of sync returns no value, and its value is used here", Syntax(closure)) }
                return nil
            }
            if !Self.alwaysReturns(closure.statements) && closure.statements.count != 1 {
                report("missing return in closure expected to return '\(type)'", Syntax(closure.rightBrace))
                return nil
            }
            let result = newVariable("the value of \(member.base?.sourceText ?? "").sync", isGlobal: false, span: span, type: type)
            options.result = result
            statement.action = .dispatch(queue: queue, mode: .sync, body: body, options: options)
            hoisted.append(statement)
            return .variable(result)
        }
        return nil
    }

    /// Lowers `expr` where it may not run at all (the right side of `&&`, a branch of `?:`): a
    /// call inside it would have to run before the whole statement, so it is refused.
    mutating func lowerConditionally(_ expr: ExprSyntax, _ why: String) -> Expression? {
        let before = hoisted.count
        let lowered = lowerExpression(expr)
        if hoisted.count > before {
            hoisted.removeSubrange(before...)
            report("a call here runs only \(why): call it on a line of its own first (let value = …)", Syntax(expr))
            return nil
        }
        return lowered
    }
}

/// What a scope runs where it ends, whichever way it ends (its end, a `return`).
enum ScopeCleanup {
    case deferred(DeferStmtSyntax)
    /// An `async let`'s child task: cancelled, then awaited.
    case asyncLet(VariableID, SourceSpan)
}

/// An unlabelled `break` that leaves the loop walked: not one inside a nested loop, `switch` or closure.
private final class OwnBreaks: SyntaxVisitor {
    var found = false
    override func visit(_ node: BreakStmtSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }
    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// A `throw`, or a `try` that passes its error on, not inside a closure or a nested function.
private final class ThrowingPoints: SyntaxVisitor {
    var found = false
    /// A `do` with a clause that takes every error (`catch`, `catch let e`) keeps its body's in.
    var seesCatchAll = false
    override func visit(_ node: DoStmtSyntax) -> SyntaxVisitorContinueKind {
        guard seesCatchAll, node.catchClauses.contains(where: { clause in
            clause.catchItems.isEmpty || clause.catchItems.contains { item in
                item.whereClause == nil && item.pattern?.as(ValueBindingPatternSyntax.self)?.pattern.is(IdentifierPatternSyntax.self) == true
            }
        }) else { return .visitChildren }
        for clause in node.catchClauses { walk(clause) }
        return .skipChildren
    }
    override func visit(_ node: ThrowStmtSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }
    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark == nil { found = true }
        return found ? .skipChildren : .visitChildren
    }
    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.tryKeyword != nil { found = true }
        return found ? .skipChildren : .visitChildren
    }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
