import SwiftSyntax

/// Functions the snippet declares: `func work(_ n: Int) { … }` or `func total() -> Int { … }`.
/// They take and return values of the subset's types; a call runs the body on the calling thread
/// (one inside an expression just before its statement: `Lowering+Returns`).
/// As in a Swift main file, a top-level function may be called above its declaration: every
/// signature is known before the top-level code is lowered, and each body is lowered where it
/// stands (seeing the declarations above it).
///
/// A function that makes its own queues, groups, semaphores, work items or operations, or takes
/// them as parameters (`func asyncPrint(queue: DispatchQueue, …)`), is *specialized*: its body is
/// lowered at each call, with the objects that call passes and objects made afresh for it. One
/// that makes objects is called where objects may be made (the top level, or such a function's
/// own body), so that each call makes them once.
extension Lowering {
    /// Declares every top-level function of the file (its parameters and an empty body), so that
    /// calls anywhere resolve; each body is lowered when its declaration comes.
    mutating func declareFunctions(in items: CodeBlockItemListSyntax) {
        for item in items {
            guard case .decl(let decl) = item.item, let function = decl.as(FunctionDeclSyntax.self) else { continue }
            declareSignature(function, as: function.name.text)
        }
    }

    /// Declares `function` under `name` (`counter.inc` for a method of `instance`).
    mutating func declareSignature(_ function: FunctionDeclSyntax, as name: String, instance: String? = nil) {
        var name = name
        // A top-level overload (other labels, or async where the other is not, as a completion
        // handler and its async wrapper are): kept under its full name, found by its call's
        // labels and `await` (`binding(of:)`).
        var overloaded: String?
        if instance == nil, declaringStaticOf == nil, case .function(let existing)? = scopes[0][function.name.text], existing.instance == nil,
            overloads[function.name.text]?.contains(where: { functionSyntax[$0.name]?.id == function.id }) != true,
            Self.signatureKey(function) != functionSyntax[existing.name].map(Self.signatureKey) {
            overloaded = function.name.text
            name = Self.fullName(function)
        }
        if declareStreamFunction(function, instance: instance) { return }
        if function.genericParameterClause != nil {
            report("generic functions are outside the supported subset", Syntax(function.signature))
            return
        }
        if let clause = function.signature.effectSpecifiers?.throwsClause {
            guard clause.throwsSpecifier.tokenKind == .keyword(.throws), clause.type == nil else {
                report("typed throws and 'rethrows' are outside the supported subset: write 'throws'", Syntax(clause))
                return
            }
        }
        let isAsync = function.signature.effectSpecifiers?.asyncSpecifier != nil
        let onMainActor = Self.isMainActor(function.attributes) || Self.inMainActorType(function)
        if Self.isNonsending(function) && (onMainActor || Self.isConcurrent(function)) {
            report("'nonisolated(nonsending)' cannot be combined with '\(onMainActor ? "@MainActor" : "@concurrent")'", Syntax(function))
            return
        }
        let isPlainNonisolatedAsync = isAsync && !onMainActor && !Self.isNonsending(function) && !Self.isConcurrent(function)
        if isPlainNonisolatedAsync { hasPlainNonisolatedAsync = true }
        let runsOnCaller = isAsync && (Self.isNonsending(function) || (isPlainNonisolatedAsync && nonsendingByDefault))
        if isAsync { cooperativeQueue() }
        var returns: StaticType?
        if let returnClause = function.signature.returnClause, !["Void", "()"].contains(returnClause.type.sourceText) {
            guard let type = staticType(returnClause.type) else { return }
            returns = type
        }
        guard let body = function.body else {
            report("'\(name)' needs a body", Syntax(function))
            return
        }
        if let type = declaringStaticOf {
            if staticFunctions[type]?[function.name.text] != nil {
                report("invalid redeclaration of '\(function.name.text)'", Syntax(function.name))
                return
            }
        } else if overloaded == nil, lookup(function.name.text) != nil && (instance == nil || scopes[scopes.count - 1][function.name.text] != nil) {
            report("invalid redeclaration of '\(function.name.text)'", Syntax(function.name))
            return
        }
        var parameters: [FunctionDecl.Parameter] = []
        let span = self.span(of: Syntax(function))
        for parameter in function.signature.parameterClause.parameters {
            if let kind = closureParameterKind(parameter.type) {
                guard let kind = kind, parameter.defaultValue == nil, instance == nil else {
                    if parameter.defaultValue != nil || instance != nil {
                        report("a closure parameter is supported on a top-level function, without a default", Syntax(parameter))
                    }
                    return
                }
                parameters.append(.object(label: parameter.firstName.text == "_" ? nil : parameter.firstName.text,
                                          name: (parameter.secondName ?? parameter.firstName).text, kind: kind))
                continue
            }
            guard parameter.ellipsis == nil, !parameter.type.is(AttributedTypeSyntax.self), !parameter.type.is(FunctionTypeSyntax.self) else {
                report("parameters are plain values (Int, String, Bool, arrays) or the snippet's queues, groups and semaphores", Syntax(parameter))
                return
            }
            let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
            let inner = (parameter.secondName ?? parameter.firstName).text
            if let kind = FunctionDecl.ObjectKind(typeName: parameter.type.sourceText) {
                if let value = parameter.defaultValue {
                    report("a \(kind.typeName) parameter has no default here: pass it at each call", Syntax(value))
                    return
                }
                parameters.append(.object(label: label, name: inner, kind: kind))
                continue
            }
            guard let type = staticType(parameter.type) else { return }
            let variable = newVariable(inner, isGlobal: false, span: span, type: type)
            if let value = parameter.defaultValue?.value {
                guard let lowered = lowerWithoutRunning(value) else { return }
                guard lowered.constantValue != nil else {
                    report("a default value is a constant here (a literal, or arithmetic of literals)", Syntax(value))
                    return
                }
                guard expect(type, lowered, at: Syntax(value), { "default argument value of type '\($0)' cannot be converted to type '\(type)'" }) else { return }
                parameterDefaults[variable] = lowered
            }
            parameters.append(.value(label: label, variable: variable))
        }
        let block = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: self.span(of: Syntax(body))))
        let makesObjects = ObjectMaking.found(in: body, instancesOf: declaredTypeNames)
        if function.signature.effectSpecifiers?.throwsClause != nil { throwingFunctions.insert(name) }
        functionSyntax[name] = function
        if let type = returns, instance != nil, !Self.alwaysReturns(body.statements),
            !(body.statements.count == 1 && body.statements.first?.item.as(ExprSyntax.self) != nil)
        {
            report("missing return in instance method expected to return '\(type)'", Syntax(body.rightBrace))
        }
        let declared = FunctionDecl(name: name, body: block, parameters: parameters, returns: returns, makesObjects: makesObjects,
                                    instance: instance, isolation: isAsync ? (onMainActor ? .mainActor : .generic) : nil,
                                    runsOnCaller: runsOnCaller, isMainActorSync: onMainActor && !isAsync)
        if let type = declaringStaticOf {
            staticFunctions[type, default: [:]][function.name.text] = declared
            staticBodiesToLower[name] = function
        } else if let overloaded, case .function(let first)? = scopes[0][overloaded] {
            overloads[overloaded, default: [first]].append(declared)
        } else {
            bind(function.name.text, .function(declared))
        }
    }

    /// What tells overloads apart here: the labels, and whether it is async.
    static func signatureKey(_ function: FunctionDeclSyntax) -> String {
        fullName(function) + (function.signature.effectSpecifiers?.asyncSpecifier != nil ? " async" : "")
    }

    /// `loadUser(id:completion:)`.
    static func fullName(_ function: FunctionDeclSyntax) -> String {
        function.name.text + "(" + function.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")"
    }

    /// The overload a call means: the one whose labels its arguments (and trailing closure) give,
    /// async where the call is awaited.
    func overload(among candidates: [FunctionDecl], for call: FunctionCallExprSyntax) -> FunctionDecl? {
        let labels = call.arguments.map { $0.label?.text }
        let awaited = call.parent?.is(AwaitExprSyntax.self) == true
        let fitting = candidates.filter { candidate in
            var expected = candidate.parameters.map { parameter -> String? in
                switch parameter {
                case .value(let label, _): label
                case .object(let label, _, _): label
                }
            }
            if call.trailingClosure != nil {
                guard case .object(_, _, .closure)? = candidate.parameters.last else { return false }
                expected.removeLast()
            }
            return expected == labels
        }
        return fitting.first { ($0.isolation != nil) == awaited } ?? fitting.first
    }

    /// `@escaping ([String]) -> Void`: nil when `type` is no function type; `.some(nil)` when it
    /// is one outside the subset (reported).
    mutating func closureParameterKind(_ type: TypeSyntax) -> FunctionDecl.ObjectKind?? {
        var inner = type
        if let attributed = type.as(AttributedTypeSyntax.self) {
            guard attributed.specifiers.isEmpty,
                attributed.attributes.allSatisfy({ ["@escaping", "@Sendable"].contains($0.sourceText) })
            else {
                guard attributed.baseType.is(FunctionTypeSyntax.self) else { return nil }
                report("a closure parameter here is '@escaping (T) -> Void' (other attributes are outside the supported subset)", Syntax(type))
                return .some(nil)
            }
            inner = attributed.baseType
        }
        guard let function = inner.as(FunctionTypeSyntax.self) else { return nil }
        guard function.effectSpecifiers?.throwsClause == nil, ["Void", "()"].contains(function.returnClause.type.sourceText) else {
            report("a closure parameter here returns nothing and does not throw: '@escaping (T) -> Void' or '@escaping @Sendable () async -> Void'", Syntax(type))
            return .some(nil)
        }
        var parameters: [StaticType] = []
        for element in function.parameters {
            guard element.firstName == nil, let type = staticType(element.type) else {
                if element.firstName != nil { report("a closure type's parameters have no labels here", Syntax(element)) }
                return .some(nil)
            }
            parameters.append(type)
        }
        return .some(.closure(parameters: parameters))
    }

    /// Swift 6's region check where completion handlers meet it: a closure parameter not
    /// `@Sendable`, called inside a block the function sends elsewhere
    /// (`DispatchQueue.main.async { completion(x) }`, a Task): swiftc (compiling, not only
    /// type-checking) says "sending 'completion' risks causing data races" (Hacking with Swift's
    /// continuation example, from an outside survey).
    static func sendsNonSendableParameter(_ call: FunctionCallExprSyntax, named name: String) -> Bool {
        var sent = false
        var node = call.parent
        while let current = node {
            if let closure = current.as(ClosureExprSyntax.self) {
                let callee = Self.call(passing: closure)?.calledExpression.sourceText ?? ""
                if ["async", "asyncAfter", "addTask"].contains(callee.split(separator: ".").last.map(String.init) ?? "")
                    || callee == "Task" || callee == "Task.detached" {
                    sent = true
                }
            }
            if let function = current.as(FunctionDeclSyntax.self) {
                guard sent, let parameter = function.signature.parameterClause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name })
                else { return false }
                return parameter.type.as(AttributedTypeSyntax.self)?.attributes.contains { $0.sourceText == "@Sendable" } != true
            }
            node = current.parent
        }
        return false
    }

    /// `completion(items)`: the closure passed for the parameter runs here, in place, seeing the
    /// names it saw where it was written, its parameters set to the call's arguments.
    mutating func lowerClosureParameterCall(_ call: FunctionCallExprSyntax, _ closure: ClosureExprSyntax,
                                            scopes written: [[String: Binding]], parameters types: [StaticType], span: SourceSpan) -> Statement? {
        guard call.trailingClosure == nil, call.arguments.count == types.count, call.arguments.allSatisfy({ $0.label == nil }) else {
            report("call '\(call.calledExpression.sourceText)' with \(types.count) argument(s) of type \(types.map(\.description).joined(separator: ", "))", Syntax(call))
            return nil
        }
        if !swift5Mode, let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, Self.sendsNonSendableParameter(call, named: name) {
            // swiftc's words and place when the block is a task's closure: the Task's `sending` closure.
            if let task = Self.enclosingTask(of: call) {
                report("passing closure as a 'sending' parameter risks causing data races between code in the current task and concurrent execution of the closure ('\(name)' is not '@Sendable')", Syntax(task))
                return nil
            }
            report("sending '\(name)' risks causing data races: a block sent to another queue or task captures it (mark the parameter '@Sendable')", Syntax(call))
            return nil
        }
        let calleeName = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
        let isAsync = Self.isAsyncClosureParameter(call, named: calleeName)
        if isAsync {
            guard call.parent?.is(AwaitExprSyntax.self) == true else {
                report("expression is 'async' but is not marked with 'await'", Syntax(call))
                return nil
            }
            guard context(of: Syntax(call)).isAsync else {
                report("'async' call in a function that does not support concurrency", Syntax(call))
                return nil
            }
            guard !nonsendingByDefault else {
                report("an async closure parameter is outside the supported subset with NonisolatedNonsendingByDefault", Syntax(call))
                return nil
            }
        }
        var values: [Expression] = []
        for (argument, type) in zip(call.arguments, types) {
            guard let value = lowerExpression(argument.expression),
                expect(type, value, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(type)'" })
            else { return nil }
            values.append(value)
        }
        var names: [String] = []
        switch closure.signature?.parameterClause {
        case .simpleInput(let shorthand)?: names = shorthand.map(\.name.text)
        case .parameterClause(let clause)?: names = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        case nil:
            // `{ c.resume(returning: $0) }`: its parameters by number.
            let numbered = closure.statements.tokens(viewMode: .sourceAccurate).contains { if case .dollarIdentifier = $0.tokenKind { true } else { false } }
            if numbered { names = types.indices.map { "$\($0)" } }
        }
        guard names.count == types.count else {
            report("this closure takes \(types.count) parameter(s): { \(types.isEmpty ? "" : "value in ")… }", Syntax(closure))
            return nil
        }
        guard !namesWritersLocal(closure, written: written, except: names, what: "a closure passed for a closure parameter") else { return nil }
        let saved = scopes
        scopes = written + [[:]]
        var statements: [Statement] = []
        for ((name, type), value) in zip(zip(names, types), values) where name != "_" {
            let id = newVariable(name, isGlobal: false, span: span, type: type)
            bind(name, .variable(id))
            statements.append(Statement(.assign(Assignment(target: id, operation: .set, value: value)), at: span))
        }
        let block = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: self.span(of: Syntax(closure))))
        let outerAsync = asyncContext
        let caller = context(of: Syntax(call)).isolation
        asyncContext = nil
        // An async closure is nonisolated (swiftc 6.3, Swift 6 mode: a closure literal passed for
        // `() async -> Void`, even written on the main actor, saw Thread.isMainThread false):
        // like a plain async function it leaves its caller's actor for the global executor, and
        // the caller comes back after it.
        let outerContext = closureContexts[closure.id]
        if isAsync { closureContexts[closure.id] = (.generic, true) }
        if isAsync, caller != .generic { statements.append(Statement(.hop(.generic), at: span)) }
        statements += lowerItems(closure.statements)
        if isAsync, caller != .generic { statements.append(Statement(.hop(caller), at: span)) }
        closureContexts[closure.id] = outerContext
        asyncContext = outerAsync
        scopes = saved
        blocks[block.index].statements = statements
        return Statement(.branch(condition: .literal(.bool(true)), then: block, otherwise: nil), at: span)
    }

    /// A closure runs where it is called, maybe after its writer returned: only what stays (the
    /// top level's variables, the library's objects) may be named from there. True, reported,
    /// when `closure` names a local of the code that wrote it (other than its own parameters).
    mutating func namesWritersLocal(_ closure: ClosureExprSyntax, written: [[String: Binding]], except parameters: [String], what: String) -> Bool {
        let used = ClosureNames(viewMode: .sourceAccurate)
        used.walk(closure.statements)
        for name in used.names.sorted() where !parameters.contains(name) {
            for scope in written.reversed() {
                guard let binding = scope[name] else { continue }
                if case .variable(let id) = binding, !variables[id.index].isGlobal {
                    report("\(what) names its writer's local '\(name)': outside the supported subset (use a top-level variable)", Syntax(closure))
                    return true
                }
                break
            }
        }
        return false
    }

    /// Swift 6's region check for an async closure parameter that is not `@Sendable`: a closure
    /// literal written in actor-isolated code (a `@MainActor` function, `Task { @MainActor in }`)
    /// is isolated to that actor, and handing it to a nonisolated function is swiftc's "sending
    /// value of non-Sendable type '() async -> ()' risks causing data races" at the callee
    /// (swiftc 6.3). One written in top-level code compiles and runs off the main thread.
    private mutating func sendsIsolatedAsyncClosure(_ function: FunctionDecl, _ call: FunctionCallExprSyntax) -> Bool {
        guard !swift5Mode, function.instance == nil, let syntax = functionSyntax[function.name] else { return false }
        let closures = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) } + (call.trailingClosure.map { [$0] } ?? [])
        guard let closure = closures.first(where: { Self.nearestClosureOrFunction(of: Syntax($0)) != nil && context(of: Syntax($0)).isolation != .generic })
        else { return false }
        let sendsOne = syntax.signature.parameterClause.parameters.contains { parameter in
            let attributed = parameter.type.as(AttributedTypeSyntax.self)
            let type = attributed?.baseType ?? parameter.type
            return type.as(FunctionTypeSyntax.self)?.effectSpecifiers?.asyncSpecifier != nil
                && attributed?.attributes.contains(where: { $0.sourceText == "@Sendable" }) != true
        }
        guard sendsOne, !(function.isolation == .mainActor || function.isMainActorSync) || context(of: Syntax(closure)).isolation != .mainActor else { return false }
        report("sending value of non-Sendable type '() async -> ()' risks causing data races: the closure is isolated to the actor where it is written (mark the parameter '@Sendable')", Syntax(call.calledExpression))
        return true
    }

    /// The `Task { }` or `Task.detached { }` whose closure holds `call`, inside its function.
    static func enclosingTask(of call: FunctionCallExprSyntax) -> FunctionCallExprSyntax? {
        var node = call.parent
        while let current = node, !current.is(FunctionDeclSyntax.self) {
            if let closure = current.as(ClosureExprSyntax.self), let task = Self.call(passing: closure),
                ["Task", "Task.detached"].contains(task.calledExpression.sourceText) {
                return task
            }
            node = current.parent
        }
        return nil
    }

    /// Whether the closure parameter `name` of the function around `call` is `async`.
    static func isAsyncClosureParameter(_ call: FunctionCallExprSyntax, named name: String) -> Bool {
        var node = call.parent
        while let current = node {
            if let function = current.as(FunctionDeclSyntax.self) {
                guard let parameter = function.signature.parameterClause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name })
                else { return false }
                let type = parameter.type.as(AttributedTypeSyntax.self)?.baseType ?? parameter.type
                return type.as(FunctionTypeSyntax.self)?.effectSpecifiers?.asyncSpecifier != nil
            }
            node = current.parent
        }
        return false
    }

    static func isMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.sourceText == "@MainActor" }
    }

    /// A method of a `@MainActor class` or struct: isolated to the main actor, as the type is.
    static func inMainActorType(_ function: FunctionDeclSyntax) -> Bool {
        var node = function.parent
        while let current = node {
            if let type = current.as(ClassDeclSyntax.self) { return isMainActor(type.attributes) }
            if let type = current.as(StructDeclSyntax.self) { return isMainActor(type.attributes) }
            node = current.parent
        }
        return false
    }

    /// `nonisolated(nonsending) func f() async`: Swift 6.2's spelling (SE-0461) for an async
    /// function that stays on its caller's actor; `@concurrent` (or nothing, in Swift 6 mode
    /// without the upcoming feature NonisolatedNonsendingByDefault) leaves it for the global
    /// executor (SE-0338). Measured with swiftc 6.3, Swift 6 mode, awaited from the main actor:
    /// `nonisolated(nonsending)` saw `Thread.isMainThread` true, `@concurrent` and a plain
    /// `async` function false.
    static func isNonsending(_ function: FunctionDeclSyntax) -> Bool {
        function.modifiers.contains { modifier in
            modifier.name.tokenKind == .keyword(.nonisolated) && modifier.detail?.detail.text == "nonsending"
        }
    }

    /// `@concurrent func f() async`: always leaves its caller's actor for the global executor.
    static func isConcurrent(_ function: FunctionDeclSyntax) -> Bool {
        function.attributes.contains { $0.sourceText == "@concurrent" }
    }

    /// Lowers the body of a function declared by `declareFunctions`, where the declaration stands
    /// (a specialized function's body is lowered at each call instead).
    mutating func declareFunction(_ function: FunctionDeclSyntax) {
        guard isTopLevel else {
            report("declare functions at the top level of the snippet", Syntax(function))
            return
        }
        // A function returning a stream is lowered at each call (`Lowering+StreamFunctions`).
        if streamFunctions[function.name.text]?.id == function.id { return }
        let overload = overloads[function.name.text]?.first { functionSyntax[$0.name]?.id == function.id }
        guard case .function(let declared)? = overload.map({ .function($0) }) ?? lookup(function.name.text), let body = function.body,
            blocks[declared.body.index].statements.isEmpty, !loweredFunctions.contains(declared.name)
        else { return }  // its signature was refused, or a twin's body was lowered
        loweredFunctions.insert(declared.name)
        let isOneExpression = body.statements.count == 1 && body.statements.first?.item.as(ExprSyntax.self) != nil
        if let type = declared.returns, !Self.alwaysReturns(body.statements), !isOneExpression {
            report("missing return in global function expected to return '\(type)'", Syntax(body.rightBrace))
        }
        guard !declared.isSpecialized else { return }
        let previous = currentFunction
        currentFunction = declared.name
        let outerContext = functionContext
        functionContext = declared.bodyContext
        defer { functionContext = outerContext }
        scopes.append([:])
        for case .value(_, let variable) in declared.parameters where variables[variable.index].name != "_" {
            bind(variables[variable.index].name, .variable(variable))
        }
        blocks[declared.body.index].statements = lowerItems(body.statements)
        scopes.removeLast()
        currentFunction = previous
    }

    /// A static method's body, lowered at its first call (`API.fetch()`), seeing the top level
    /// and its parameters, as a top-level function's does.
    private mutating func lowerStaticBody(_ declared: FunctionDecl, _ function: FunctionDeclSyntax) {
        guard let body = function.body else { return }
        if let type = declared.returns, !Self.alwaysReturns(body.statements),
            !(body.statements.count == 1 && body.statements.first?.item.as(ExprSyntax.self) != nil) {
            report("missing return in static method expected to return '\(type)'", Syntax(body.rightBrace))
        }
        let saved = (scopes: scopes, function: currentFunction, context: functionContext, async: asyncContext, depth: objectScopeDepth)
        scopes = [scopes[0], [:]]
        currentFunction = declared.name
        functionContext = declared.bodyContext
        asyncContext = nil
        for case .value(_, let variable) in declared.parameters where variables[variable.index].name != "_" {
            bind(variables[variable.index].name, .variable(variable))
        }
        blocks[declared.body.index].statements = lowerItems(body.statements)
        (scopes, currentFunction, functionContext, asyncContext, objectScopeDepth) = (saved.scopes, saved.function, saved.context, saved.async, saved.depth)
    }

    /// The call's statement; `callerIsolation` is where it runs when not where it is written (a
    /// synchronous `@MainActor` function awaited from elsewhere runs after a hop to the main actor).
    mutating func lowerFunctionCall(_ function: FunctionDecl, _ call: FunctionCallExprSyntax, span: SourceSpan,
                                    callerIsolation: Isolation? = nil) -> Statement? {
        if let syntax = staticBodiesToLower.removeValue(forKey: function.name), !function.isSpecialized {
            lowerStaticBody(function, syntax)
        }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), !mayUseTopLevelInstance(through: member) { return nil }
        if throwingFunctions.contains(function.name) && !Self.isMarkedTry(call) && call.id != asyncLetCall {
            report("call can throw but is not marked with 'try'", Syntax(call))
            return nil
        }
        // A trailing closure goes to a last closure parameter.
        var trailing: ClosureExprSyntax?
        if let closure = call.trailingClosure {
            guard case .object(_, _, .closure)? = function.parameters.last else {
                report("'\(function.name)' takes no closure", Syntax(closure))
                return nil
            }
            trailing = closure
        }
        if function.name == currentFunction || calls(function.name, from: currentFunction) || specializing.contains(function.name) {
            report("recursion is outside the supported subset", Syntax(call))
            return nil
        }
        // Each parameter takes the next argument if the labels match, else its default.
        var given = Array(call.arguments)[...]
        var matched: [(parameter: FunctionDecl.Parameter, argument: LabeledExprSyntax?)] = []
        for (position, parameter) in function.parameters.enumerated() {
            if trailing != nil && position == function.parameters.count - 1 {
                matched.append((parameter, nil))
            } else if let next = given.first, next.label?.text == parameter.label {
                matched.append((parameter, next))
                given = given.dropFirst()
            } else if case .value(_, let variable) = parameter, parameterDefaults[variable] != nil {
                matched.append((parameter, nil))
            } else {
                matched.removeAll()
                break
            }
        }
        guard given.isEmpty, matched.count == function.parameters.count else {
            let expected = function.parameters.map { ($0.label ?? "_") + ":" }.joined()
            report("call '\(function.name)(\(expected))' with its parameters' labels, in order", Syntax(call))
            return nil
        }
        guard mayMakeObjects(of: function, at: Syntax(call)) else { return nil }
        if sendsIsolatedAsyncClosure(function, call) { return nil }
        var arguments: [FunctionCall.Argument] = []
        var objects: [(name: String, binding: Binding)] = []
        for (parameter, given) in matched {
            if let trailing, given == nil, case .object(_, let name, .closure(let types)) = parameter {
                guard let binding = closureArgument(ExprSyntax(trailing), types) else { return nil }
                objects.append((name, binding))
                continue
            }
            guard let argument = given else {
                if case .value(_, let variable) = parameter, let value = parameterDefaults[variable] {
                    arguments.append(FunctionCall.Argument(parameter: variable, value: value))
                }
                continue
            }
            switch parameter {
            case .value(_, let variable):
                guard let value = lowerExpression(argument.expression), let expected = variableTypes[variable],
                    expect(expected, value, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(expected)'" })
                else { return nil }
                arguments.append(FunctionCall.Argument(parameter: variable, value: value))
            case .object(_, let name, let kind):
                guard let binding = resolveObject(argument.expression, kind) else { return nil }
                objects.append((name, binding))
            }
        }
        return completeCall(function, arguments: arguments, objects: objects, from: callerIsolation ?? context(of: Syntax(call)).isolation,
                            at: Syntax(call), span: span)
    }

    /// A function that makes objects is called where each call makes them once.
    private mutating func mayMakeObjects(of function: FunctionDecl, at node: Syntax) -> Bool {
        if function.makesObjects && !mayDeclareObjects {
            report("'\(function.name)' makes its own queues, groups or operations: call it where each call makes them once (the top level, a function, or a block that runs once), not in a loop or a closure that may run more than once", node)
            return false
        }
        return true
    }

    /// The call's statement, once its arguments are lowered, made from code isolated to `isolation`.
    private mutating func completeCall(_ function: FunctionDecl, arguments: [FunctionCall.Argument], objects: [(name: String, binding: Binding)],
                                       from isolation: Isolation, at node: Syntax, span: SourceSpan) -> Statement? {
        // Swift 6 checks it: a synchronous call needs the caller on the main actor already.
        if function.isMainActorSync, isolation != .mainActor {
            report("call to main actor-isolated function '\(function.name)' in a synchronous nonisolated context", node)
            return nil
        }
        if let caller = currentFunction { callGraph[caller, default: []].insert(function.name) }
        let body = function.isSpecialized ? specialize(function, objects: objects, callerIsolation: isolation) : function.body
        return Statement(.call(FunctionCall(name: function.name, body: body, arguments: arguments)), at: span)
    }

    /// A synchronous function of the snippet named where a closure goes, `MainActor.run(body: f)`
    /// or `MainActor.assumeIsolated(f)`: the call `f()`, made on the main actor, with `f`'s value
    /// in `result` if it returns one. The checks are swiftc's: no parameters, not async, and a
    /// throwing one is refused where an error would leave the call (the subset catches errors
    /// inside such bodies).
    mutating func lowerReferencedCall(_ function: FunctionDecl, _ reference: ExprSyntax, expectedType: String, keepsValue: Bool,
                                      span: SourceSpan) -> (statement: Statement, value: VariableID?)? {
        let node = Syntax(reference)
        let returns = function.returns.map { "\($0)" } ?? "()"
        if function.isolation != nil {
            report("cannot pass function of type '@Sendable () async -> \(returns)' to parameter expecting synchronous function type", node)
            return nil
        }
        if !function.parameters.isEmpty || function.instance != nil {
            let types = function.parameters.map { parameter in
                switch parameter {
                case .value(_, let variable): variableTypes[variable].map { "\($0)" } ?? "_"
                case .object(_, _, let kind): kind.typeName
                }
            }
            report("cannot convert value of type '@Sendable (\(types.joined(separator: ", "))) -> \(returns)' to expected argument type '\(expectedType)'", node)
            return nil
        }
        if throwingFunctions.contains(function.name) {
            report("'\(function.name)' throws: an error thrown out of this call is outside the supported subset (catch it inside \(function.name))", node)
            return nil
        }
        if function.name == currentFunction || calls(function.name, from: currentFunction) || specializing.contains(function.name) {
            report("recursion is outside the supported subset", node)
            return nil
        }
        guard mayMakeObjects(of: function, at: node),
            var statement = completeCall(function, arguments: [], objects: [], from: .mainActor, at: node, span: span)
        else { return nil }
        guard keepsValue, let type = function.returns, case .call(var call) = statement.action else { return (statement, nil) }
        let result = newVariable("the value of \(function.name)()", isGlobal: false, span: span, type: type)
        call.result = result
        statement = Statement(.call(call), at: span)
        return (statement, result)
    }

    /// The body of a specialized function for one call: lowered now, seeing the top level's names,
    /// its parameters and the objects passed; making objects afresh if it makes any.
    mutating func specialize(_ function: FunctionDecl, objects: [(name: String, binding: Binding)], callerIsolation: Isolation) -> BlockID {
        let block = BlockID(index: blocks.count)
        guard let items = functionSyntax[function.name]?.body?.statements ?? memberBodies[function.name] else { return function.body }
        blocks.append(Block(statements: [], span: span(of: Syntax(items.parent ?? Syntax(items)))))
        let saved = (scopes: scopes, depth: objectScopeDepth, function: currentFunction, context: functionContext, nonsending: inNonsendingBody)
        inNonsendingBody = function.runsOnCaller
        // A function that runs on its caller's executor is, for this call, isolated as the caller.
        // An async method is isolated as declared (its type's @MainActor, or none).
        if function.runsOnCaller {
            functionContext = (callerIsolation, true)
        } else if let declared = function.bodyContext {
            functionContext = declared
        }
        // The body sees what a function sees: the top level, not the caller's locals (and a
        // method its instance's members).
        if let instance = function.instance, let members = instanceScopes[instance] ?? instanceScope(beingMade: instance) {
            scopes = [scopes[0], members, [:]]
        } else {
            scopes = [scopes[0], [:]]
        }
        if function.makesObjects { objectScopeDepth = scopes.count }
        currentFunction = function.name
        specializing.append(function.name)
        for parameter in function.parameters {
            switch parameter {
            case .value(_, let variable) where variables[variable.index].name != "_":
                bind(variables[variable.index].name, .variable(variable))
            case .value, .object:
                break  // `_`, or an object: bound below to what the call passes
            }
        }
        for object in objects where object.name != "_" { bind(object.name, object.binding) }
        blocks[block.index].statements = lowerItems(items)
        specializing.removeLast()
        scopes = saved.scopes
        objectScopeDepth = saved.depth
        currentFunction = saved.function
        functionContext = saved.context
        inNonsendingBody = saved.nonsending
        return block
    }

    /// The object an argument names, of the kind the parameter takes.
    /// The closure passed for a closure parameter: a closure literal (with the names around it),
    /// or a closure parameter of the caller passed on.
    private mutating func closureArgument(_ expr: ExprSyntax, _ types: [StaticType]) -> Binding? {
        if let closure = expr.as(ClosureExprSyntax.self) {
            return .closure(closure, scopes: scopes, parameters: types)
        }
        if case .closure(let closure, let written, let given)? = binding(of: expr), given == types {
            return .closure(closure, scopes: written, parameters: given)
        }
        report("pass a closure here: { value in … }", Syntax(expr))
        return nil
    }

    private mutating func resolveObject(_ expr: ExprSyntax, _ kind: FunctionDecl.ObjectKind) -> Binding? {
        switch kind {
        case .closure(let types):
            return closureArgument(expr, types)
        case .queue:
            return resolveQueue(expr).map { .queue($0) }
        case .operationQueue:
            return resolveOperationQueue(expr).map { .operationQueue($0) }
        case .group, .semaphore, .workItem, .operation:
            let binding = binding(of: expr)
            switch (kind, binding) {
            case (.group, .group?), (.semaphore, .semaphore?), (.workItem, .workItem?), (.operation, .operation?):
                return binding
            default:
                report("cannot convert '\(expr.sourceText)' to expected argument type '\(kind.typeName)': pass a \(kind.typeName) the snippet declares", Syntax(expr))
                return nil
            }
        }
    }

    /// Whether `callee`'s body (as lowered so far) reaches a call of `caller`: calling it from
    /// `caller` would close a cycle.
    private func calls(_ callee: String, from caller: String?) -> Bool {
        guard let caller else { return false }
        var seen: Set<String> = []
        var frontier = [callee]
        while let next = frontier.popLast() {
            if next == caller { return true }
            guard seen.insert(next).inserted else { continue }
            frontier += callGraph[next] ?? []
        }
        return false
    }
}

/// Finds declarations that make (or name) queues, groups, semaphores, locks, work items or
/// operations, or instances of the snippet's classes, structs and actors: `let q =
/// DispatchQueue(…)`, `let q = DispatchQueue.global()`, `var item: DispatchWorkItem?`,
/// `let counter = Counter()`.
private final class ObjectMaking: SyntaxVisitor {
    private(set) var found = false
    private static let types: Set<String> = [
        "DispatchQueue", "DispatchGroup", "DispatchSemaphore", "DispatchWorkItem", "OperationQueue", "BlockOperation", "Operation",
        "NSLock", "NSRecursiveLock", "Mutex",
    ]
    private var snippetTypes: Set<String> = []

    static func found(in body: CodeBlockSyntax, instancesOf snippetTypes: Set<String>) -> Bool {
        let visitor = ObjectMaking(viewMode: .sourceAccurate)
        visitor.snippetTypes = snippetTypes
        visitor.walk(body)
        return visitor.found
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
            if let type = binding.typeAnnotation?.type.sourceText,
                Self.types.contains(String(type.filter { $0 != "?" && $0 != "!" })) {
                found = true
            }
            guard var value = binding.initializer?.value else { continue }
            // `let vm = await VM()`, `let c = try Client()`: the instance is made all the same.
            while true {
                if let awaited = value.as(AwaitExprSyntax.self) { value = awaited.expression } else if let tried = value.as(TryExprSyntax.self) { value = tried.expression } else { break }
            }
            let callee = value.as(FunctionCallExprSyntax.self)?.calledExpression.sourceText ?? value.sourceText
            let typeName = callee.split(separator: ".").first.map(String.init) ?? callee
            if Self.types.contains(callee) || (typeName == "DispatchQueue" && callee != typeName)
                || (value.is(FunctionCallExprSyntax.self) && snippetTypes.contains(callee)) {
                found = true
            }
        }
        return found ? .skipChildren : .visitChildren
    }

    /// An actor declared in the body: its instances are made there, at each call.
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }
}

/// The names a closure's body uses.
private final class ClosureNames: SyntaxVisitor {
    var names: Set<String> = []
    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.parent?.as(MemberAccessExprSyntax.self)?.declName.id != node.id { names.insert(node.baseName.text) }
        return .visitChildren
    }
}
