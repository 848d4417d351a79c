import SwiftSyntax

/// Swift errors: `enum MyError: Error { case failed }`, `struct MyError: Error {}`, the error values a snippet throws
/// (`MyError.failed`, `CancellationError()`, `URLError(.badURL)`, `NSError(domain:code:)`),
/// `throws` functions, `throw`, `try`, `try?`, `try!`, `do { } catch { }` (plain, `catch is T`,
/// `catch let e as T`, `catch MyError.failed`), and `error is T` / `if let e = error as? T`.
/// An error leaves frames as `Semantics+Errors` says; here, only what swiftc accepts is lowered.
extension Lowering {
    /// `enum MyError: Error { case failed, timedOut }`: cases without associated values.
    mutating func declareErrorEnum(_ declaration: EnumDeclSyntax) {
        let name = declaration.name.text
        let inherited = declaration.inheritanceClause?.inheritedTypes.map(\.type.sourceText) ?? []
        guard inherited.contains("Error"), inherited.allSatisfy({ ["Error", "Sendable"].contains($0) }),
            declaration.genericParameterClause == nil
        else {
            report("an enum here is an error type: enum \(name): Error { case failed }", Syntax(declaration))
            return
        }
        if typeDeclarations[name] != nil || lookup(name) != nil || errorEnums[name] != nil {
            report("invalid redeclaration of '\(name)'", Syntax(declaration))
            return
        }
        var cases: [String] = []
        for member in declaration.memberBlock.members {
            guard let declared = member.decl.as(EnumCaseDeclSyntax.self),
                declared.elements.allSatisfy({ $0.parameterClause == nil && $0.rawValue == nil })
            else {
                report("an error enum here has plain cases (case failed), without associated values or members", Syntax(member))
                return
            }
            cases += declared.elements.map(\.name.text)
        }
        errorEnums[name] = cases
    }

    /// `struct MyError: Error {}`: an error type without members; `MyError()` is its one value,
    /// and `print(error)` shows `MyError()` (swiftc).
    mutating func declareErrorStruct(_ declaration: StructDeclSyntax) {
        let name = declaration.name.text
        guard declaration.genericParameterClause == nil, declaration.memberBlock.members.isEmpty else {
            report("an error struct here has no members: struct \(name): Error {}", Syntax(declaration))
            refusedErrorTypes.insert(name)
            return
        }
        if typeDeclarations[name] != nil || lookup(name) != nil || errorEnums[name] != nil || errorStructs.contains(name) {
            report("invalid redeclaration of '\(name)'", Syntax(declaration))
            return
        }
        errorStructs.insert(name)
    }

    /// The error a `throw`'s expression makes; nil when `expr` is not an error value (nothing
    /// reported), `.some(nil)` when it was refused.
    mutating func errorValue(_ expr: ExprSyntax) -> ThrownError?? {
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            let cases = errorEnums[base.baseName.text] {
            let name = member.declName.baseName.text
            guard cases.contains(name) else {
                report("type '\(base.baseName.text)' has no member '\(name)'", Syntax(member.declName))
                return .some(nil)
            }
            return ThrownError(type: base.baseName.text, text: name)
        }
        guard let call = expr.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
            let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        else { return nil }
        if refusedErrorTypes.contains(type) { return .some(nil) }  // its declaration says why
        if errorStructs.contains(type) {
            guard call.arguments.isEmpty else { report("\(type)() takes no arguments", Syntax(call)); return .some(nil) }
            return ThrownError(type: type, text: "\(type)()")
        }
        switch type {
        case "CancellationError":
            guard call.arguments.isEmpty else { report("CancellationError() takes no arguments", Syntax(call)); return .some(nil) }
            return .cancellation
        case "URLError":
            // Only the code whose number is measured; the text is Foundation's NSError description.
            guard call.arguments.count == 1, call.arguments.first?.label == nil,
                call.arguments.first?.expression.sourceText == ".badURL"
            else {
                report("write URLError(.badURL) (other codes are outside the supported subset)", Syntax(call))
                return .some(nil)
            }
            platformErrorTypes.insert("URLError")
            return ThrownError(type: "URLError", text: "Error Domain=NSURLErrorDomain Code=-1000 \"(null)\"")
        case "NSError":
            let arguments = Array(call.arguments)
            guard arguments.count == 2, arguments[0].label?.text == "domain", arguments[1].label?.text == "code",
                let domain = arguments[0].expression.as(StringLiteralExprSyntax.self), domain.segments.count == 1,
                let text = domain.segments.first?.as(StringSegmentSyntax.self)?.content.text,
                let code = integerLiteral(arguments[1].expression)
            else {
                report("write NSError(domain: \"Name\", code: 1) with a plain string and a whole number", Syntax(call))
                return .some(nil)
            }
            platformErrorTypes.insert("NSError")
            return ThrownError(type: "NSError", text: "Error Domain=\(text) Code=\(code) \"(null)\"")
        default:
            return nil
        }
    }

    /// An error value used as an expression (`let e = MyError.failed`, `throw e`).
    mutating func lowerErrorValue(_ expr: ExprSyntax) -> Expression?? {
        guard let found = errorValue(expr) else { return .none }
        guard let error = found else { return .some(nil) }
        return .some(.literal(.error(error)))
    }

    /// `throw e`.
    mutating func lowerThrow(_ statement: ThrowStmtSyntax) -> [Statement] {
        guard checkHandled(Syntax(statement)) else { return [] }
        guard let error = lowerExpression(statement.expression) else { return [] }
        guard type(of: error) == .error else {
            report("thrown expression type '\(type(of: error).map { "\($0)" } ?? "?")' does not conform to 'Error'", Syntax(statement.expression))
            return []
        }
        return [Statement(.throwing(.value(error)), at: span(of: Syntax(statement)))]
    }

    /// `do { body } catch … { }`; a `do` without clauses is a plain block.
    mutating func lowerDo(_ statement: DoStmtSyntax) -> [Statement] {
        let span = self.span(of: Syntax(statement))
        if statement.throwsClause != nil {
            report("typed throws ('do throws(…)') is outside the supported subset", Syntax(statement))
            return []
        }
        let body = lowerBlock(statement.body.statements, span: self.span(of: Syntax(statement.body)))
        if statement.catchClauses.isEmpty {
            return [Statement(.branch(condition: .literal(.bool(true)), then: body, otherwise: nil), at: span)]
        }
        var clauses: [CatchClause] = []
        for clause in statement.catchClauses {
            guard let (pattern, name) = catchPattern(clause) else { return [] }
            var binding: VariableID?
            if let name { binding = newVariable(name, isGlobal: false, span: self.span(of: Syntax(clause)), type: .error) }
            let block = lowerBlock(clause.body.statements, span: self.span(of: Syntax(clause.body))) { lowering in
                if let name, let binding { lowering.bind(name, .variable(binding)) }
            }
            clauses.append(CatchClause(pattern: pattern, binding: binding, body: block))
        }
        return [Statement(.handles(ErrorHandler(kind: .catches, body: body, clauses: clauses)), at: span)]
    }

    /// A clause's pattern and the name it binds the error to.
    private mutating func catchPattern(_ clause: CatchClauseSyntax) -> (CatchClause.Pattern, String?)? {
        guard clause.catchItems.count <= 1 else {
            report("a catch clause here has one pattern", Syntax(clause.catchItems))
            return nil
        }
        guard let item = clause.catchItems.first else { return (.any, "error") }
        if item.whereClause != nil {
            report("'catch … where' is outside the supported subset", Syntax(item))
            return nil
        }
        let words = (item.pattern?.sourceText ?? "").split(separator: " ").map(String.init)
        switch words.count {
        case 2 where words[0] == "is" && isKnownErrorType(words[1]):
            return (.type(words[1]), nil)
        case 2 where ["let", "var"].contains(words[0]):
            return (.any, words[1])
        case 4 where ["let", "var"].contains(words[0]) && words[2] == "as" && isKnownErrorType(words[3]):
            return (.type(words[3]), words[1])
        case 1:
            if let expression = item.pattern?.as(ExpressionPatternSyntax.self)?.expression, case let error?? = errorValue(expression) {
                return (.value(error), nil)
            }
        default:
            break
        }
        report("a catch clause here is 'catch', 'catch is T', 'catch let e as T' or 'catch MyError.failed'", Syntax(item))
        return nil
    }

    /// The error types a snippet can test for.
    func isKnownErrorType(_ name: String) -> Bool {
        ["CancellationError", "URLError", "NSError"].contains(name) || errorEnums[name] != nil || errorStructs.contains(name)
    }

    /// `try? call`, `try! call` as statements: the call in a body of its own, its error dropped
    /// (or trapping). `try? await Task.sleep(…)` keeps its plain lowering: the sleep just ends.
    mutating func lowerMarkedTry(_ attempt: TryExprSyntax, lowering inner: (inout Lowering, ExprSyntax) -> [Statement]) -> [Statement] {
        let span = self.span(of: Syntax(attempt))
        let forced = attempt.questionOrExclamationMark?.tokenKind == .exclamationMark
        let id = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: span))
        scopes.append([:])
        let outerHoisted = hoisted
        hoisted = []
        let statements = inner(&self, attempt.expression)
        blocks[id.index].statements = insertPendingThrows(hoisted + statements)
        hoisted = outerHoisted
        scopes.removeLast()
        return [Statement(.handles(ErrorHandler(kind: forced ? .forced : .optional, body: id)), at: span)]
    }

    /// After each call of a throwing function (and the hop back that follows an async one), after
    /// a throwing task group's wait for its children, and after a `for try await` loop over an
    /// AsyncThrowingStream: where the error the callee (the stream) raised is thrown on
    /// (`ThrowAction.pending`).
    func insertPendingThrows(_ statements: [Statement]) -> [Statement] {
        var result: [Statement] = []
        var index = 0
        while index < statements.count {
            let statement = statements[index]
            result.append(statement)
            index += 1
            let throwsOn: Bool = switch statement.action {
            case .call(let call): throwingFunctions.contains(call.name)
            case .suspend(.streamNext(let next)): streams[next.stream.index].throwing
            case .withTaskGroup(let run): taskGroups[run.group.index].throwing
            default: false
            }
            guard throwsOn else { continue }
            // The hop back (an async call) or the wait for the children (a group) comes first.
            while index < statements.count {
                switch statements[index].action {
                case .hop, .suspend(.groupWaitAll):
                    result.append(statements[index])
                    index += 1
                    continue
                default:
                    break
                }
                break
            }
            if index < statements.count, case .throwing(.pending) = statements[index].action { continue }
            result.append(Statement(.throwing(.pending), at: statement.span))
        }
        return result
    }

    /// Whether an error thrown at `node` is handled, as swiftc decides: inside a `do` whose
    /// clauses catch everything, a `try?`/`try!`, a throwing function, a task's closure, a
    /// throwing group's body or child, or the top-level code. Otherwise reported at `node`.
    mutating func checkHandled(_ node: Syntax) -> Bool {
        var current = node
        while let parent = current.parent {
            defer { current = parent }
            if let attempt = parent.as(TryExprSyntax.self), attempt.questionOrExclamationMark != nil { return true }
            // The lowering runs a scope's `defer` blocks where it ends or returns, not where an error leaves it.
            if let items = parent.as(CodeBlockItemListSyntax.self), items.contains(where: { $0.item.is(DeferStmtSyntax.self) }) {
                report("an error thrown out of a scope with 'defer' is outside the supported subset", node)
                return false
            }
            if let statement = parent.as(DoStmtSyntax.self), current.id == statement.body.id,
                statement.catchClauses.contains(where: { clause in
                    clause.catchItems.isEmpty || clause.catchItems.contains { item in
                        item.whereClause == nil && ["let", "var"].contains(item.pattern?.sourceText.split(separator: " ").first.map(String.init) ?? "")
                            && item.pattern?.sourceText.split(separator: " ").count == 2
                    }
                }) {
                return true
            }
            if let function = parent.as(FunctionDeclSyntax.self) {
                if function.signature.effectSpecifiers?.throwsClause != nil { return true }
                break
            }
            if parent.is(AccessorDeclSyntax.self) || parent.is(InitializerDeclSyntax.self) { break }
            if let closure = parent.as(ClosureExprSyntax.self) {
                if closureMayThrow(closure) { return true }
                if let call = closure.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.sourceText == "MainActor.run" {
                    report("an error thrown out of MainActor.run { } is outside the supported subset: catch it inside the closure", node)
                    return false
                }
                // `try q.sync { try f() }` is Swift (sync rethrows); the model does not follow it.
                if let call = closure.parent?.as(FunctionCallExprSyntax.self),
                    call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "sync" {
                    report("an error thrown out of a sync closure is outside the supported subset: catch it inside the closure", node)
                    return false
                }
                // Any other closure (a GCD block, a work item, an operation) cannot throw: swiftc
                // says so once, at the closure.
                if !throwingClosuresReported.contains(closure.id) {
                    throwingClosuresReported.insert(closure.id)
                    report("invalid conversion from throwing function to non-throwing function type: this closure cannot throw; catch the error inside it", Syntax(closure))
                }
                return false
            }
            if parent.is(SourceFileSyntax.self) { return true }
        }
        report("errors thrown from here are not handled", node)
        return false
    }

    /// A closure whose errors go somewhere: a task's (`Task { }`, `Task.detached { }`), a throwing
    /// group's body or child.
    private func closureMayThrow(_ closure: ClosureExprSyntax) -> Bool {
        guard let call = Self.call(passing: closure) else { return false }
        if isTaskCreation(call) { return true }
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            Self.taskGroupFunctions.contains(callee), callee.hasPrefix("withThrowing") { return true }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "addTask",
            let group = taskGroup(named: member.base) {
            return taskGroups[group.id.index].throwing
        }
        return false
    }

    /// `if let e = error as? CancellationError { … } else { … }`: a test of the error's type, `e`
    /// the same error. Nil when `branch` is not that.
    mutating func lowerErrorCastIf(_ branch: IfExprSyntax) -> [Statement]? {
        guard branch.conditions.count == 1, case .optionalBinding(let binding)? = branch.conditions.first?.condition,
            let value = binding.initializer?.value.as(AsExprSyntax.self), value.questionOrExclamationMark?.tokenKind == .postfixQuestionMark,
            let source = value.expression.as(DeclReferenceExprSyntax.self), case .variable(let error)? = lookup(source.baseName.text),
            variableTypes[error] == .error
        else { return nil }
        let typeName = value.type.sourceText
        guard isKnownErrorType(typeName) else {
            report("an error here is tested against CancellationError, URLError, NSError or an error type of the snippet", Syntax(value.type))
            return []
        }
        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        let then = lowerBlock(branch.body.statements, span: span(of: Syntax(branch.body))) { lowering in
            if let name, name != "_" { lowering.bind(name, .variable(error)) }
        }
        var otherwise: BlockID?
        switch branch.elseBody {
        case .codeBlock(let block)?: otherwise = lowerBlock(block.statements, span: span(of: Syntax(block)))
        case .ifExpr(let nested)?:
            report("'else if' after an error test is outside the supported subset: nest the if", Syntax(nested))
            return []
        case nil: break
        }
        return [Statement(.branch(condition: .errorIs(.variable(error), type: typeName), then: then, otherwise: otherwise), at: span(of: Syntax(branch)))]
    }

    /// `error is CancellationError`.
    mutating func lowerErrorIs(_ test: IsExprSyntax) -> Expression? {
        guard let error = lowerExpression(test.expression) else { return nil }
        guard type(of: error) == .error else {
            report("'is' tests an error here ('error is CancellationError')", Syntax(test))
            return nil
        }
        let typeName = test.type.sourceText
        guard isKnownErrorType(typeName) else {
            report("an error here is tested against CancellationError, URLError, NSError or an error type of the snippet", Syntax(test.type))
            return nil
        }
        return .errorIs(error, type: typeName)
    }

    /// Printing an error whose text is Foundation's NSError description (`URLError`, `NSError`):
    /// measured on Linux only, so refused rather than guessed for Apple platforms.
    mutating func refusePlatformErrorPrints() {
        guard !platformErrorTypes.isEmpty else { return }
        for node in errorPrints {
            report("printing an error here is outside the supported subset: the snippet throws \(platformErrorTypes.sorted().joined(separator: " and ")), whose text is Foundation's NSError description (on Linux 'Error Domain=… Code=… \"(null)\"'), not measured on Apple platforms", node)
        }
    }
}
