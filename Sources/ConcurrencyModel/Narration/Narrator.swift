/// Turns the model's facts (threads, statements, what a thread waits for) into the words
/// learners read, with the Swift API names they wrote. The one place that words them, so a
/// sentence reads the same wherever it appears and a new construct is worded once.
public struct Narrator: Hashable, Sendable {
    public let program: Program

    public init(program: Program) {
        self.program = program
    }

    public func name(_ group: GroupID) -> String { program.groups[group.index].name }
    public func name(_ semaphore: SemaphoreID) -> String { program.semaphores[semaphore.index].name }
    /// An NSLock, NSRecursiveLock or Mutex, worded as one (lock, unlock, holds) rather than as a semaphore.
    public func isLock(_ semaphore: SemaphoreID) -> Bool { program.semaphores[semaphore.index].isLock }
    /// Which lock it is, if it is one.
    public func lockKind(_ semaphore: SemaphoreID) -> LockKind? { program.semaphores[semaphore.index].lock }

    /// Taking or giving back a semaphore or lock, as the snippet writes it: "s.wait()",
    /// "lock.unlock()", "m.withLock" (a Mutex is taken at the start of its withLock and given
    /// back at its end).
    public func call(_ semaphore: SemaphoreID, _ action: SemaphoreAction) -> String {
        let name = name(semaphore)
        return switch (lockKind(semaphore), action) {
        case (nil, .wait): "\(name).wait()"
        case (nil, .signal): "\(name).signal()"
        case (.plain?, .wait), (.recursive?, .wait): "\(name).lock()"
        case (.plain?, .signal), (.recursive?, .signal): "\(name).unlock()"
        case (.mutex?, .wait): "\(name).withLock"
        case (.mutex?, .signal): "the end of \(name).withLock"
        }
    }
    public func name(_ item: WorkItemID) -> String { program.workItems[item.index].name }
    public func name(_ source: TimerSourceID) -> String { program.timerSources[source.index].name }
    public func name(_ queue: QueueID) -> String { program[queue].name }

    /// An executor as a learner says it: "the main actor", "actor c", "the global executor".
    public func name(_ isolation: Isolation) -> String {
        switch isolation {
        case .generic: "the global executor"
        case .mainActor: "the main actor"
        case .actor(let queue): "actor \(name(queue))"
        }
    }
    public func name(_ queue: OperationQueueID) -> String { program[queue].name }
    public func name(_ operation: OperationID) -> String { program[operation].name }
    public func name(_ variable: VariableID) -> String { program[variable].name }
    public func name(_ group: TaskGroupID) -> String { program[group].name }

    func name(_ waitable: Waitable) -> String {
        switch waitable {
        case .group(let group): name(group)
        case .semaphore(let semaphore): name(semaphore)
        }
    }

    /// "sync", or "asyncAndWait" when the statement at `span` is one (the two trap alike).
    func syncCall(at span: SourceSpan) -> String {
        var found = "sync"
        program.walk { statement, _ in
            if statement.span == span, case .dispatch(_, .sync, _, let options) = statement.action, options.asyncAndWait { found = "asyncAndWait" }
        }
        return found
    }

    /// The call a thread is in while it waits, as written in Swift: "g.wait()".
    func call(_ wait: ThreadWait) -> String {
        switch wait {
        case .syncTurn(let queue): "\(name(queue)).sync"
        case .group(let group, _): "\(name(group)).wait()"
        case .semaphore(let semaphore): call(semaphore, .wait)
        case .sleep: "sleep"
        case .timeout(let waitable, _): "\(name(waitable)).wait(timeout:)"
        case .workItem(let item): "\(name(item)).wait()"
        case .iterations: "DispatchQueue.concurrentPerform"
        case .operation(let operation): "\(name(operation)).waitUntilFinished()"
        case .operationStart(let operation): "\(name(operation)).start()"
        case .allOperations(let queue): "\(name(queue)).waitUntilAllOperationsAreFinished()"
        case .addedOperations(let queue): "\(name(queue)).addOperations(…, waitUntilFinished: true)"
        case .spins: "the while loop"
        case .statusRecordLock: "the removal of its cancellation record"
        }
    }

    /// What the thread waits for, said of a thread at `line`, ending before any "before …":
    /// "main waits in g.wait() at line 11 until the 1 block(s) still in the group leave it".
    func waiting(_ wait: ThreadWait, thread: String, line: Int) -> String {
        let inCall = "\(thread) waits in \(call(wait)) at line \(line)"
        return switch wait {
        case .syncTurn: inCall + " for its turn"
        case .group(_, let remaining): inCall + " until the \(remaining) block(s) still in the group leave it"
        case .semaphore(let semaphore) where lockKind(semaphore) == .mutex: inCall + ": another thread is inside \(name(semaphore)).withLock until its closure ends"
        case .semaphore(let semaphore) where isLock(semaphore): inCall + ": another thread holds it until it calls unlock()"
        case .semaphore: inCall + ": the count is 0 until someone calls signal()"
        case .sleep(let until): "\(thread) sleeps at line \(line) until \(Self.seconds(until))"
        case .timeout(_, let deadline): "\(thread) waits at line \(line) until \(Self.seconds(deadline)) at most"
        case .workItem: inCall + " until the work item has run"
        case .iterations: "\(thread) waits in the concurrentPerform at line \(line) for the iterations other threads still run"
        case .operation: inCall + " until it has finished"
        case .operationStart: inCall + " until its other execution blocks have ended"
        case .allOperations(let queue): "\(thread) waits at line \(line) until every operation of \(name(queue)) has finished"
        case .addedOperations(let queue): "\(thread) waits at line \(line) until the operations it added to \(name(queue)) have finished"
        case .spins: "\(thread) spins in the `while` loop at line \(line), changing nothing, until another thread, a timer or a cancel changes what it tests (it keeps its thread, and the queue or actor it runs for, all the while)"
        case .statusRecordLock(let task, let holder):
            "\(thread) (task \(task)) waits at line \(line) to remove its cancellation record: \(self.thread(ThreadID(holder))) holds the task's status-record lock while it runs the task's onCancel handlers"
        }
    }

    /// What a thread waits for in a run where nothing can move any more, or nil where the
    /// stuck run is better told from the other side (the concurrentPerform itself).
    func stuck(_ wait: ThreadWait, thread: String, line: Int, heldBy holders: [String]) -> String? {
        let inCall = "\(thread) waits in \(call(wait)) at line \(line)"
        return switch wait {
        case .syncTurn: "\(thread) waits in \(call(wait))" + (holders.isEmpty ? "" : " (held by \(holders.joined(separator: ", ")))")
        case .group(_, let remaining): inCall + ", with \(remaining) block(s) still in the group"
        case .semaphore(let semaphore) where lockKind(semaphore) == .mutex: inCall + ", and the thread inside \(name(semaphore)).withLock never leaves it"
        case .semaphore(let semaphore) where isLock(semaphore): inCall + ", and nobody unlocks it"
        case .semaphore: inCall + ", and nobody signals it"
        case .workItem: inCall + ", and the work item never runs"
        case .operation, .allOperations, .addedOperations, .operationStart: inCall
        case .spins: "\(thread) spins in the `while` loop at line \(line) and is never given up (nor the queue or actor it runs for): nothing else can change what the loop tests"
        case .statusRecordLock(let task, let holder):
            "\(thread) (task \(task)) waits at line \(line) to remove its cancellation record, and \(self.thread(ThreadID(holder))), which holds the task's status-record lock, never finishes its onCancel handler"
        case .iterations, .sleep, .timeout: nil
        }
    }

    /// What running a statement means, as an instruction: "print 3", "call g.enter()",
    /// "call queue.addOperation(op)". `printed` is what a print prints here, if known.
    func doing(_ statement: Statement, printed: String? = nil) -> String {
        switch statement.action {
        case .print(let items):
            "print " + (printed ?? items.map { $0.constantValue?.description ?? "…" }.joined(separator: " "))
        case .dispatch(let queue, .sync, _, let options) where options.asyncAndWait: "call \(name(queue)).asyncAndWait"
        case .dispatch(let queue, let mode, _, _): "call \(name(queue)).\(mode.rawValue)"
        case .assign(let assignment): "assign \(name(assignment.target))"
        case .loop: "run the loop"
        case .whileLoop(let loop): loop.entersUntested ? "run the repeat loop" : "test the condition of the while loop"
        case .branch: "test the condition of the if"
        case .call(let call): "call \(Self.called(call.name))"
        case .returns(let value): value == nil ? "return" : "return its value"
        case .exitLoop(let exit): exit.rawValue
        case .group(let group, let action):
            switch action {
            case .enter: "call \(name(group)).enter()"
            case .leave: "call \(name(group)).leave()"
            case .wait: "call \(name(group)).wait()"
            case .notify(let queue, _): "call \(name(group)).notify(queue: \(name(queue)))"
            }
        case .semaphore(let semaphore, let action):
            switch action {
            case .wait: "call \(call(semaphore, .wait))"
            case .signal: lockKind(semaphore) == .mutex ? "leave \(name(semaphore)).withLock" : "call \(call(semaphore, .signal))"
            }
        case .dispatchAfter(let queue, _, _): "call \(name(queue)).asyncAfter"
        case .sleep: "sleep"
        case .timedWait(let waitable, _, _): "call \(name(waitable)).wait(timeout:)"
        case .activate(let queue): "call \(name(queue)).activate()"
        case .queueSetting(let queue, .target(let target)): "call \(name(queue)).setTarget(queue: \(name(target)))"
        case .queueSetting(let queue, .specific(let key, _)): "call \(name(queue)).setSpecific(key: \(program[key].name))"
        case .precondition(.assumeIsolated, _): "call MainActor.assumeIsolated, which checks it runs on the main actor"
        case .precondition(.assertIsolated, _): "call MainActor.assertIsolated(), which checks it runs on the main actor"
        case .precondition(.preconditionIsolated, _): "call MainActor.preconditionIsolated(), which checks it runs on the main actor"
        case .precondition(let kind, let queue): "check dispatchPrecondition(condition: .\(kind.rawValue)(\(name(queue))))"
        case .concurrentPerform: "call DispatchQueue.concurrentPerform"
        case .workItem(let item, let action):
            switch action {
            case .perform: "call \(name(item)).perform()"
            case .cancel: "call \(name(item)).cancel()"
            case .wait: "call \(name(item)).wait()"
            case .notify(let queue, _): "call \(name(item)).notify(queue: \(name(queue)))"
            case .submit(let queue, _): "call \(name(queue)).async(execute: \(name(item)))"
            case .submitAfter(let queue, _): "call \(name(queue)).asyncAfter(execute: \(name(item)))"
            }
        case .operation(let operation, let action):
            switch action {
            case .create: "create \(name(operation))"
            case .addBlock: "call \(name(operation)).addExecutionBlock"
            case .addDependency(let other): "call \(name(operation)).addDependency(\(name(other)))"
            case .setCompletion: "set \(name(operation)).completionBlock"
            case .setPriority: "set \(name(operation)).queuePriority"
            case .cancel: "call \(name(operation)).cancel()"
            case .waitUntilFinished: "call \(name(operation)).waitUntilFinished()"
            case .start: "call \(name(operation)).start()"
            }
        case .spawn(let spawn):
            switch spawn.kind {
            case .unstructured: "create a Task"
            case .detached: "create a Task.detached"
            case .asyncLet: "start an async let"
            case .groupChild: "add a child task to \(spawn.group.map(name) ?? "the group")"
            }
        case .suspend(.yield): "await Task.yield()"
        case .suspend(.sleep): "await Task.sleep"
        case .suspend(.value(let handle, _)): "await the value of \(name(handle))"
        case .hop(let target): "move to \(name(target))"
        case .suspend(.groupNext(let next)): next.loops ? "await the next child of \(name(next.group)) (for await)" : "await \(name(next.group)).next()"
        case .suspend(.groupWaitAll(let group)): "await every child of \(name(group))"
        case .withTaskGroup(let run): "start task group \(name(run.group))"
        case .cancellation(.cancelTask(let handle)): "call \(name(handle)).cancel()"
        case .cancellation(.cancelGroup(let group)): "call \(name(group)).cancelAll()"
        case .cancellation(.read): "read Task.isCancelled"
        case .cancellation(.check): "call Task.checkCancellation()"
        case .cancellation(.addHandler): "enter withTaskCancellationHandler"
        case .cancellation(.removeHandler): "leave withTaskCancellationHandler"
        case .taskLocal(.bind(let local, _)): "bind \(program.taskLocals[local.index].name) (withValue)"
        case .taskLocal(.unbind(let local)): "end the withValue binding of \(program.taskLocals[local.index].name)"
        case .taskLocal(.read(let local, _)): "read \(program.taskLocals[local.index].name)"
        case .throwing(.value): "throw the error"
        case .throwing(.pending): "throw on the error the call raised, if any"
        case .throwing(.sleepCancelled): "throw CancellationError if cancellation ended the sleep"
        case .handles(let handler):
            switch handler.kind {
            case .catches: "enter the do block"
            case .optional: "call under try?"
            case .forced: "call under try!"
            case .endsAsyncLet: "go on after the async let"
            }
        case .continuation(let id, .start): "run the body of withCheckedContinuation, which gets \(program[id].name)"
        case .continuation(let id, .resume): "call \(program[id].name).resume"
        case .continuation(_, .resumeHeld(.variable(let variable))): "call \(program.variables[variable.index].name)?.resume"
        case .continuation(let id, .resumeHeld): "call \(program[id].name)?.resume"
        case .suspend(.continuation(let id, _)): "await the resume of \(program[id].name)"
        case .stream(let id, .start): "run the build closure of \(program[id].name), which gets \(program[id].continuationName)"
        case .stream(let id, .yield): "call \(program[id].continuationName).yield"
        case .stream(let id, .finish): "call \(program[id].continuationName).finish()"
        case .stream(let id, .fail): "call \(program[id].continuationName).finish(throwing:)"
        case .suspend(.streamNext(let next)): "await the next element of \(program[next.stream].name) (for await)"
        case .timer(let source, .schedule): "call \(name(source)).schedule"
        case .timer(let source, .setEventHandler): "call \(name(source)).setEventHandler"
        case .timer(let source, .setCancelHandler): "call \(name(source)).setCancelHandler"
        case .timer(let source, .activate): "call \(name(source)).resume()"
        case .timer(let source, .cancel): "call \(name(source)).cancel()"
        case .operationQueue(let queue, let action):
            switch action {
            case .add(let operations) where operations.count == 1: "call \(name(queue)).addOperation(\(name(operations[0])))"
            case .add: "call \(name(queue)).addOperations"
            case .waitFor: "call \(name(queue)).addOperations(…, waitUntilFinished: true)"
            case .addBlock: "call \(name(queue)).addOperation"
            case .setMaxConcurrent: "set \(name(queue)).maxConcurrentOperationCount"
            case .setSuspended: "set \(name(queue)).isSuspended"
            case .cancelAll: "call \(name(queue)).cancelAllOperations()"
            case .waitUntilAllFinished: "call \(name(queue)).waitUntilAllOperationsAreFinished()"
            }
        }
    }

    /// A statement as a noun, after "finish the": "g.wait() call", "if", "loop".
    func construct(_ statement: Statement) -> String {
        switch statement.action {
        case .loop: "loop"
        case .whileLoop(let loop): loop.entersUntested ? "repeat loop" : "while loop"
        case .branch: "if"
        case .handles(let handler):
            switch handler.kind {
            case .catches: "do/catch"
            case .optional, .forced: "try"
            case .endsAsyncLet: "async let"
            }
        case .throwing: "throw"
        case .call(let call): "call to \(Self.called(call.name))"
        case .concurrentPerform: "concurrentPerform"
        case .suspend(.streamNext(let next)): "for await loop over \(program[next.stream].name)"
        case .suspend(.groupNext(let next)) where next.loops: "for await loop over \(name(next.group))"
        case .print, .dispatch, .assign, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate, .queueSetting,
            .precondition, .workItem, .operation, .operationQueue, .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation,
            .stream, .timer:
            String(doing(statement).drop { $0 != " " }.dropFirst())
        }
    }
}

extension Narrator {
    /// A function as a call names it: `work()`, or an overload by its full name `load(id:)`.
    static func called(_ function: String) -> String {
        function.hasSuffix(")") ? function : function + "()"
    }
}
