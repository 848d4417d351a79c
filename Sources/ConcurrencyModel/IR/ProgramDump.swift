extension Program {
    /// The IR as an indented tree, one node per line (as swift-markdown's `MarkupTreeDumper`
    /// prints a document): the declarations, then the top-level code with every body under the
    /// statement that runs or submits it, ids resolved to the snippet's names. Lowering tests
    /// compare it with a golden file; a person reads it to see what a snippet was lowered to.
    public func dump() -> String {
        var dumper = ProgramDumper(program: self)
        return dumper.tree().rendered().joined(separator: "\n") + "\n"
    }
}

/// One line of the dump and the lines nested under it.
private struct DumpNode {
    var text: String
    var children: [DumpNode] = []

    /// The node and its children with tree lines: `├─ ` before a child, `└─ ` before the last.
    func rendered() -> [String] {
        var lines = [text]
        for (index, child) in children.enumerated() {
            let last = index == children.count - 1
            let nested = child.rendered()
            lines.append((last ? "└─ " : "├─ ") + nested[0])
            lines += nested.dropFirst().map { (last ? "   " : "│  ") + $0 }
        }
        return lines
    }
}

private struct ProgramDumper {
    let program: Program
    /// Blocks already shown, so that blocks nothing reaches are listed at the end.
    var shown: Set<Int> = []

    init(program: Program) {
        self.program = program
    }

    mutating func tree() -> DumpNode {
        var root = DumpNode(text: "Program")
        func section(_ title: String, _ nodes: [DumpNode]) {
            if !nodes.isEmpty { root.children.append(DumpNode(text: title, children: nodes)) }
        }
        section("Queues", program.queues.indices.map { index in
            let queue = program.queues[index]
            let qos = queue.qos.map { " qos: \($0.rawValue)" } ?? ""
            let inactive = queue.initiallyInactive ? " initiallyInactive" : ""
            let target = queue.target.map { " target: \(program[$0].name)" } ?? ""
            return DumpNode(text: "\(QueueID(index: index)) \(queue.name) \(queue.kind.rawValue) label: \"\(queue.label)\"\(qos)\(inactive)\(target)\(at(queue.span))")
        })
        section("Variables", program.variables.indices.map { index in
            let variable = program.variables[index]
            let scope = variable.isGlobal ? "global" : "local"
            return DumpNode(text: "\(VariableID(index: index)) \(variable.name) \(scope)\(variable.isSynchronized ? " synchronized" : "")\(at(variable.span))")
        })
        section("Groups", program.groups.map { DumpNode(text: "\($0.name)\(at($0.span))") })
        section("Semaphores", program.semaphores.map { semaphore in
            let kind = semaphore.lock.map { " \($0.rawValue) lock" } ?? ""
            return DumpNode(text: "\(semaphore.name) value: \(semaphore.initialValue)\(kind)\(at(semaphore.span))")
        })
        section("WorkItems", program.workItems.map { item in
            DumpNode(text: "\(item.name)\(item.barrier ? " barrier" : "") body: \(item.body) cancelled: \(program[item.cancelled].name)\(at(item.span))")
        })
        section("OperationQueues", program.operationQueues.map { queue in
            DumpNode(text: "\(queue.name)\(queue.isMain ? " main" : "") backing: \(program[queue.backing].name)\(at(queue.span))")
        })
        section("Operations", program.operations.map { operation in
            let blocks = operation.blocks.map(\.description).joined(separator: ", ")
            let cancelled = operation.cancelled.map { " cancelled: \(program[$0].name)" } ?? ""
            return DumpNode(text: "\(operation.name) blocks: [\(blocks)]\(cancelled)\(at(operation.span))")
        })
        section("TimerSources", program.timerSources.map { source in
            DumpNode(text: "\(source.name) queue: \(program[source.queue].name) (\(source.queue)) target: \(program[source.target].name)\(at(source.span))")
        })
        var path: [Int] = []
        root.children.append(node(program.entry, title: "Entry", path: &path))
        // Blocks no statement runs or submits (a function never called): shown on their own.
        for index in program.blocks.indices where !shown.contains(index) {
            root.children.append(node(BlockID(index: index), title: "Unreached", path: &path))
        }
        return root
    }

    /// A block with its statements under it, each with the bodies it owns.
    private mutating func node(_ block: BlockID, title: String, path: inout [Int]) -> DumpNode {
        shown.insert(block.index)
        var node = DumpNode(text: "\(title) \(block)\(at(program[block].span))")
        guard !path.contains(block.index) else {
            node.text += " (recursive: not expanded)"
            return node
        }
        path.append(block.index)
        for statement in program[block].statements {
            var child = DumpNode(text: "line \(statement.span.line): \(describe(statement.action))")
            for body in program.bodies(of: statement.action) {
                child.children.append(self.node(body, title: "Body", path: &path))
            }
            node.children.append(child)
        }
        path.removeLast()
        return node
    }

    private func at(_ span: SourceSpan?) -> String {
        span.map { " (line \($0.line))" } ?? ""
    }

    private func name(_ queue: QueueID) -> String { program[queue].name }
    private func name(_ variable: VariableID) -> String { program[variable].name }
    private func name(_ group: GroupID) -> String { program.groups[group.index].name }
    private func name(_ semaphore: SemaphoreID) -> String { program.semaphores[semaphore.index].name }
    private func name(_ item: WorkItemID) -> String { program.workItems[item.index].name }
    private func name(_ queue: OperationQueueID) -> String { program[queue].name }
    private func name(_ operation: OperationID) -> String { program[operation].name }

    private func isolation(_ isolation: Isolation) -> String {
        switch isolation {
        case .generic: "the global executor"
        case .mainActor: "the main actor"
        case .actor(let queue): "actor \(name(queue))"
        }
    }

    private func names(_ operations: [OperationID]) -> String {
        "[" + operations.map(name).joined(separator: ", ") + "]"
    }

    /// The action in Swift-like notation, with the snippet's names.
    private func describe(_ action: Action) -> String {
        switch action {
        case .print(let items):
            return "print(" + items.map(swift).joined(separator: ", ") + ")"
        case .dispatch(let queue, let mode, _, let options):
            var arguments: [String] = []
            if let group = options.group { arguments.append("group: \(name(group))") }
            if options.barrier { arguments.append("flags: .barrier") }
            return (options.result.map { "\(name($0)) = " } ?? "")
                + "\(name(queue)).\(options.asyncAndWait ? "asyncAndWait" : mode.rawValue)" + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
        case .assign(let assignment):
            let target = name(assignment.target)
            let value = swift(assignment.value)
            switch assignment.operation {
            case .set: return "\(target) = \(value)"
            case .add: return "\(target) += \(value)"
            case .subtract: return "\(target) -= \(value)"
            case .append: return "\(target).append(\(value))"
            }
        case .loop(let loop):
            let variable = loop.variable.map(name) ?? "_"
            return "for \(variable) in \(swift(loop.from))\(loop.inclusive ? "..." : "..<")\(swift(loop.to))"
        case .whileLoop(let loop):
            return loop.entersUntested ? "repeat (body once, then the test below)" : "while \(swift(loop.condition))"
        case .branch(let condition, _, let otherwise):
            return "if \(swift(condition))" + (otherwise == nil ? "" : " else")
        case .group(let group, let action):
            switch action {
            case .enter: return "\(name(group)).enter()"
            case .leave: return "\(name(group)).leave()"
            case .wait: return "\(name(group)).wait()"
            case .notify(let queue, _): return "\(name(group)).notify(queue: \(name(queue)))"
            }
        case .semaphore(let semaphore, let action):
            // A lock's calls as written: lock()/unlock(), or where a Mutex's withLock begins and ends.
            switch (program.semaphores[semaphore.index].lock, action) {
            case (nil, .wait): return "\(name(semaphore)).wait()"
            case (nil, .signal): return "\(name(semaphore)).signal()"
            case (.plain?, .wait), (.recursive?, .wait): return "\(name(semaphore)).lock()"
            case (.plain?, .signal), (.recursive?, .signal): return "\(name(semaphore)).unlock()"
            case (.mutex?, .wait): return "\(name(semaphore)).withLock: lock"
            case (.mutex?, .signal): return "\(name(semaphore)).withLock: unlock"
            }
        case .dispatchAfter(let queue, let delay, _):
            return "\(name(queue)).asyncAfter(deadline: .now() + \(self.delay(delay)))"
        case .sleep(let delay):
            return "sleep \(self.delay(delay))"
        case .timedWait(let waitable, let delay, let result):
            let target: String
            switch waitable {
            case .group(let group): target = name(group)
            case .semaphore(let semaphore): target = name(semaphore)
            }
            return (result.map { "\(name($0)) = " } ?? "") + "\(target).wait(timeout: .now() + \(self.delay(delay)))"
        case .activate(let queue):
            return "\(name(queue)).activate()"
        case .queueSetting(let queue, .target(let target)):
            return "\(name(queue)).setTarget(queue: \(name(target)))"
        case .queueSetting(let queue, .specific(let key, let value)):
            return "\(name(queue)).setSpecific(key: \(name(key)), value: \(swift(value)))"
        case .precondition(.assumeIsolated, _):
            return "MainActor.assumeIsolated"
        case .precondition(let kind, _) where kind == .assertIsolated || kind == .preconditionIsolated:
            return "MainActor.\(kind.rawValue)()"
        case .precondition(let kind, let queue):
            return "dispatchPrecondition(condition: .\(kind.rawValue)(\(name(queue))))"
        case .workItem(let item, let action):
            switch action {
            case .perform: return "\(name(item)).perform()"
            case .cancel: return "\(name(item)).cancel()"
            case .wait: return "\(name(item)).wait()"
            case .notify(let queue, _): return "\(name(item)).notify(queue: \(name(queue)))"
            case .submit(let queue, let group):
                return "\(name(queue)).async(" + (group.map { "group: \(name($0)), " } ?? "") + "execute: \(name(item)))"
            case .submitAfter(let queue, let delay):
                return "\(name(queue)).asyncAfter(deadline: .now() + \(self.delay(delay)), execute: \(name(item)))"
            }
        case .timer(let source, let action):
            let timer = program[source].name
            switch action {
            case .schedule(let deadline, let repeating):
                return "\(timer).schedule(deadline: .now() + \(self.delay(deadline))" + (repeating.map { ", repeating: \(self.delay($0))" } ?? "") + ")"
            case .setEventHandler: return "\(timer).setEventHandler"
            case .setCancelHandler: return "\(timer).setCancelHandler"
            case .activate: return "\(timer).activate()"
            case .cancel: return "\(timer).cancel()"
            }
        case .concurrentPerform(let perform):
            let variable = perform.variable.map { " \(name($0)) in" } ?? ""
            return "DispatchQueue.concurrentPerform(iterations: \(perform.iterations)) {\(variable) } helpers: \(name(perform.queue))"
        case .call(let call):
            return (call.result.map { "\(name($0)) = " } ?? "")
                + "\(call.name)(" + call.arguments.map { "\(name($0.parameter)): \(swift($0.value))" }.joined(separator: ", ") + ")"
        case .returns(let value):
            return "return" + (value.map { " " + swift($0) } ?? "")
        case .exitLoop(let exit):
            return exit.rawValue
        case .spawn(let spawn):
            let made = switch spawn.kind {
            case .unstructured: "Task"
            case .detached: "Task.detached"
            case .asyncLet: "async let"
            case .groupChild: "\(spawn.group.map { program.taskGroups[$0.index].name } ?? "group").addTask"
                + (spawn.unlessCancelled == nil ? "" : "UnlessCancelled")
            }
            return ((spawn.handle ?? spawn.unlessCancelled).map { "\(name($0)) = " } ?? "") + made + (spawn.priority.map { "(priority: .\($0.rawValue))" } ?? "")
                + " on \(isolation(spawn.isolation))"
        case .suspend(.yield):
            return "await Task.yield()"
        case .suspend(.sleep(let delay)):
            return "await Task.sleep \(self.delay(delay))"
        case .suspend(.value(let handle, let result)):
            return (result.map { "\(name($0)) = " } ?? "") + "await value of \(name(handle))"
        case .hop(let target):
            return "hop to \(isolation(target))"
        case .suspend(.groupNext(let next)):
            let taken = (next.result.map { "\(name($0)) = " } ?? "") + "await \(program.taskGroups[next.group.index].name).next()"
            return next.loops ? "for each \(taken)" : taken
        case .suspend(.groupWaitAll(let group)):
            return "await \(program.taskGroups[group.index].name).waitForAll()"
        case .withTaskGroup(let run):
            let group = program.taskGroups[run.group.index]
            return (run.result.map { "\(name($0)) = " } ?? "") + group.functionName + " \(group.name)"
        case .cancellation(.cancelTask(let handle)):
            return "\(name(handle)).cancel()"
        case .cancellation(.cancelGroup(let group)):
            return "\(program.taskGroups[group.index].name).cancelAll()"
        case .cancellation(.read(let variable)):
            return "\(name(variable)) = Task.isCancelled"
        case .cancellation(.check):
            return "try Task.checkCancellation()"
        case .cancellation(.addHandler(let block)):
            return "withTaskCancellationHandler onCancel: \(block)"
        case .cancellation(.removeHandler):
            return "end withTaskCancellationHandler"
        case .taskLocal(.bind(let local, let value)):
            return "\(program.taskLocals[local.index].name) bind \(swift(value))"
        case .taskLocal(.unbind(let local)):
            return "\(program.taskLocals[local.index].name) unbind"
        case .taskLocal(.read(let local, let variable)):
            return "\(name(variable)) = \(program.taskLocals[local.index].name)"
        case .throwing(.value(let error)):
            return "throw \(swift(error))"
        case .throwing(.pending):
            return "throw on the callee's error, if any"
        case .throwing(.sleepCancelled):
            return "throw CancellationError if cancellation ended the sleep"
        case .handles(let handler):
            let clauses = handler.clauses.map { clause in
                let bound = clause.binding.map { "let \(name($0))" }
                return switch clause.pattern {
                case .any: "catch" + (bound.map { " " + $0 } ?? "")
                case .type(let type): "catch " + (bound.map { "\($0) as \(type)" } ?? "is \(type)")
                case .value(let error): "catch \(error.type).\(error.text)"
                }
            }
            return switch handler.kind {
            case .catches: "do, " + clauses.joined(separator: ", ")
            case .optional: "try?"
            case .forced: "try!"
            case .endsAsyncLet: "async let's end on error, " + clauses.joined(separator: ", ")
            }
        case .continuation(let id, .start):
            return "withCheckedContinuation \(program[id].name)"
        case .continuation(_, .resumeHeld(let held)):
            return "\(operand(held))?.resume()"
        case .continuation(let id, .resume(let value)):
            return "\(program[id].name).resume(" + (value.map { "returning: " + swift($0) } ?? "") + ")"
        case .suspend(.continuation(let id, let result)):
            return (result.map { "\(name($0)) = " } ?? "") + "await the resume of \(program[id].name)"
        case .stream(let id, .start):
            let policy = program[id].policy == .unbounded ? "" : ", bufferingPolicy \(program[id].policy)"
            return "\(program[id].typeName) \(program[id].name), continuation \(program[id].continuationName)" + policy
        case .stream(let id, .yield(let value)):
            return "\(program[id].continuationName).yield(\(swift(value)))"
        case .stream(let id, .finish):
            return "\(program[id].continuationName).finish()"
        case .stream(let id, .fail(let error)):
            return "\(program[id].continuationName).finish(throwing: \(swift(error)))"
        case .suspend(.streamNext(let next)):
            return "for each " + (next.result.map { "\(name($0)) = " } ?? "") + "await next of \(program[next.stream].name)"
        case .operation(let operation, let action):
            let op = name(operation)
            switch action {
            case .create: return "create \(op)"
            case .addBlock: return "\(op).addExecutionBlock"
            case .addDependency(let other): return "\(op).addDependency(\(name(other)))"
            case .setCompletion: return "\(op).completionBlock ="
            case .setPriority(let priority): return "\(op).queuePriority = .\(priority.name)"
            case .cancel: return "\(op).cancel()"
            case .waitUntilFinished: return "\(op).waitUntilFinished()"
            case .start(let global): return "\(op).start() completion: \(name(global))"
            }
        case .operationQueue(let queue, let action):
            let oq = name(queue)
            switch action {
            case .add(let operations): return "\(oq).addOperations(\(names(operations)))"
            case .waitFor(let operations): return "\(oq) waits until \(names(operations)) have finished"
            case .addBlock(let operation): return "\(oq).addOperation { } as \(name(operation))"
            case .setMaxConcurrent(let count): return "\(oq).maxConcurrentOperationCount = \(count.map(String.init) ?? "default")"
            case .setSuspended(let suspended): return "\(oq).isSuspended = \(suspended)"
            case .cancelAll: return "\(oq).cancelAllOperations()"
            case .waitUntilAllFinished: return "\(oq).waitUntilAllOperationsAreFinished()"
            }
        }
    }

    /// An expression as Swift source; nested operators are parenthesised.
    /// "100000 µs", or the expression that computes the microseconds (and the UInt32 it checks).
    private func delay(_ delay: Delay) -> String {
        if let constant = delay.constant { return "\(constant) µs" }
        let checked = delay.convertedToUInt32.map { " (UInt32(\(swift($0))) checked)" } ?? ""
        return "(\(swift(delay.microseconds))) µs" + checked
    }

    private func swift(_ expression: Expression) -> String {
        switch expression {
        case .literal(let value): literal(value)
        case .variable(let variable): name(variable)
        case .binary(let op, let lhs, let rhs): "\(operand(lhs)) \(op.rawValue) \(operand(rhs))"
        case .not(let inner): "!" + operand(inner)
        case .interpolation(let parts):
            "\"" + parts.map { part in
                if case .literal(.string(let text)) = part { text } else { "\\(" + swift(part) + ")" }
            }.joined() + "\""
        case .count(let inner): operand(inner) + ".count"
        case .debugText(let inner): "String(reflecting: " + swift(inner) + ")"
        case .isMainThread: "Thread.isMainThread"
        case .conditional(let condition, let then, let otherwise): "\(operand(condition)) ? \(operand(then)) : \(operand(otherwise))"
        case .element(let list, let index): operand(list) + "[" + swift(index) + "]"
        case .specific(let key, let use):
            switch use {
            case .orElse(let fallback): "DispatchQueue.getSpecific(key: \(name(key))) ?? \(operand(fallback))"
            case .isNil(let expected): "DispatchQueue.getSpecific(key: \(name(key))) \(expected ? "==" : "!=") nil"
            case .printed: "DispatchQueue.getSpecific(key: \(name(key))) as Any"
            case .equals(let other, let negated): "DispatchQueue.getSpecific(key: \(name(key))) \(negated ? "!=" : "==") \(operand(other))"
            }
        case .errorIs(let inner, let type): "\(operand(inner)) is \(type)"
        case .tuple(let parts): "(" + parts.map(swift).joined(separator: ", ") + ")"
        case .array(let parts): "[" + parts.map(swift).joined(separator: ", ") + "]"
        case .entry(let dictionary, let key, let optional): operand(dictionary) + "[" + swift(key) + "]" + (optional ? "" : "!")
        case .typed(let inner, let type, let conversion): conversion ? "\(type.rawValue)(\(swift(inner)))" : "(\(swift(inner)) as \(type.rawValue))"
        case .optionalText(let inner): "String(describing: " + swift(inner) + ")"
        case .coalesce(let optional, let fallback): "\(operand(optional)) ?? \(operand(fallback))"
        case .joined(let list, let separator): "\(operand(list)).joined(separator: \(swift(separator)))"
        case .parsedInt(let text): "Int(" + swift(text) + ")"
        case .dictionary(let keys, let values): "[" + zip(keys, values).map { swift($0) + ": " + swift($1) }.joined(separator: ", ") + "]"
        case .transformed(let inner, let transform): operand(inner) + "." + transform.written
        case .contains(let list, let element): operand(list) + ".contains(" + swift(element) + ")"
        case .unwrapped(let optional): operand(optional) + "!"
        }
    }

    private func operand(_ expression: Expression) -> String {
        switch expression {
        case .binary, .conditional, .specific, .errorIs, .coalesce: "(" + swift(expression) + ")"
        case .literal, .variable, .not, .interpolation, .count, .isMainThread, .element, .debugText, .typed, .tuple, .array, .entry, .optionalText, .joined, .dictionary, .parsedInt,
             .transformed, .contains, .unwrapped: swift(expression)
        }
    }

    private func literal(_ value: Value) -> String {
        switch value {
        case .int(let number): String(number)
        case .bool(let flag): String(flag)
        case .string(let text): "\"" + text + "\""
        case .list(let items): "[" + items.map(literal).joined(separator: ", ") + "]"
        case .error(let error): error.written
        case .nilValue: "nil"
        case .double(let number): number.description
        case .continuation(let index): "continuation k\(index)"
        case .enumCase(let value): "\(value.type).\(value.name)"
        }
    }
}
