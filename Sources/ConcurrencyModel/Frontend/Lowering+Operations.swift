import SwiftSyntax

/// OperationQueue and Operation: declarations, their methods, and the properties a snippet sets.
extension Lowering {
    // MARK: Declarations

    /// `let q = OperationQueue()`, `let q = OperationQueue.main`, `let op = BlockOperation { }`,
    /// `BlockOperation(block: { })`, `BlockOperation()`, `Operation()`. Nil when `value` is none
    /// of these (the caller goes on with a plain variable).
    mutating func declareOperationObject(_ name: String, _ value: ExprSyntax, span: SourceSpan, declaration: Syntax) -> [Statement]? {
        if isOperationQueueExpression(value) {
            guard mayDeclareObjects else {
                report("declare operation queues at the top level of the snippet or of a function", declaration)
                return []
            }
            if let call = value.as(FunctionCallExprSyntax.self), isType(call.calledExpression, "OperationQueue") {
                guard call.arguments.isEmpty, call.trailingClosure == nil else {
                    report("OperationQueue() takes no arguments", Syntax(call))
                    return []
                }
                bind(name, .operationQueue(newOperationQueue(name, span: span)))
            } else if let queue = resolveOperationQueue(value) {
                bind(name, .operationQueue(queue))
            }
            return []
        }
        guard let call = value.as(FunctionCallExprSyntax.self), let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            type == "BlockOperation" || type == "Operation"
        else { return nil }
        guard mayDeclareObjects else {
            report("declare operations at the top level of the snippet or of a function (inside a closure, use queue.addOperation { … })", declaration)
            return []
        }
        var closure = call.trailingClosure
        for argument in call.arguments {
            guard type == "BlockOperation", argument.label?.text == "block", let block = argument.expression.as(ClosureExprSyntax.self) else {
                report("write BlockOperation { … }, BlockOperation(), or Operation()", Syntax(argument))
                return []
            }
            closure = block
        }
        if closure != nil && type == "Operation" {
            report("Operation() takes no closure: use BlockOperation { … }", Syntax(call))
            return []
        }
        if let signature = closure?.signature {
            report("closure parameters and captures are outside the supported subset", Syntax(signature))
            return []
        }
        let cancelled = newVariable("\(name).isCancelled", isGlobal: true, span: span, type: .bool, synchronized: true)
        let blocks = closure.map { [lowerBlock($0.statements, span: self.span(of: Syntax($0)))] } ?? []
        let id = OperationID(index: operations.count)
        operations.append(OperationDecl(name: name, blocks: blocks, cancelled: cancelled, span: span))
        bind(name, .operation(id))
        return [Statement(.operation(id, .create), at: span)]
    }

    private mutating func newOperationQueue(_ name: String, span: SourceSpan?) -> OperationQueueID {
        // Foundation's private concurrent queue behind the OperationQueue; completion blocks and
        // extra execution blocks go to the default global queue.
        let global = globalQueue(qos: .default)
        queues.append(QueueDecl(name: name, label: "NSOperationQueue \(name)", kind: .concurrent, span: span))
        operationQueues.append(OperationQueueDecl(name: name, backing: QueueID(index: queues.count - 1), globalQueue: global, isMain: false, span: span))
        return OperationQueueID(index: operationQueues.count - 1)
    }

    private mutating func mainOperationQueue() -> OperationQueueID {
        if let index = operationQueues.firstIndex(where: \.isMain) { return OperationQueueID(index: index) }
        let global = globalQueue(qos: .default)
        operationQueues.append(OperationQueueDecl(name: "OperationQueue.main", backing: Program.mainQueueID(in: queues), globalQueue: global, isMain: true, span: nil))
        return OperationQueueID(index: operationQueues.count - 1)
    }

    func isType(_ expr: some SyntaxProtocol, _ name: String) -> Bool {
        expr.as(DeclReferenceExprSyntax.self)?.baseName.text == name
    }

    func isOperationQueueExpression(_ expr: ExprSyntax) -> Bool {
        if let call = expr.as(FunctionCallExprSyntax.self) { return isType(call.calledExpression, "OperationQueue") }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base { return isType(base, "OperationQueue") }
        if case .operationQueue? = binding(of: expr) { return true }
        return false
    }

    /// A declared operation queue or `OperationQueue.main`.
    mutating func resolveOperationQueue(_ expr: ExprSyntax) -> OperationQueueID? {
        if case .operationQueue(let queue)? = binding(of: expr) {
            return queue
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, isType(base, "OperationQueue") {
            if member.declName.baseName.text == "main" { return mainOperationQueue() }
            report("'OperationQueue.\(member.declName.baseName.text)' is outside the supported subset: use OperationQueue.main or a queue the snippet declares", Syntax(expr))
            return nil
        }
        report("declare the queue first: 'let queue = OperationQueue()'", Syntax(expr))
        return nil
    }

    // MARK: Calls

    mutating func lowerOperationQueueCall(_ queue: OperationQueueID, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        let isMain = operationQueues[queue.index].isMain
        switch method {
        case "addOperation":
            if call.arguments.isEmpty, let closure = call.trailingClosure {
                guard closure.signature == nil else {
                    report("closure parameters and captures are outside the supported subset", Syntax(closure))
                    return nil
                }
                let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
                operations.append(OperationDecl(name: "the operation at line \(span.line)", blocks: [body], cancelled: nil, span: span))
                return Statement(.operationQueue(queue, .addBlock(OperationID(index: operations.count - 1))), at: span)
            }
            guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil, call.trailingClosure == nil else {
                report("write queue.addOperation(op) or queue.addOperation { … }", Syntax(call))
                return nil
            }
            guard let operation = operationReference(argument.expression) else { return nil }
            return Statement(.operationQueue(queue, .add([operation])), at: span)
        case "addOperations":
            guard call.arguments.count == 2, let list = call.arguments.first?.expression.as(ArrayExprSyntax.self),
                call.arguments.first?.label == nil, let wait = call.arguments.last, wait.label?.text == "waitUntilFinished",
                let waits = booleanLiteral(wait.expression)
            else {
                report("write queue.addOperations([a, b], waitUntilFinished: false)", Syntax(call))
                return nil
            }
            var added: [OperationID] = []
            for element in list.elements {
                guard let operation = operationReference(element.expression) else { return nil }
                added.append(operation)
            }
            if waits {
                pendingStatements.append(Statement(.operationQueue(queue, .waitFor(added)), at: span))
            }
            return Statement(.operationQueue(queue, .add(added)), at: span)
        case "cancelAllOperations", "waitUntilAllOperationsAreFinished":
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(method)() takes no arguments", Syntax(call))
                return nil
            }
            if method == "cancelAllOperations" && isMain {
                report("cancelAllOperations() on OperationQueue.main is outside the supported subset (Foundation on Linux ignores it)", Syntax(call))
                return nil
            }
            return Statement(.operationQueue(queue, method == "cancelAllOperations" ? .cancelAll : .waitUntilAllFinished), at: span)
        default:
            report("OperationQueue's '\(method)' is outside the supported subset (addOperation, addOperations, cancelAllOperations, waitUntilAllOperationsAreFinished)", Syntax(call))
            return nil
        }
    }

    mutating func lowerOperationCall(_ operation: OperationID, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        switch method {
        case "addDependency":
            guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil,
                let other = operationReference(argument.expression)
            else {
                report("write op.addDependency(other)", Syntax(call))
                return nil
            }
            return Statement(.operation(operation, .addDependency(other)), at: span)
        case "addExecutionBlock":
            guard call.arguments.isEmpty, let closure = call.trailingClosure, closure.signature == nil else {
                report("write op.addExecutionBlock { … }", Syntax(call))
                return nil
            }
            let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
            return Statement(.operation(operation, .addBlock(body)), at: span)
        case "cancel", "waitUntilFinished":
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(method)() takes no arguments", Syntax(call))
                return nil
            }
            return Statement(.operation(operation, method == "cancel" ? .cancel : .waitUntilFinished), at: span)
        case "start":
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("start() takes no arguments", Syntax(call))
                return nil
            }
            return Statement(.operation(operation, .start(globalQueue: globalQueue(qos: .default))), at: span)
        default:
            report("Operation's '\(method)' is outside the supported subset (addDependency, addExecutionBlock, cancel, start, waitUntilFinished)", Syntax(call))
            return nil
        }
    }

    /// `op.completionBlock = { }`, `op.queuePriority = .high`, `queue.maxConcurrentOperationCount = 1`,
    /// `queue.isSuspended = true`.
    mutating func lowerPropertyAssignment(_ member: MemberAccessExprSyntax, _ value: ExprSyntax, span: SourceSpan) -> Statement? {
        let property = member.declName.baseName.text
        guard let base = member.base else {
            unsupported(Syntax(member))
            return nil
        }
        if case .operation(let operation)? = binding(of: base) {
            switch property {
            case "completionBlock":
                guard let closure = value.as(ClosureExprSyntax.self), closure.signature == nil else {
                    report("write op.completionBlock = { … }", Syntax(value))
                    return nil
                }
                let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
                return Statement(.operation(operation, .setCompletion(body)), at: span)
            case "queuePriority":
                guard let name = value.as(MemberAccessExprSyntax.self)?.declName.baseName.text, value.as(MemberAccessExprSyntax.self)?.base == nil,
                    let priority = QueuePriority(name: name)
                else {
                    report("a queue priority is one of \(QueuePriority.allCases.map { "." + $0.name }.joined(separator: ", "))", Syntax(value))
                    return nil
                }
                return Statement(.operation(operation, .setPriority(priority)), at: span)
            case "name", "qualityOfService":
                ignoredSetting(property, value)
                return nil
            default:
                report("setting '\(property)' of an operation is outside the supported subset (completionBlock, queuePriority, name, qualityOfService)", Syntax(member))
                return nil
            }
        }
        if isOperationQueueExpression(base) {
            guard let queue = resolveOperationQueue(base) else { return nil }
            if ["name", "qualityOfService"].contains(property) {
                ignoredSetting(property, value)
                return nil
            }
            if operationQueues[queue.index].isMain {
                report("OperationQueue.main runs one operation at a time on the main thread; setting '\(property)' on it is outside the supported subset", Syntax(member))
                return nil
            }
            switch property {
            case "maxConcurrentOperationCount":
                if let count = integerLiteral(value), count >= 0 {
                    return Statement(.operationQueue(queue, .setMaxConcurrent(count)), at: span)
                }
                if value.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "defaultMaxConcurrentOperationCount" {
                    return Statement(.operationQueue(queue, .setMaxConcurrent(nil)), at: span)
                }
                report("maxConcurrentOperationCount is a whole number ≥ 0 (or OperationQueue.defaultMaxConcurrentOperationCount)", Syntax(value))
                return nil
            case "isSuspended":
                guard let suspended = booleanLiteral(value) else {
                    report("isSuspended is set to true or false", Syntax(value))
                    return nil
                }
                return Statement(.operationQueue(queue, .setSuspended(suspended)), at: span)
            case "underlyingQueue":
                report("setting underlyingQueue is outside the supported subset: it changes where the operations run (a serial queue runs them one at a time)", Syntax(member))
                return nil
            default:
                report("setting '\(property)' of an OperationQueue is outside the supported subset (maxConcurrentOperationCount, isSuspended, name, qualityOfService)", Syntax(member))
                return nil
            }
        }
        if let actorProperty = actorMember(ExprSyntax(member)) {
            reportActorAccess(.write, actorProperty)
            return nil
        }
        report("setting '\(member.sourceText)' is outside the supported subset", Syntax(member))
        return nil
    }

    /// A setting that changes nothing the model orders (`name`, `qualityOfService`: a thread's
    /// priority, not who goes first): its value is checked as Swift would, then it is left out.
    private mutating func ignoredSetting(_ property: String, _ value: ExprSyntax) {
        if property == "name" {
            guard let name = lowerExpression(value) else { return }
            if type(of: name) != .string { report("cannot assign a value of type '\(type(of: name).map { "\($0)" } ?? "?")' to type 'String?'", Syntax(value)) }
            return
        }
        let classes = ["userInteractive", "userInitiated", "default", "utility", "background"]
        guard let member = value.as(MemberAccessExprSyntax.self), member.base == nil, classes.contains(member.declName.baseName.text) else {
            report("a quality of service is one of " + classes.map { "." + $0 }.joined(separator: ", "), Syntax(value))
            return
        }
    }

    private mutating func operationReference(_ expr: ExprSyntax) -> OperationID? {
        guard case .operation(let operation)? = binding(of: expr) else {
            report("'\(expr.sourceText)' is not an operation the snippet declares ('let op = BlockOperation { … }')", Syntax(expr))
            return nil
        }
        return operation
    }

    func booleanLiteral(_ expr: ExprSyntax) -> Bool? {
        expr.as(BooleanLiteralExprSyntax.self).map { $0.literal.tokenKind == .keyword(.true) }
    }
}
