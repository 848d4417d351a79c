import SwiftSyntax

/// Swift concurrency (Swift 6 mode): `Task { }`, `Task.detached { }`, `await` of `Task.yield()`,
/// `Task.sleep`, a task's `value`, an `async let` and calls of `async` functions and actor
/// methods; `actor` declarations; `MainActor.run`. Isolation is decided as the compiler decides it:
/// top-level code is on the main actor, a `Task { }` closure inherits its context's isolation, a
/// `Task.detached` closure has none, a plain `async` function is nonisolated (it runs on the
/// global executor), an actor's methods are isolated to the instance they are called on, and a
/// call to an isolated function hops there and back (`Action.hop`).
extension Lowering {
    /// The global executor's queue, made when the snippet first uses Swift concurrency.
    @discardableResult
    mutating func cooperativeQueue() -> QueueID {
        if let index = queues.firstIndex(where: { $0.kind == .cooperative }) { return QueueID(index: index) }
        queues.append(QueueDecl(name: "the global executor", label: "Swift global concurrent queue", kind: .cooperative))
        return QueueID(index: queues.count - 1)
    }

    /// Where code at `node` runs, and whether it may `await`: the innermost closure or function
    /// around it decides (a task's closure as recorded when it was lowered; a dispatch closure is
    /// synchronous, on the main actor only for the main queue), else the top level (main actor).
    func context(of node: Syntax) -> (isolation: Isolation, isAsync: Bool) {
        if let asyncContext { return asyncContext }
        var current = node.parent
        while let here = current {
            if let closure = here.as(ClosureExprSyntax.self) {
                if let recorded = closureContexts[closure.id] { return recorded }
                let onMain = Self.call(passing: closure)?.calledExpression.sourceText.hasPrefix("DispatchQueue.main.") == true
                return (onMain ? .mainActor : .generic, false)
            }
            if here.is(FunctionDeclSyntax.self) { return functionContext ?? (.generic, false) }
            current = here.parent
        }
        return (.mainActor, true)
    }

    /// `() -> Int in`: no parameters, captures, attributes or effects.
    static func namesOnlyItsValueType(_ signature: ClosureSignatureSyntax) -> Bool {
        guard signature.attributes.isEmpty, signature.capture == nil, signature.effectSpecifiers == nil,
            case .parameterClause(let parameters)? = signature.parameterClause, parameters.parameters.isEmpty
        else { return false }
        return true
    }

    /// The call a closure is given to: as its trailing closure, or as an argument.
    static func call(passing closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
    }

    /// The closure or function whose body holds `node`.
    static func nearestClosureOrFunction(of node: Syntax) -> Syntax? {
        var current = node.parent
        while let here = current {
            if here.is(ClosureExprSyntax.self) || here.is(FunctionDeclSyntax.self) { return here }
            current = here.parent
        }
        return nil
    }

    /// `Task { }`, `Task(priority: .high) { }`, `Task.detached { }`, `Task { @MainActor in … }`.
    func isTaskCreation(_ call: FunctionCallExprSyntax) -> Bool {
        let callee = call.calledExpression
        if callee.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task" { return true }
        if let member = callee.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task",
            ["detached", "init"].contains(member.declName.baseName.text) { return true }
        return false
    }

    mutating func lowerTask(_ call: FunctionCallExprSyntax, handle: VariableID?) -> Statement? {
        cooperativeQueue()
        let detached = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "detached"
        var priority: TaskPriority?
        var closure = call.trailingClosure
        for argument in call.arguments {
            switch argument.label?.text {
            case "priority":
                guard let member = argument.expression.as(MemberAccessExprSyntax.self), member.base == nil,
                    let named = TaskPriority(rawValue: member.declName.baseName.text)
                else {
                    report("write a priority as .high, .medium, .low, .background, .userInitiated or .utility", Syntax(argument.expression))
                    return nil
                }
                priority = named
            case "operation" where argument.expression.is(ClosureExprSyntax.self):
                closure = argument.expression.as(ClosureExprSyntax.self)
            default:
                report("write Task { … }, Task(priority: .high) { … } or Task.detached { … }", Syntax(argument))
                return nil
            }
        }
        guard let closure else {
            report("a Task needs a closure: Task { … }", Syntax(call))
            return nil
        }
        var isolation: Isolation = detached ? .generic : context(of: Syntax(call)).isolation
        // In a nonsending function's own body the isolation is its caller's only dynamically: the
        // task's closure inherits none (with NonisolatedNonsendingByDefault, swiftc printed
        // `child parent` in 50 of 300 runs where the main actor was busy printing `parent`).
        if inNonsendingBody, asyncContext == nil, Self.nearestClosureOrFunction(of: Syntax(call))?.is(FunctionDeclSyntax.self) == true {
            isolation = .generic
        }
        // `Task { @MainActor [x, y = n] in … }`: `@Sendable` changes nothing (a task's closure
        // is sendable already), and the capture list copies its values where the task is made,
        // as for a dispatched block.
        var captured: [(name: String, variable: VariableID)] = []
        if let signature = closure.signature {
            let attributes = signature.attributes.map(\.sourceText)
            // `() -> Int in`: no parameters, and the value's type written (checked by the returns).
            let noParameters = switch signature.parameterClause {
            case nil: true
            case .parameterClause(let clause)?: clause.parameters.isEmpty
            case .simpleInput?: false
            }
            guard attributes.allSatisfy({ $0 == "@MainActor" || $0 == "@Sendable" }), noParameters,
                signature.returnClause == nil || signature.parameterClause != nil, signature.effectSpecifiers == nil
            else {
                report("a Task's closure takes no parameters here; '@MainActor in', '() -> Int in' or a capture list '[x] in' may stand first", Syntax(signature))
                return nil
            }
            if attributes.contains("@MainActor") { isolation = .mainActor }
            if handle != nil || signature.returnClause != nil { valueClosures[closure.id] = .some(nil) }
            guard let captures = acceptsSignature(signature, of: closure) else { return nil }
            captured = captures
        }
        closureContexts[closure.id] = (isolation, true)
        // A kept task gives its closure's value (`let t = Task { 42 }`; `await t.value`); a
        // written `-> Int` already said so, with the type.
        if handle != nil, valueClosures[closure.id] == nil { valueClosures[closure.id] = .some(nil) }
        let body = lowerBlock(closure.statements, span: span(of: Syntax(closure)), runsOnce: true) { lowering in
            for capture in captured { lowering.bind(capture.name, .variable(capture.variable)) }
        }
        if let handle, case let type?? = valueClosures[closure.id] { taskResultTypes[handle] = type }
        valueClosures[closure.id] = nil
        let spawn = TaskSpawn(kind: detached ? .detached : .unstructured, body: body, isolation: isolation, priority: priority, handle: handle)
        return Statement(.spawn(spawn), at: span(of: Syntax(call)))
    }

    /// `let t = Task { … }`: the task is kept in a hidden variable the name stands for.
    mutating func declareTask(_ name: String, _ call: FunctionCallExprSyntax, span: SourceSpan) -> [Statement] {
        let handle = newVariable(name, isGlobal: isTopLevel, span: span, type: .int)
        let statement = lowerTask(call, handle: handle)
        // A kept task may be passed on as a value (`tasks.append(t)`): its handle's type.
        variableTypes[handle] = .task(taskResultTypes[handle])
        bind(name, .task(handle))
        return statement.map { [$0] } ?? []
    }

    /// `async let x = f()`, `async let x: Void = c.bump("a")`: a child task, started at once on
    /// the global executor, that runs the call.
    mutating func declareAsyncLet(_ name: String, _ value: ExprSyntax, span: SourceSpan) -> [Statement] {
        cooperativeQueue()
        let handle = newVariable(name, isGlobal: isTopLevel, span: span, type: .int)
        let id = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: self.span(of: Syntax(value))))
        let outer = asyncContext
        asyncContext = (.generic, true)
        scopes.append([:])
        var statements: [Statement] = []
        let expression = value.as(AwaitExprSyntax.self)?.expression ?? value
        if let call = expression.as(FunctionCallExprSyntax.self) {
            // `async let x = f()` with f throwing: its `try` is at `try await x`.
            asyncLetCall = call.id
            defer { asyncLetCall = nil }
            if let lowered = lowerAwaitedCall(call, keepsValue: true) {
                statements = lowered.statements
                // The child task's value is the call's: `await x` reads it.
                if let value = lowered.value, let type = variableTypes[value] {
                    statements.append(Statement(.returns(.variable(value)), at: span))
                    taskResultTypes[handle] = type
                }
            }
        } else {
            report("an async let runs a call here: async let x = f()", Syntax(value))
        }
        scopes.removeLast()
        asyncContext = outer
        blocks[id.index].statements = insertPendingThrows(statements)
        bind(name, .task(handle))
        if !deferScopes.isEmpty { deferScopes[deferScopes.count - 1].cleanups.append(.asyncLet(handle, span)) }
        return [Statement(.spawn(TaskSpawn(kind: .asyncLet, body: id, isolation: .generic, handle: handle)), at: span)]
    }

    /// `await …` as a statement (also under `try?`/`try`).
    mutating func lowerAwait(_ awaited: AwaitExprSyntax) -> [Statement] {
        let context = context(of: Syntax(awaited))
        guard context.isAsync else {
            report("'async' call in a function that does not support concurrency", Syntax(awaited))
            return []
        }
        cooperativeQueue()
        let span = self.span(of: Syntax(awaited))
        let expression = awaited.expression
        if let handle = awaitedTask(expression) {
            return [Statement(.suspend(.value(of: handle, result: nil)), at: span)]
        }
        if let (spawn, handle) = inlineTask(expression) {
            return spawn + [Statement(.suspend(.value(of: handle, result: nil)), at: span)]
        }
        if let (read, handle) = taskElement(expression) {
            return [read, Statement(.suspend(.value(of: handle, result: nil)), at: span)]
        }
        guard let call = expression.as(FunctionCallExprSyntax.self) else {
            report("'await' here awaits a call, a task's value or an async let", Syntax(expression))
            return []
        }
        // `await print("n", c.n)`: a synchronous call whose arguments await (an actor's property).
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), ["print", "debugPrint"].contains(callee.baseName.text),
            lookup(callee.baseName.text) == nil
        {
            let outer = awaitingExpression
            awaitingExpression = true
            defer { awaitingExpression = outer }
            return lowerCall(call).map { [$0] } ?? []
        }
        return lowerAwaitedCall(call)?.statements ?? []
    }

    /// `await e` or `try await e` (not `try?`, whose value is optional).
    static func awaited(_ expr: ExprSyntax) -> AwaitExprSyntax? {
        if let awaited = expr.as(AwaitExprSyntax.self) { return awaited }
        if let attempt = expr.as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil { return attempt.expression.as(AwaitExprSyntax.self) }
        return nil
    }

    /// The hidden variable of the task `t` or `t.value` names (a kept task, an async let).
    func awaitedTask(_ expression: ExprSyntax) -> VariableID? {
        if let reference = expression.as(DeclReferenceExprSyntax.self), case .task(let handle)? = lookup(reference.baseName.text) {
            return handle
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "value",
            let base = member.base?.as(DeclReferenceExprSyntax.self), case .task(let handle)? = lookup(base.baseName.text) {
            return handle
        }
        return nil
    }

    /// `await Task { … }.value` (or `.result`, whose value a `_ =` drops): the task is made where
    /// it stands, under a hidden name, and awaited at once.
    mutating func inlineTask(_ expression: ExprSyntax) -> (spawn: [Statement], handle: VariableID)? {
        guard let member = expression.as(MemberAccessExprSyntax.self), ["value", "result"].contains(member.declName.baseName.text),
            let call = member.base?.as(FunctionCallExprSyntax.self), isTaskCreation(call)
        else { return nil }
        let span = self.span(of: Syntax(call))
        let handle = newVariable("the task at line \(span.line)", isGlobal: false, span: span, type: .int)
        guard let spawn = lowerTask(call, handle: handle) else { return ([], handle) }
        return ([spawn], handle)
    }

    /// `await …` used as a value (`let v = await f()`, `print(await c.read())`, `await t.value`):
    /// the awaited call, or the wait for the task, runs just before the statement that uses it,
    /// as a call inside an expression does, its value in a hidden variable.
    mutating func lowerAwaitValue(_ awaited: AwaitExprSyntax) -> Expression? {
        guard context(of: Syntax(awaited)).isAsync else {
            report("'async' call in a function that does not support concurrency", Syntax(awaited))
            return nil
        }
        cooperativeQueue()
        let span = self.span(of: Syntax(awaited))
        let expression = awaited.expression
        var inlineHandle: VariableID?
        if let (spawn, handle) = inlineTask(expression), expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "value" {
            hoisted += spawn
            inlineHandle = handle
        } else if let (read, handle) = taskElement(expression) {
            hoisted.append(read)
            inlineHandle = handle
        }
        if let handle = inlineHandle ?? awaitedTask(expression) {
            guard let type = taskResultTypes[handle] else {
                report("'\(expression.sourceText)' gives no value here (its task returns none): await it on a line of its own", Syntax(expression))
                return nil
            }
            let result = newVariable("the value of \(expression.sourceText)", isGlobal: false, span: span, type: type)
            hoisted.append(Statement(.suspend(.value(of: handle, result: result)), at: span))
            return .variable(result)
        }
        guard let call = expression.as(FunctionCallExprSyntax.self) else {
            // `await (a + b)`, `await a + b`: one await covers every async let the expression names.
            let outer = awaitingExpression
            awaitingExpression = true
            defer { awaitingExpression = outer }
            return lowerExpression(expression)
        }
        let reported = problems.count
        guard let lowered = lowerAwaitedCall(call, keepsValue: true) else { return nil }
        guard let result = lowered.value else {
            // A body whose returned value was refused has no value for that reason, already said.
            if problems.count > reported { return nil }
            report("'\(call.calledExpression.sourceText)' returns nothing: await it on a line of its own", Syntax(call))
            return nil
        }
        hoisted += lowered.statements
        return .variable(result)
    }

    /// Whether `await e` has a value: a call that returns one, a task that gives one. A body of
    /// one such expression returns it (a kept task's closure); one without is a statement.
    mutating func awaitGivesValue(_ awaited: AwaitExprSyntax) -> Bool {
        if let handle = awaitedTask(awaited.expression) { return taskResultTypes[handle] != nil }
        guard let call = awaited.expression.as(FunctionCallExprSyntax.self) else { return false }
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, let body = call.trailingClosure {
            // The body says: a continuation resumed with a value, a group's body that returns one.
            if Self.continuationFunctions.contains(callee) { return body.sourceText.contains("resume(returning:") }
            if Self.taskGroupFunctions.contains(callee) {
                return body.statements.contains { $0.item.as(ReturnStmtSyntax.self)?.expression != nil }
            }
        }
        if call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calledExpression.is(MemberAccessExprSyntax.self),
            case .function(let function)? = binding(of: call.calledExpression) {
            return function.returns != nil
        }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            case .actor(let instance)? = lookup(base.baseName.text) {
            return actorMethod(instance, member.declName.baseName.text, at: Syntax(member))?.returns != nil
        }
        // `MainActor.run(body: f)`: f's value.
        if call.calledExpression.sourceText == "MainActor.run", let body = call.arguments.first?.expression.as(DeclReferenceExprSyntax.self),
            case .function(let function)? = lookup(body.baseName.text) {
            return function.returns != nil
        }
        return false
    }

    /// The call under an `await`: `Task.yield()`, `Task.sleep(…)`, `MainActor.run { }`, an
    /// `async` function of the snippet, or an actor's method.
    /// With `keepsValue`, a call that returns a value hands it to a hidden variable, `value`.
    mutating func lowerAwaitedCall(_ call: FunctionCallExprSyntax, keepsValue: Bool = false) -> (statements: [Statement], value: VariableID?)? {
        let span = self.span(of: Syntax(call))
        let here = context(of: Syntax(call)).isolation
        // `try await ContinuousClock().sleep(for: .seconds(1))`: Task.sleep's own work (TaskSleepDuration.swift).
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "sleep",
            let clock = member.base?.as(FunctionCallExprSyntax.self), Self.clockTypes.contains(clock.calledExpression.sourceText),
            clock.arguments.isEmpty, clock.trailingClosure == nil
        {
            guard let delay = clockSleepDelay(call, onClock: true) else { return nil }
            return ([Statement(.suspend(.sleep(delay)), at: span)], nil)
        }
        // `await A().foo()`: an actor made for this call alone, under a hidden name, then its method.
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let made = member.base?.as(FunctionCallExprSyntax.self),
            let typeName = made.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, let actor = actorSyntax[typeName]
        {
            let name = "\(typeName)() at line \(span.line)"
            let making = declareActorInstance(name, actor, made, span: span)
            guard case .actor(let instance)? = lookup(name), let function = actorMethod(instance, member.declName.baseName.text, at: Syntax(member.declName)),
                let statement = lowerFunctionCall(function, call, span: span)
            else { return nil }
            let call = hopping(to: function.isolation ?? here, from: here, statement, returns: keepsValue ? function.returns : nil, span: span)
            return (making + call.statements, call.value)
        }
        // `await TaskGroupCancel().run()`: an instance of a class or struct made for this call
        // alone, then its async method, isolated as declared.
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let made = member.base?.as(FunctionCallExprSyntax.self),
            let type = instantiatedType(ExprSyntax(made))
        {
            let name = "\(type.name)() at line \(span.line)"
            let making = instantiate(name, type, made, span: span, declaration: Syntax(made))
            guard case .function(let function)? = instanceScopes[name]?[member.declName.baseName.text] else {
                if instanceScopes[name] != nil { report("'\(type.name)' has no method '\(member.declName.baseName.text)'", Syntax(member.declName)) }
                return nil
            }
            guard let isolation = function.isolation else {
                report("no 'async' operations occur within 'await' expression: '\(function.name)' is not async", Syntax(call))
                return nil
            }
            guard let statement = lowerFunctionCall(function, call, span: span) else { return nil }
            let call = hopping(to: function.runsOnCaller ? here : isolation, from: here, statement, returns: keepsValue ? function.returns : nil, span: span)
            return (making + call.statements, call.value)
        }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self) {
            let method = member.declName.baseName.text
            switch (base.baseName.text, method) {
            case ("Task", "yield"):
                guard call.arguments.isEmpty else { report("Task.yield() takes no arguments", Syntax(call)); return nil }
                return ([Statement(.suspend(.yield), at: span)], nil)
            case ("Task", "sleep"):
                guard let delay = taskSleepDelay(call) else { return nil }
                return ([Statement(.suspend(.sleep(delay)), at: span)], nil)
            case ("ContinuousClock", "sleep"), ("SuspendingClock", "sleep"):
                report("'sleep' is an instance method: write \(base.baseName.text)().sleep(for: .seconds(1))", Syntax(call))
                return nil
            case ("MainActor", "run"):
                // `MainActor.run { … }`, or the closure as the `body:` argument, or a function of
                // the snippet named there (`MainActor.run(body: f)`): the call `f()` is the body.
                let argument = call.arguments.count == 1 && call.arguments.first?.label?.text == "body" && call.trailingClosure == nil
                    ? call.arguments.first?.expression : nil
                var value: VariableID?
                let body: Statement
                if let reference = argument?.as(DeclReferenceExprSyntax.self), case .function(let function)? = lookup(reference.baseName.text) {
                    // The call itself, in the caller's frame, where its value lands.
                    guard let lowered = lowerReferencedCall(function, ExprSyntax(reference), expectedType: "@MainActor @Sendable () throws -> ()",
                                                            keepsValue: keepsValue, span: span) else { return nil }
                    value = lowered.value
                    body = lowered.statement
                } else {
                    // `{ () -> Int in … }` names only the value's type: the same closure.
                    guard let closure = call.arguments.isEmpty ? call.trailingClosure : argument?.as(ClosureExprSyntax.self),
                        closure.signature.map(Self.namesOnlyItsValueType) ?? true
                    else {
                        report("write MainActor.run { … }, or MainActor.run(body: f) with a function f of the snippet", Syntax(call))
                        return nil
                    }
                    closureContexts[closure.id] = (.mainActor, false)
                    let outer = asyncContext
                    asyncContext = nil
                    // `let v = await MainActor.run { 42 }`: the closure's value, as a call's, in
                    // a frame of its own whose `return` gives it (`q.sync`'s value is the same).
                    if keepsValue { valueClosures[closure.id] = .some(nil) }
                    let block = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
                    asyncContext = outer
                    if keepsValue, case let type?? = valueClosures[closure.id] {
                        let result = newVariable("the value of MainActor.run", isGlobal: false, span: span, type: type)
                        body = Statement(.call(FunctionCall(name: "MainActor.run", body: block, arguments: [], result: result)), at: span)
                        value = result
                    } else {
                        body = Statement(.branch(condition: .literal(.bool(true)), then: block, otherwise: nil), at: span)
                    }
                    valueClosures[closure.id] = nil
                }
                // `MainActor.run` is a nonisolated async function (SE-0316): in Swift 6 mode its
                // call leaves the caller's executor for the global one, and its body hops to the
                // main actor from there; so a main-actor caller gives the main actor up on the
                // way in (measured: `a d b c` in 200 of 200 swiftc runs where running inline
                // gives `a b c d`). On the way out nothing hops back to the global executor (the
                // body's return is `run`'s): the caller goes straight on from the main actor
                // (measured: a main-actor caller printed its next line before a main-actor task
                // the body made, 200 of 200 runs at -O, 20 of 20 at -Onone).
                return ([Statement(.hop(.generic), at: span), Statement(.hop(.mainActor), at: span), body, Statement(.hop(here), at: span)], value)
            default:
                break
            }
            if let lowered = lowerAwaitedGroupCall(call, keepsValue: keepsValue) { return lowered }
            if case .actor(let instance)? = lookup(base.baseName.text) {
                guard let function = actorMethod(instance, method, at: Syntax(member)) else { return nil }
                guard let statement = lowerFunctionCall(function, call, span: span) else { return nil }
                return hopping(to: function.isolation ?? here, from: here, statement, returns: keepsValue ? function.returns : nil, span: span)
            }
        }
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), Self.continuationFunctions.contains(callee.baseName.text) {
            return lowerContinuation(call, named: callee.baseName.text, keepsValue: keepsValue)
        }
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), Self.taskGroupFunctions.contains(callee.baseName.text) {
            return lowerTaskGroup(call, named: callee.baseName.text, keepsValue: keepsValue)
        }
        if let function = ownActorMethod(call.calledExpression) {
            guard let statement = lowerFunctionCall(function, call, span: span) else { return nil }
            return hopping(to: function.isolation ?? here, from: here, statement, returns: keepsValue ? function.returns : nil, span: span)
        }
        // A function of the snippet, or an async method of a class or struct instance
        // (`await model.load()`, `await self.fetch()`), isolated as its declaration says.
        if call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calledExpression.is(MemberAccessExprSyntax.self),
            case .function(let function)? = binding(of: call.calledExpression) {
            guard let isolation = function.isolation else {
                // A synchronous `@MainActor` function awaited from off the main actor: the call
                // is async from there (SE-0316), a hop to the main actor and back.
                if function.isMainActorSync && here != .mainActor {
                    guard let statement = lowerFunctionCall(function, call, span: span, callerIsolation: .mainActor) else { return nil }
                    return hopping(to: .mainActor, from: here, statement, returns: keepsValue ? function.returns : nil, span: span)
                }
                // Any other synchronous function: swiftc only warns ("no 'async' operations occur
                // within 'await' expression") and the call runs in place, suspending nowhere.
                guard let statement = lowerFunctionCall(function, call, span: span) else { return nil }
                let kept = keepingValue(of: statement, returns: keepsValue ? function.returns : nil, span: span)
                return ([kept.statement], kept.value)
            }
            guard let statement = lowerFunctionCall(function, call, span: span) else { return nil }
            return hopping(to: function.runsOnCaller ? here : isolation, from: here, statement, returns: keepsValue ? function.returns : nil, span: span)
        }
        // `await op()`: a closure parameter's closure, run in place (its hops, if async, its own).
        if !keepsValue, case .closure(let closure, let written, let types)? = binding(of: call.calledExpression) {
            return lowerClosureParameterCall(call, closure, scopes: written, parameters: types, span: span).map { ([$0], nil) }
        }
        report("'await' of '\(call.calledExpression.sourceText)' is outside the supported subset", Syntax(call))
        return nil
    }

    /// The call between a hop to the callee's executor and one back to the caller's.
    private mutating func hopping(to target: Isolation, from here: Isolation, _ call: Statement, returns: StaticType?, span: SourceSpan)
        -> (statements: [Statement], value: VariableID?)
    {
        let call = keepingValue(of: call, returns: returns, span: span)
        return ([Statement(.hop(target), at: span), call.statement, Statement(.hop(here), at: span)], call.value)
    }

    /// The call with its value handed to a hidden variable when it returns one the caller keeps.
    private mutating func keepingValue(of call: Statement, returns: StaticType?, span: SourceSpan) -> (statement: Statement, value: VariableID?) {
        guard let returns, case .call(var function) = call.action else { return (call, nil) }
        let result = newVariable("the value of \(function.name)()", isGlobal: false, span: span, type: returns)
        function.result = result
        return (Statement(.call(function), at: call.span), result)
    }

    /// The value of arithmetic of integer literals (`2 * 1_000_000_000`), nil for anything else
    /// (an overflow is reported where the expression is lowered, as swiftc reports it).
    private mutating func constantInteger(_ expr: ExprSyntax) -> Int? {
        guard expr.is(InfixOperatorExprSyntax.self) || expr.is(TupleExprSyntax.self),
            case .int(let value)? = lowerWithoutRunning(expr)?.constantValue
        else { return nil }
        return value
    }

    /// `Task.sleep(nanoseconds: 1_000_000)`, `Task.sleep(for: .milliseconds(10))`, `.seconds(1)`;
    /// with a `tolerance:` or a `clock:`, or `until: .now + d, clock: .continuous` (`Clock.sleep`).
    private mutating func taskSleepDelay(_ call: FunctionCallExprSyntax) -> Delay? {
        if call.arguments.count > 1 || call.arguments.first?.label?.text == "until" { return clockSleepDelay(call, onClock: false) }
        guard call.arguments.count == 1, let argument = call.arguments.first else {
            report("write Task.sleep(nanoseconds: n) or Task.sleep(for: .milliseconds(n))", Syntax(call))
            return nil
        }
        switch argument.label?.text {
        case "nanoseconds":
            // A UInt64: a literal, arithmetic of literals (`2 * 1_000_000_000`), or `UInt64(…)` of one;
            // or computed from UInt64 values (`w * 10_000_000`, `UInt64(n) * 1_000_000`), in whole microseconds.
            guard let computed = lowerWithoutRunning(argument.expression) else { return nil }
            if !computed.variablesRead.isEmpty {
                guard let amount = lowerExpression(argument.expression), let type = type(of: amount) else { return nil }
                guard type == .integer(.uint64) else {
                    report("cannot convert value of type '\(type)' to expected argument type 'UInt64'", Syntax(argument.expression))
                    return nil
                }
                return Delay(microseconds: .binary(.divide, amount, .literal(.int(1000))))
            }
            var written = argument.expression
            if let conversion = written.as(FunctionCallExprSyntax.self), conversion.calledExpression.sourceText == "UInt64",
                conversion.arguments.count == 1, let inner = conversion.arguments.first, inner.label == nil {
                written = inner.expression
            }
            let reported = problems.count
            guard let amount = integerLiteral(written) ?? constantInteger(written), amount >= 0 else {
                if problems.count == reported {
                    report("write the nanoseconds as a whole number: Task.sleep(nanoseconds: 1_000_000) or 2 * 1_000_000_000", Syntax(argument.expression))
                }
                return nil
            }
            return .constant(amount / 1000)
        case "for":
            return interval(argument.expression)
        default:
            report("write Task.sleep(nanoseconds: n) or Task.sleep(for: .milliseconds(n))", Syntax(argument))
            return nil
        }
    }

    /// The clocks a sleep may name; both count the model's one logical time (no machine sleeps).
    static let clockTypes: Set<String> = ["ContinuousClock", "SuspendingClock"]

    /// `Task.sleep(for: d, tolerance: t, clock: c)`, `Task.sleep(until: .now + d, clock: .continuous)`,
    /// and on a clock, `ContinuousClock().sleep(for: d)` or `.sleep(until: .now + d)`: a sleep of
    /// `d`, the deadline taken when the call runs (code takes no time). `Task.sleep(for:)` is
    /// `sleep(until: .now + duration, clock: .continuous)` in the runtime, which is `clock.sleep`.
    /// A tolerance only lets the wake-up come later, and is accepted and ignored, as a timer's
    /// `leeway:` is.
    private mutating func clockSleepDelay(_ call: FunctionCallExprSyntax, onClock: Bool) -> Delay? {
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let shapes: [[String]] = onClock
            ? [["for"], ["for", "tolerance"], ["until"], ["until", "tolerance"]]
            : [["for", "tolerance"], ["for", "clock"], ["for", "tolerance", "clock"], ["until", "clock"], ["until", "tolerance", "clock"]]
        guard call.trailingClosure == nil, shapes.contains(labels), let first = call.arguments.first else {
            if !onClock, labels.first == "until", !labels.contains("clock") {
                report("missing argument for parameter 'clock' in call", Syntax(call))
            } else {
                report(onClock ? "write sleep(for: .seconds(n)) or sleep(until: .now + .seconds(n)) on the clock"
                       : "write Task.sleep(for: .seconds(n)) or Task.sleep(until: .now + .seconds(n), clock: .continuous)", Syntax(call))
            }
            return nil
        }
        if let clock = call.arguments.first(where: { $0.label?.text == "clock" }) {
            let written = clock.expression.sourceText
            guard [".continuous", ".suspending", "ContinuousClock()", "SuspendingClock()"].contains(written) else {
                report("write clock: .continuous or clock: .suspending", Syntax(clock.expression))
                return nil
            }
        }
        if let tolerance = call.arguments.first(where: { $0.label?.text == "tolerance" }), interval(tolerance.expression) == nil { return nil }
        guard first.label?.text == "until" else { return interval(first.expression) }
        // `.now + d` (or `ContinuousClock.now + d`): the clock's now, which is the call's moment.
        guard let sum = first.expression.as(InfixOperatorExprSyntax.self), sum.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "+",
            let now = sum.leftOperand.as(MemberAccessExprSyntax.self), now.declName.baseName.text == "now",
            now.base == nil || now.base.map({ Self.clockTypes.contains($0.sourceText) }) == true
        else {
            report("write the deadline as .now + .seconds(n)", Syntax(first.expression))
            return nil
        }
        return interval(sum.rightOperand)
    }

    // MARK: Actors

    /// `actor Counter { var n = 0; func bump() async { … } }`: kept until an instance is made.
    /// Declared at the top level, or in a function's body where objects may be made (lowered
    /// afresh at each call), as `func actorBasics() { actor CounterActor { … } … }` does.
    mutating func declareActor(_ actor: ActorDeclSyntax) {
        guard isTopLevel || mayDeclareObjects else {
            report("declare actors at the top level of the snippet, or in a function's body", Syntax(actor))
            return
        }
        for member in actor.memberBlock.members {
            // A stored property with a value, or an optional `var` (nil until set).
            if let variable = member.decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                let binding = variable.bindings.first, binding.accessorBlock == nil,
                binding.initializer != nil || variable.bindingSpecifier.tokenKind == .keyword(.var) && binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true {
                continue
            }
            // `private` and `fileprivate` change nothing that can happen.
            if let function = member.decl.as(FunctionDeclSyntax.self), function.body != nil, function.genericParameterClause == nil,
                function.modifiers.allSatisfy({ [.keyword(.nonisolated), .keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }) {
                continue
            }
            report("an actor here has stored properties with initial values ('var n = 0') and methods", Syntax(member))
        }
        actorSyntax[actor.name.text] = actor
    }

    /// `let c = Counter()`: a serial executor of its own, and its stored properties as
    /// variables named `c.n`, set where the instance is made.
    mutating func declareActorInstance(_ name: String, _ actor: ActorDeclSyntax, _ call: FunctionCallExprSyntax, span: SourceSpan) -> [Statement] {
        guard isTopLevel || mayDeclareObjects, call.arguments.isEmpty, call.trailingClosure == nil else {
            report("make actors at the top level or in a function's body, with no arguments: let c = \(actor.name.text)()", Syntax(call))
            return []
        }
        cooperativeQueue()
        queues.append(QueueDecl(name: name, label: actor.name.text, kind: .actor, span: span))
        var instance = ActorInstance(queue: QueueID(index: queues.count - 1), typeName: actor.name.text)
        var statements: [Statement] = []
        for member in actor.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
                let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            else { continue }
            // `var c: CheckedContinuation<Void, Never>?`, `var n: Int? = 3`: the written type; an
            // optional without a value starts as nil.
            let annotated = binding.typeAnnotation.flatMap { staticType($0.type) }
            if binding.typeAnnotation != nil && annotated == nil { continue }
            // An empty collection of a known type: `var cache: [Int: String] = [:]` (the written
            // type) or `var logs = [String]()` (the call's).
            var empty: StaticType?
            if let literal = binding.initializer?.value.as(DictionaryExprSyntax.self), case .colon = literal.content {
                guard let annotated, case .dictionary = annotated else {
                    report("empty collection literal requires an explicit type: write 'var \(property): [Int: Int] = [:]'", Syntax(literal))
                    continue
                }
                empty = annotated
            } else if let value = binding.initializer?.value, case .some(let element) = emptyArrayCall(value) {
                guard let element else { continue }
                empty = .list(element)
            }
            if let empty {
                let id = newVariable("\(name).\(property)", isGlobal: true, span: self.span(of: Syntax(variable)), type: empty,
                                     constant: variable.bindingSpecifier.tokenKind == .keyword(.let))
                instance.properties[property] = id
                statements.append(Statement(.assign(Assignment(target: id, operation: .set, value: .literal(.list([])))), at: span))
                continue
            }
            guard var initial = binding.initializer.map({ lowerExpression($0.value) }) ?? (annotated?.isOptional == true ? .literal(.nilValue) : nil),
                var type = type(of: initial)
            else { continue }
            if let annotated {
                initial = coercedLiteral(initial, to: annotated)
                guard let valueType = self.type(of: initial), valueType.fits(annotated) else {
                    report("cannot convert value of type '\(type)' to specified type '\(annotated)'", Syntax(binding))
                    continue
                }
                type = annotated
            }
            let id = newVariable("\(name).\(property)", isGlobal: true, span: self.span(of: Syntax(variable)), type: type,
                                 constant: variable.bindingSpecifier.tokenKind == .keyword(.let))
            instance.properties[property] = id
            statements.append(Statement(.assign(Assignment(target: id, operation: .set, value: initial)), at: span))
        }
        actorInstances[name] = instance
        bind(name, .actor(instance))
        // Nonisolated synchronous methods are called like functions (`a.label()`, no await).
        for case let function? in actor.memberBlock.members.map({ $0.decl.as(FunctionDeclSyntax.self) })
        where Self.isNonisolated(function) && function.signature.effectSpecifiers?.asyncSpecifier == nil {
            _ = actorMethod(instance, function.name.text, at: Syntax(function.name))
        }
        return statements
    }

    /// An actor method for one instance, lowered at its first call: the properties are the
    /// instance's, and the body runs isolated to it.
    mutating func actorMethod(_ instance: ActorInstance, _ method: String, at node: Syntax) -> FunctionDecl? {
        let key = "\(instance.queue.index).\(method)"
        if let lowered = actorMethods[key] { return lowered }
        guard let actor = actorSyntax[instance.typeName],
            let function = actor.memberBlock.members.lazy.compactMap({ $0.decl.as(FunctionDeclSyntax.self) }).first(where: { $0.name.text == method }),
            let body = function.body
        else {
            report("value of type '\(instance.typeName)' has no member '\(method)'", node)
            return nil
        }
        var parameters: [FunctionDecl.Parameter] = []
        let span = self.span(of: Syntax(function))
        for parameter in function.signature.parameterClause.parameters {
            guard parameter.defaultValue == nil, let type = staticType(parameter.type) else {
                report("an actor method's parameters are plain values (Int, String, Bool, arrays)", Syntax(parameter))
                return nil
            }
            let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
            let inner = (parameter.secondName ?? parameter.firstName).text
            parameters.append(.value(label: label, variable: newVariable(inner, isGlobal: false, span: span, type: type)))
        }
        var returns: StaticType?
        if let clause = function.signature.returnClause, !["Void", "()"].contains(clause.type.sourceText) {
            guard let type = staticType(clause.type) else { return nil }
            returns = type
        }
        let block = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: self.span(of: Syntax(body))))
        let isAsync = function.signature.effectSpecifiers?.asyncSpecifier != nil
        // A nonisolated method runs where it is called (synchronous) or on the global executor.
        let nonisolated = Self.isNonisolated(function)
        // One that runs on its caller's actor would be lowered at each call; it is not yet.
        if isAsync && nonisolated && (Self.isNonsending(function) || (nonsendingByDefault && !Self.isConcurrent(function))) {
            report("a nonisolated async method that runs on its caller's actor (nonisolated(nonsending), or NonisolatedNonsendingByDefault without @concurrent) is outside the supported subset: make it a top-level function", Syntax(function.name))
            return nil
        }
        let isolation: Isolation? = nonisolated ? (isAsync ? .generic : nil) : .actor(instance.queue)
        let declared = FunctionDecl(name: "\(instance.typeName).\(method)", body: block, parameters: parameters, returns: returns,
                                    isolation: isolation)
        actorMethods[key] = declared
        if let clause = function.signature.effectSpecifiers?.throwsClause {
            guard clause.throwsSpecifier.tokenKind == .keyword(.throws), clause.type == nil else {
                report("typed throws and 'rethrows' are outside the supported subset: write 'throws'", Syntax(clause))
                return nil
            }
            throwingFunctions.insert(declared.name)
        }
        // Lowered with only the top level and the instance's properties in scope.
        let outerScopes = scopes, outerFunction = functionContext, outerAsync = asyncContext, outerActor = currentActor
        // The method's own name finds its declaration (its `return`s, an implicit one).
        // Nonisolated code sees only the constant properties (Swift refuses the others there).
        // `self` is the instance, so `await self.g()` calls its method; a plain `g()` finds it too.
        let visible = nonisolated ? instance.properties.filter { constants.contains($0.value) } : instance.properties
        scopes = [scopes[0], visible.mapValues { .variable($0) }.merging([method: .function(declared), "self": .actor(instance)]) { property, _ in property }, [:]]
        for case .value(_, let variable) in parameters { bind(variables[variable.index].name, .variable(variable)) }
        functionContext = (isolation ?? .generic, isAsync)
        asyncContext = nil
        currentActor = instance
        // A method calling one that calls it back is recursion, refused at the call.
        specializing.append(declared.name)
        blocks[block.index].statements = lowerItems(body.statements)
        specializing.removeLast()
        scopes = outerScopes
        functionContext = outerFunction
        asyncContext = outerAsync
        currentActor = outerActor
        return declared
    }
}

extension Lowering {
    static func isNonisolated(_ function: FunctionDeclSyntax) -> Bool {
        function.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
    }
}

/// An instance of an actor the snippet declares: its executor and its stored properties.
struct ActorInstance {
    var queue: QueueID
    var typeName: String
    var properties: [String: VariableID] = [:]
}
