import SwiftSyntax

/// Calls: print, sync/async on a queue, a group's and a semaphore's methods, `list.append`.
extension Lowering {
    /// A bound on concurrentPerform's iterations: each may run on a thread of its own, and the
    /// model answers for a machine as wide as that and for every narrower one. Past 64 the
    /// searches outgrew their budgets before stopping (an outside puzzle's 1,000 iterations took
    /// 11 GB in a minute; 300 took 7.9 GB and 35 s); 64 stop at the time budget in 300 MB.
    static let maximumIterations = 64

    mutating func lowerCall(_ call: FunctionCallExprSyntax) -> Statement? {
        let span = self.span(of: Syntax(call))
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), callee.baseName.text == "print" {
            guard let items = printedItems(call) else { return nil }
            return Statement(.print(items), at: span)
        }
        // `assert(c)`, `assert(c, "why")`: compiled out by `swiftc -O`, as gcdquiz's live runs and
        // verify build, so its condition is never evaluated. It must still be valid code.
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), callee.baseName.text == "assert" {
            guard (1...2).contains(call.arguments.count), call.trailingClosure == nil else {
                report("write assert(condition) or assert(condition, \"message\")", Syntax(call))
                return nil
            }
            if let condition = call.arguments.first, let lowered = lowerWithoutRunning(condition.expression) {
                _ = expect(.bool, lowered, at: Syntax(condition.expression), { "cannot convert value of type '\($0)' to expected argument type 'Bool'" })
            }
            return nil
        }
        // `debugPrint("\(i)")` prints "1", quoted: each value as its debugDescription.
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), callee.baseName.text == "debugPrint" {
            guard let items = printedItems(call) else { return nil }
            // An enum's debugDescription names its module (`snippet.Phase.idle`): refused.
            for (argument, item) in zip(call.arguments, items) where refusesQualifiedEnumText(type(of: item), debug: true, at: Syntax(argument.expression)) {
                return nil
            }
            // An optional shows its value's debugDescription already (`Optional("a")`).
            return Statement(.print(items.map { if case .optionalText = $0 { $0 } else { .debugText($0) } }), at: span)
        }
        // `c.bump()` of an actor without `await`: the call needs a hop swiftc will not make silently.
        if let member = actorMember(call.calledExpression), case .actor(let instance)? = lookup(member.base!.sourceText),
            let function = actorSyntax[instance.typeName]?.memberBlock.members.lazy.compactMap({ $0.decl.as(FunctionDeclSyntax.self) })
                .first(where: { $0.name.text == member.declName.baseName.text }),
            !function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) {
            reportActorAccess(.call, member)
            return nil
        }
        if let sleep = lowerSleep(call, span: span) {
            return sleep
        }
        if let kind = isolationCheck(call) {
            return lowerIsolationCheck(kind, call, span: span)
        }
        if isAssumeIsolated(call) {
            return lowerAssumeIsolated(call, span: span)
        }
        let callee = call.calledExpression.as(MemberAccessExprSyntax.self)?.base ?? call.calledExpression
        if isTaskCreation(call) {
            return lowerTask(call, handle: nil)
        }
        if let statement = lowerTaskGroupCall(call) {
            return statement
        }
        if let statement = lowerTaskCancel(call) {
            return statement
        }
        if let statement = lowerHeldResume(call) {
            return statement
        }
        if let statement = lowerResume(call) {
            return statement
        }
        if let statement = lowerStreamCall(call) {
            return statement
        }
        if callee.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task" {
            report("'\(call.calledExpression.sourceText)' is outside the supported subset here (await Task.yield() and Task.sleep)", Syntax(call))
            return nil
        }
        if case .function(let function)? = binding(of: call.calledExpression) {
            return lowerFunctionCall(function, call, span: span)
        }
        if case .closure(let closure, let written, let types)? = binding(of: call.calledExpression) {
            return lowerClosureParameterCall(call, closure, scopes: written, parameters: types, span: span)
        }
        if let function = ownActorMethod(call.calledExpression) {
            return lowerOwnActorCall(function, call, span: span)
        }
        // `ViewModel().update()`: an instance made for this call alone, under a hidden name.
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let made = member.base?.as(FunctionCallExprSyntax.self),
            let type = instantiatedType(ExprSyntax(made))
        {
            let name = "\(type.name)() at line \(span.line)"
            hoisted += instantiate(name, type, made, span: span, declaration: Syntax(made))
            guard case .function(let method)? = instanceScopes[name]?[member.declName.baseName.text] else {
                if instanceScopes[name] != nil { report("'\(type.name)' has no method '\(member.declName.baseName.text)'", Syntax(member.declName)) }
                return nil
            }
            return lowerFunctionCall(method, call, span: span)
        }
        // `super.init()` in an Operation subclass's init: NSObject's init does nothing to see.
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base?.is(SuperExprSyntax.self) == true,
            member.declName.baseName.text == "init", call.arguments.isEmpty, currentFunction?.hasSuffix(".init") == true
        {
            return nil
        }
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), callee.baseName.text == currentFunction {
            report("recursion is outside the supported subset", Syntax(call))
            return nil
        }
        if call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "dispatchPrecondition" {
            return lowerPrecondition(call, span: span)
        }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else {
            unsupported(Syntax(call))
            return nil
        }
        let method = member.declName.baseName.text
        if method == "concurrentPerform", isDispatchQueueType(base) {
            return lowerConcurrentPerform(call, span: span)
        }
        if method == "asyncAfter", !isDispatchQueueType(base) {
            guard let queue = resolveQueue(base) else { return nil }
            return lowerAsyncAfter(call, queue: queue, span: span)
        }
        if method == "activate", call.arguments.isEmpty, !isDispatchQueueType(base),
            case .queue(let queue)? = binding(of: base)
        {
            activated.insert(queue)
            return Statement(.activate(queue), at: span)
        }
        if method == "setTarget" || method == "setSpecific", !isDispatchQueueType(base), isQueueExpression(base) {
            guard let queue = resolveQueue(base) else { return nil }
            return method == "setTarget" ? lowerSetTarget(queue, call, span: span) : lowerSetSpecific(queue, call, span: span)
        }
        if isOperationQueueExpression(base) {
            guard let queue = resolveOperationQueue(base) else { return nil }
            return lowerOperationQueueCall(queue, method: method, call: call, span: span)
        }
        if base.is(DeclReferenceExprSyntax.self) || base.is(MemberAccessExprSyntax.self) || base.is(OptionalChainingExprSyntax.self)
            || base.is(ForceUnwrapExprSyntax.self) {
            switch binding(of: base) {
            case .operation(let operation)?:
                return lowerOperationCall(operation, method: method, call: call, span: span)
            case .group(let group)?:
                return lowerGroupCall(group, method: method, call: call, span: span)
            case .semaphore(let semaphore)?:
                return lowerSemaphoreCall(semaphore, method: method, call: call, span: span)
            case .workItem(let item)?:
                return lowerWorkItemCall(item, method: method, call: call, span: span)
            case .timerSource(let source)?:
                return lowerTimerCall(source, method: method, call: call, span: span)
            case .variable(let variable)? where method == "append":
                guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil,
                    let value = lowerExpression(argument.expression)
                else {
                    report("append takes one value: list.append(x)", Syntax(call))
                    return nil
                }
                guard checkAssignment(.append, to: variable, value, at: Syntax(call)) else { return nil }
                return Statement(.assign(Assignment(target: variable, operation: .append, value: value)), at: span)
            case .variable(let variable)? where method == "sort" || method == "reverse":
                return lowerSortInPlace(variable, method: method, call: call, span: span)
            default:
                break
            }
        }
        if method == "async", !isDispatchQueueType(base), call.trailingClosure == nil,
            let argument = call.arguments.last, argument.label?.text == "execute",
            case .workItem(let item)? = binding(of: argument.expression)
        {
            guard let queue = resolveQueue(base) else { return nil }
            var group: GroupID?
            for other in call.arguments.dropLast() {
                guard other.label?.text == "group", let name = other.expression.as(DeclReferenceExprSyntax.self),
                    case .group(let found)? = lookup(name.baseName.text)
                else {
                    report("write q.async(execute: item) or q.async(group: g, execute: item) for a DispatchWorkItem", Syntax(other))
                    return nil
                }
                group = found
            }
            return Statement(.workItem(item, .submit(queue: queue, group: group)), at: span)
        }
        if method == "asyncAndWait", !isDispatchQueueType(base) {
            guard let queue = resolveQueue(base) else { return nil }
            return lowerAsyncAndWait(call, queue: queue, span: span)
        }
        if let mode = DispatchMode(rawValue: method), !isDispatchQueueType(base) {
            guard let queue = resolveQueue(base) else { return nil }
            guard let (body, options) = dispatchedClosure(call, method: method) else { return nil }
            return Statement(.dispatch(queue: queue, mode: mode, body: body, options: options), at: span)
        }
        unsupported(Syntax(call))
        return nil
    }

    /// The closure of `q.sync { }`, `q.async(flags: .barrier) { }`, `q.async(group: g) { }` or
    /// `q.async(execute: { })`, lowered to a block, with the call's options.
    private mutating func dispatchedClosure(_ call: FunctionCallExprSyntax, method: String) -> (BlockID, DispatchOptions)? {
        var closure: ClosureExprSyntax?
        var options = DispatchOptions.none
        for argument in call.arguments {
            switch argument.label?.text {
            case "execute" where argument.expression.is(ClosureExprSyntax.self):
                closure = argument.expression.as(ClosureExprSyntax.self)
            case "execute":
                if case .some(let kept) = keptClosureBlock(argument.expression) {
                    guard let kept, call.trailingClosure == nil, call.arguments.last?.id == argument.id else { return nil }
                    return (kept, options)
                }
                report("'execute:' takes a closure { … } or a DispatchWorkItem declared in the snippet: write '\(method) { … }'", Syntax(argument.expression))
                return nil
            case "flags":
                guard let flags = dispatchFlags(argument.expression) else { return nil }
                options.barrier = flags.contains("barrier")
            case "group" where method == "async":
                guard let reference = argument.expression.as(DeclReferenceExprSyntax.self),
                    case .group(let group)? = lookup(reference.baseName.text)
                else {
                    report("group: takes a DispatchGroup declared in the snippet", Syntax(argument.expression))
                    return nil
                }
                options.group = group
            case "qos":
                break  // a hint to the scheduler: no effect on the possible outcomes
            case let label?:
                report("the '\(label):' argument of \(method) is outside the supported subset", Syntax(argument))
                return nil
            case nil:
                report("\(method) takes a closure here: write '\(method) { … }' or '\(method)(execute: { … })'", Syntax(argument))
                return nil
            }
        }
        if let trailing = call.trailingClosure {
            closure = trailing
        }
        if let extra = call.additionalTrailingClosures.first {
            report("more than one trailing closure is outside the supported subset", Syntax(extra))
            return nil
        }
        guard let closure else {
            report("\(method) needs a closure: write '\(method) { … }'", Syntax(call))
            return nil
        }
        var captured: [(name: String, variable: VariableID)] = []
        if let signature = closure.signature {
            guard let captures = acceptsSignature(signature, of: closure) else { return nil }
            captured = captures
        }
        let body = lowerBlock(closure.statements, span: span(of: Syntax(closure)), runsOnce: true) { lowering in
            for capture in captured { lowering.bind(capture.name, .variable(capture.variable)) }
        }
        return (body, options)
    }

    /// `{ () -> Int in … }`, `{ () in … }`, `{ [x, copy = y] in … }`: a closure of no parameters
    /// may say so, give the type of the value it returns (a sync whose value is used), and list
    /// the values it captures as they are now. Returns the captured names with the hidden
    /// variables that keep those values (set just before the call); nil when refused.
    mutating func acceptsSignature(_ signature: ClosureSignatureSyntax, of closure: ClosureExprSyntax) -> [(name: String, variable: VariableID)]? {
        let noParameters: Bool = switch signature.parameterClause {
        case .parameterClause(let clause)?: clause.parameters.isEmpty
        case .simpleInput(let names)?: names.isEmpty
        case nil: true
        }
        guard noParameters, signature.effectSpecifiers == nil else {
            report("closure parameters are outside the supported subset", Syntax(signature))
            return nil
        }
        var captured: [(name: String, variable: VariableID)] = []
        for capture in signature.capture?.items ?? [] {
            guard capture.specifier == nil else {
                report("'\(capture.specifier!.sourceText)' captures are outside the supported subset (the snippet has no objects of its own)", Syntax(capture))
                return nil
            }
            let lowered: Expression
            if let initializer = capture.initializer {
                guard let value = lowerExpression(initializer.value) else { return nil }
                lowered = value
            } else {
                guard case .variable(let variable)? = lookup(capture.name.text) else {
                    report("cannot find '\(capture.name.text)' in scope, or it is not a value to capture", Syntax(capture))
                    return nil
                }
                lowered = .variable(variable)
            }
            guard let type = type(of: lowered) else { return nil }
            let span = self.span(of: Syntax(capture))
            let kept = newVariable(capture.name.text, isGlobal: false, span: span, type: type)
            // The capture list is evaluated where the closure is made: before the call.
            hoisted.append(Statement(.assign(Assignment(target: kept, operation: .set, value: lowered)), at: span))
            captured.append((capture.name.text, kept))
        }
        guard let returnClause = signature.returnClause, !["Void", "()"].contains(returnClause.type.sourceText) else { return captured }
        guard valueClosures.keys.contains(closure.id) else {
            report("a closure here returns nothing: its value is not used", Syntax(returnClause))
            return nil
        }
        guard let type = staticType(returnClause.type) else { return nil }
        valueClosures[closure.id] = .some(type)
        return captured
    }

    /// `.barrier`, `[.barrier]`, and flags that change nothing about order (accepted).
    private mutating func dispatchFlags(_ expr: ExprSyntax) -> Set<String>? {
        let elements = expr.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) } ?? [expr]
        var names: Set<String> = []
        for element in elements {
            guard let member = element.as(MemberAccessExprSyntax.self), member.base == nil else {
                report("flags are written '.barrier' or '[.barrier]'", Syntax(element))
                return nil
            }
            let name = member.declName.baseName.text
            guard ["barrier", "enforceQoS", "inheritQoS", "assignCurrentContext", "detached", "noQoS"].contains(name) else {
                report("the flag '.\(name)' is outside the supported subset", Syntax(element))
                return nil
            }
            names.insert(name)
        }
        return names
    }

    /// `q.asyncAndWait { }` or `(execute: { })`: a sync dispatch that knows it is one
    /// (`DispatchOptions.asyncAndWait`). Flags and a work item are outside the subset.
    private mutating func lowerAsyncAndWait(_ call: FunctionCallExprSyntax, queue: QueueID, span: SourceSpan) -> Statement? {
        if let flags = call.arguments.first(where: { $0.label?.text == "flags" }) {
            report("asyncAndWait(flags:) is outside the supported subset: write q.asyncAndWait { … }", Syntax(flags))
            return nil
        }
        if let item = call.arguments.first(where: { $0.label?.text == "execute" && !$0.expression.is(ClosureExprSyntax.self) }) {
            report("asyncAndWait(execute:) with a DispatchWorkItem is outside the supported subset: write q.asyncAndWait { … }", Syntax(item.expression))
            return nil
        }
        guard let (body, options) = dispatchedClosure(call, method: "asyncAndWait") else { return nil }
        var waiting = options
        waiting.asyncAndWait = true
        return Statement(.dispatch(queue: queue, mode: .sync, body: body, options: waiting), at: span)
    }

    /// `q.asyncAfter(deadline: .now() + d) { }`, `(deadline:, execute: { })`, or
    /// `(deadline:, execute: item)` for a DispatchWorkItem the snippet declares.
    private mutating func lowerAsyncAfter(_ call: FunctionCallExprSyntax, queue: QueueID, span: SourceSpan) -> Statement? {
        var delay: Delay?
        var closure = call.trailingClosure
        var item: WorkItemID?
        for argument in call.arguments {
            switch argument.label?.text {
            case "deadline", "wallDeadline":
                guard let value = deadline(argument.expression) else { return nil }
                delay = value
            case "execute" where argument.expression.is(ClosureExprSyntax.self):
                closure = argument.expression.as(ClosureExprSyntax.self)
            case "execute":
                if case .some(let kept) = keptClosureBlock(argument.expression) {
                    guard let kept, let delay else { return nil }
                    return Statement(.dispatchAfter(queue: queue, delay: delay, body: kept), at: span)
                }
                guard case .workItem(let found)? = binding(of: argument.expression) else {
                    report("'execute:' takes a closure { … } or a DispatchWorkItem declared in the snippet", Syntax(argument.expression))
                    return nil
                }
                item = found
            case "qos", "flags":
                break
            default:
                report("write q.asyncAfter(deadline: .now() + 0.1) { … }", Syntax(argument))
                return nil
            }
        }
        if let item, let delay, closure == nil {
            return Statement(.workItem(item, .submitAfter(queue: queue, delay: delay)), at: span)
        }
        guard let delay, let closure, closure.signature == nil else {
            report("write q.asyncAfter(deadline: .now() + 0.1) { … }", Syntax(call))
            return nil
        }
        let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)), runsOnce: true)
        return Statement(.dispatchAfter(queue: queue, delay: delay, body: body), at: span)
    }

    /// `DispatchQueue.concurrentPerform(iterations: n) { i in … }`.
    private mutating func lowerConcurrentPerform(_ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        if call.arguments.count == 1, let argument = call.arguments.first, let iterations = integerLiteral(argument.expression),
            iterations > Self.maximumIterations {
            report("concurrentPerform(iterations: \(iterations)): gcdquiz explores at most \(Self.maximumIterations) iterations (each may run on a thread of its own); a few show the same races", Syntax(argument.expression))
            return nil
        }
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "iterations",
            let iterations = integerLiteral(argument.expression), (0...Self.maximumIterations).contains(iterations),
            let closure = call.trailingClosure
        else {
            report("write DispatchQueue.concurrentPerform(iterations: 3) { i in … } with a whole number of iterations (at most \(Self.maximumIterations))", Syntax(call))
            return nil
        }
        var name: String?
        if let signature = closure.signature {
            guard case .simpleInput(let parameters)? = signature.parameterClause, parameters.count == 1,
                let parameter = parameters.first
            else {
                report("concurrentPerform's closure takes one parameter: { i in … }", Syntax(signature))
                return nil
            }
            if parameter.name.text != "_" { name = parameter.name.text }
        }
        var variable: VariableID?
        let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure))) { lowering in
            if let name {
                let id = lowering.newVariable(name, isGlobal: false, span: span, type: .int)
                lowering.bind(name, .variable(id))
                variable = id
            }
        }
        return Statement(.concurrentPerform(ConcurrentPerform(
            iterations: iterations, variable: variable, body: body, queue: globalQueue(qos: .default))), at: span)
    }

    /// `dispatchPrecondition(condition: .onQueue(q))`, `.notOnQueue(q)`, `.onQueueAsBarrier(q)`.
    private mutating func lowerPrecondition(_ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "condition",
            let condition = argument.expression.as(FunctionCallExprSyntax.self),
            let member = condition.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
            let kind = PreconditionKind(rawValue: member.declName.baseName.text), kind.mainActorCall == nil,
            condition.arguments.count == 1, let queueArgument = condition.arguments.first
        else {
            report("write dispatchPrecondition(condition: .onQueue(q)) (or .notOnQueue, .onQueueAsBarrier)", Syntax(call))
            return nil
        }
        guard let queue = resolveQueue(queueArgument.expression) else { return nil }
        return Statement(.precondition(kind, queue), at: span)
    }

    private mutating func lowerGroupCall(_ group: GroupID, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        switch method {
        case "enter", "leave", "wait":
            if method == "wait", call.arguments.first?.label?.text == "timeout" {
                return timedWaitStatement(call, span: span)
            }
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(method)() takes no arguments", Syntax(call))
                return nil
            }
            let action: GroupAction = method == "enter" ? .enter : method == "leave" ? .leave : .wait
            return Statement(.group(group, action), at: span)
        case "notify":
            guard call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "queue" else {
                report("write group.notify(queue: q) { … }", Syntax(call))
                return nil
            }
            guard let queue = resolveQueue(argument.expression) else { return nil }
            guard let closure = call.trailingClosure, closure.signature == nil else {
                report("notify needs a closure: group.notify(queue: q) { … }", Syntax(call))
                return nil
            }
            let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)), runsOnce: true)
            return Statement(.group(group, .notify(queue: queue, body: body)), at: span)
        default:
            report("DispatchGroup's '\(method)' is outside the supported subset (enter, leave, wait, notify)", Syntax(call))
            return nil
        }
    }

    private mutating func lowerWorkItemCall(_ item: WorkItemID, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        switch method {
        case "perform", "cancel", "wait":
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(method)() takes no arguments here", Syntax(call))
                return nil
            }
            let action: WorkItemAction = method == "perform" ? .perform : method == "cancel" ? .cancel : .wait
            return Statement(.workItem(item, action), at: span)
        case "notify":
            // `notify(queue: q) { … }` or `notify(queue: q, execute: { … })`.
            let closure = call.trailingClosure
                ?? call.arguments.dropFirst().first.flatMap { $0.label?.text == "execute" ? $0.expression.as(ClosureExprSyntax.self) : nil }
            guard call.arguments.count == (call.trailingClosure == nil ? 2 : 1), let argument = call.arguments.first,
                argument.label?.text == "queue", let closure, closure.signature == nil
            else {
                report("write item.notify(queue: q) { … }", Syntax(call))
                return nil
            }
            guard let queue = resolveQueue(argument.expression) else { return nil }
            let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)), runsOnce: true)
            return Statement(.workItem(item, .notify(queue: queue, body: body)), at: span)
        default:
            report("DispatchWorkItem's '\(method)' is outside the supported subset (perform, cancel, wait, notify)", Syntax(call))
            return nil
        }
    }

    private mutating func lowerSemaphoreCall(_ semaphore: SemaphoreID, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        if let kind = semaphores[semaphore.index].lock {
            // A lock's calls on a line of their own are lowered as statements (`lowerLockCall`).
            guard method != "withLock", let statements = lowerLockCall(semaphore, kind, method: method, call: call, span: span) else {
                if method == "withLock" { report("withLock is supported on a line of its own or as a value (let v = m.withLock { $0 })", Syntax(call)) }
                return nil
            }
            return statements.first
        }
        guard method == "wait" || method == "signal" else {
            report("DispatchSemaphore's '\(method)' is outside the supported subset (wait, signal)", Syntax(call))
            return nil
        }
        if method == "wait", call.arguments.first?.label?.text == "timeout" {
            return timedWaitStatement(call, span: span)
        }
        guard call.arguments.isEmpty, call.trailingClosure == nil else {
            report("\(method)() takes no arguments", Syntax(call))
            return nil
        }
        return Statement(.semaphore(semaphore, method == "wait" ? .wait : .signal), at: span)
    }

    /// `s.wait(timeout: …)` as a statement, its result unused (Swift warns, and runs it).
    private mutating func timedWaitStatement(_ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        let reported = problems.count
        guard let (waitable, delay) = timedWait(ExprSyntax(call)) else {
            if problems.count == reported { report("write wait(timeout: .now() + 0.5)", Syntax(call)) }
            return nil
        }
        return Statement(.timedWait(waitable, delay: delay, result: nil), at: span)
    }

    private mutating func printedItems(_ call: FunctionCallExprSyntax) -> [Expression]? {
        if let closure = call.trailingClosure {
            report("print does not take a closure", Syntax(closure))
            return nil
        }
        var items: [Expression] = []
        for argument in call.arguments {
            if let label = argument.label?.text {
                report("print's '\(label):' argument is outside the supported subset", Syntax(argument))
                return nil
            }
            // An optional from getSpecific prints as Swift prints it (swiftc warns, and compiles).
            var printed = argument.expression
            if let cast = printed.as(AsExprSyntax.self), cast.type.sourceText == "Any" { printed = cast.expression }
            if let found = getSpecificCall(printed) {
                guard let key = found else { return nil }
                items.append(.specific(key, .printed))
                continue
            }
            guard let item = lowerExpression(argument.expression), !refusesTaskText(type(of: item), at: Syntax(argument.expression)) else { return nil }
            switch type(of: item) {
            case .tuple?, .dictionary?:
                // Swift prints "(1, 2)" and a dictionary in its hash order, which varies by run.
                report("printing a tuple or a dictionary is outside the supported subset: print its parts", Syntax(argument.expression))
                return nil
            case .int?, .string?, .bool?, .list?, .error?, .integer?, .double?, .optional?, .enumeration?, nil:
                break
            case .task?:
                return nil  // refused above
            case .continuation?:
                report("printing a continuation is outside the supported subset", Syntax(argument.expression))
                return nil
            }
            if item.variablesRead.contains(where: { variableTypes[$0] == .error }) { errorPrints.append(Syntax(argument)) }
            items.append(printable(item))
        }
        return items
    }
}
