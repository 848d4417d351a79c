import CProcessSupport
import ConcurrencyModel
import Foundation

/// Executes one run of a program on real dispatch objects: each IR queue becomes a real
/// `DispatchQueue`, each `sync`/`async` the real call. Nothing about queues is re-implemented
/// here; the interpreter only walks statements and keeps the run's books.
final class LiveInterpreter: @unchecked Sendable {
    let program: Program
    let queues: [DispatchQueue]
    let groups: [DispatchGroup]
    let semaphores: [DispatchSemaphore]
    /// The real lock of each semaphore that is one in the snippet (nil for the others).
    let locks: [LiveLock?]
    let store: SharedStore
    /// The snippet's work items, made on first use so that their blocks can call back into the
    /// interpreter, and what the interpreter keeps of each (under `workItemLock`).
    private var workItems: [DispatchWorkItem?]
    private var itemBooks: [WorkItemBooks]
    private let workItemLock = RunnableLock()

    private struct WorkItemBooks {
        /// Submissions not started yet: each is outstanding work until its run ends.
        var pendingRuns = 0
        /// Cancelled: libdispatch skips a later submission, so it is no work to wait for.
        var cancelled = false
        /// A `wait()` returned: libdispatch traps as a worker takes the item from a queue again.
        var waited = false
        /// The group it was submitted into (`async(group:execute:)`), left once it has executed.
        var group: GroupID?
    }
    let monitor: RunMonitor
    /// The run's OperationQueues and the operations the snippet names.
    let operations: LiveOperations
    /// The run's timer sources.
    private(set) var timerSources: LiveTimerSources!
    let output: WorkerOutput
    let jitter: Jitter?
    /// Whether the run's timing matters (the snippet sleeps, sets timers or waits with a
    /// timeout): then the interpreter watches that the machine keeps time (`Punctuality`).
    let keepsTime: Bool

    init(program: Program, monitor: RunMonitor, output: WorkerOutput, jitter: Jitter?, keepsTime: Bool) {
        self.program = program
        self.monitor = monitor
        self.output = output
        self.jitter = jitter
        self.keepsTime = keepsTime
        // Fresh queues every run, so that no state leaks from one run into the next.
        queues = Self.makeQueues(program.queues)
        // libdispatch crashes when an inactive queue is released ("Release of an inactive
        // object"); a real program keeps its queues until it exits, so these live on too.
        for (queue, decl) in zip(queues, program.queues) where decl.initiallyInactive {
            _ = Unmanaged.passRetained(queue)
        }
        groups = program.groups.map { _ in DispatchGroup() }
        semaphores = program.semaphores.map { DispatchSemaphore(value: $0.initialValue) }
        locks = program.semaphores.map { $0.lock.map(LiveLock.init) }
        // Likewise a semaphore below its initial value ("Semaphore object deallocated while in
        // use") and a group still entered: released after a finished run, they would kill the
        // child and cost every later run a fork.
        groups.forEach { _ = Unmanaged.passRetained($0) }
        semaphores.forEach { _ = Unmanaged.passRetained($0) }
        store = SharedStore(count: program.variables.count)
        workItems = Array(repeating: nil, count: program.workItems.count)
        itemBooks = Array(repeating: WorkItemBooks(), count: program.workItems.count)
        operations = LiveOperations(program: program)
        timerSources = LiveTimerSources(program: program, queues: queues)
    }

    /// The real DispatchWorkItem for `id`. Its block runs the body; a notify on a private queue
    /// closes the books when it has executed (run, or skipped because it was cancelled).
    private func workItem(_ id: WorkItemID) -> DispatchWorkItem {
        workItemLock.withLock {
            if let item = workItems[id.index] { return item }
            let decl = program.workItems[id.index]
            let item = DispatchWorkItem(flags: decl.barrier ? .barrier : []) { [unowned self] in
                // Past libdispatch's checks: a `perform()` announced on this thread is safe now.
                clearAnnouncement()
                // A run from a queue is outstanding work until it ends (unless `cancel()` wrote
                // it off first: then libdispatch read the flag just before the cancel).
                let counted = !monitor.isPerforming(id) && workItemLock.withLock {
                    guard itemBooks[id.index].pendingRuns > 0 else { return false }
                    itemBooks[id.index].pendingRuns -= 1
                    return true
                }
                let queue = monitor.workItemBlockStarted(id, barrier: decl.barrier)
                var locals: [VariableID: Value] = [:]
                execute(decl.body, &locals)
                monitor.workItemBlockEnded(id, on: queue, barrier: decl.barrier)
                if counted, monitor.workDone() { Self.wakeMainThread() }
            }
            let run = monitor.run
            item.notify(queue: Self.bookkeeping) { [weak self] in
                guard let self else { return }
                monitor.workItemDone(id, inRun: run)
                if let group = workItemLock.withLock({ itemBooks[id.index].group }) { monitor.groupLeft(group) }
            }
            workItems[id.index] = item
            return item
        }
    }

    private static let bookkeeping = DispatchQueue(label: "gcdquiz.bookkeeping")

    /// The real queues, each made with its real target (a target is declared before the queues
    /// that target it). A target set with `setTarget(queue:)` before activation is in the
    /// declaration too; the statement then sets the same target on the real queue.
    static func makeQueues(_ decls: [QueueDecl]) -> [DispatchQueue] {
        var made: [DispatchQueue] = []
        for decl in decls {
            made.append(makeQueue(decl, target: decl.target.flatMap { made.indices.contains($0.index) ? made[$0.index] : nil }))
        }
        return made
    }

    /// The keys of `DispatchSpecificKey`s, one per hidden variable that stands for a key.
    private static let specificKeys = SpecificKeys()

    static func makeQueue(_ decl: QueueDecl, target: DispatchQueue? = nil) -> DispatchQueue {
        // A target given by a later setTarget(queue:) on an inactive queue is set here already;
        // the statement sets it again, which libdispatch allows while the queue is inactive.
        if let target, decl.kind == .serial || decl.kind == .concurrent {
            var attributes: DispatchQueue.Attributes = decl.kind == .concurrent ? .concurrent : []
            if decl.initiallyInactive { attributes.insert(.initiallyInactive) }
            return DispatchQueue(label: decl.label, qos: dispatchQoS(decl.qos), attributes: attributes, target: target)
        }
        switch decl.kind {
        case .main:
            return DispatchQueue.main
        case .global:
            return DispatchQueue.global(qos: qosClass(decl.qos))
        case .serial:
            return DispatchQueue(label: decl.label, qos: dispatchQoS(decl.qos), attributes: decl.initiallyInactive ? .initiallyInactive : [])
        case .concurrent:
            return DispatchQueue(label: decl.label, qos: dispatchQoS(decl.qos),
                                 attributes: decl.initiallyInactive ? [.concurrent, .initiallyInactive] : .concurrent)
        case .cooperative, .actor:
            // Swift-concurrency snippets run compiled with swiftc, never interpreted: a stand-in
            // queue that nothing submits to.
            return DispatchQueue(label: decl.label)
        }
    }

    static func qosClass(_ qos: QoSClass?) -> DispatchQoS.QoSClass {
        switch qos ?? .default {
        case .userInteractive: .userInteractive
        case .userInitiated: .userInitiated
        case .default: .default
        case .utility: .utility
        case .background: .background
        case .unspecified: .unspecified
        }
    }

    static func dispatchQoS(_ qos: QoSClass?) -> DispatchQoS {
        DispatchQoS(qosClass: qosClass(qos ?? .unspecified), relativePriority: 0)
    }

    /// Runs the top-level code on the calling thread (the main thread). Returns true when the
    /// run is already over (nothing was submitted).
    func runTopLevel() -> Bool {
        var locals: [VariableID: Value] = [:]
        execute(program.entry, &locals)
        return monitor.topLevelEnded()
    }

    /// How a block ended: at its last statement, or at a `return` (with its value, if any), which
    /// ends the loops and branches around it up to its function's or closure's body.
    enum Flow {
        case ranToEnd
        case returned(Value?)
        /// `break` or `continue`: the loop around decides (no body boundary lies between).
        case exitedLoop(LoopExit)

        /// The value a function or a `sync` closure returned.
        var value: Value? {
            switch self {
            case .ranToEnd, .exitedLoop: nil
            case .returned(let value): value
            }
        }
    }

    /// Executes a block. `locals` are the closure's variables: loop and branch bodies share them;
    /// a submitted closure gets a copy (the model's capture by value).
    @discardableResult
    func execute(_ block: BlockID, _ locals: inout [VariableID: Value]) -> Flow {
        let statements = program[block].statements
        var mark = keepsTime ? DispatchTime.now().uptimeNanoseconds : 0
        // A `repeat` loop left by `break` in its first run skips its test, the next statement.
        var skipped: Int?
        for (index, statement) in statements.enumerated() {
            if index == skipped { continue }
            defer { if keepsTime { mark = keepTime(after: statement.action, since: mark) } }
            jitter?.pause(at: .statement(index, in: block))
            monitor.progress()
            let line = statement.span.line
            switch statement.action {
            case .print(let items):
                let snapshot = locals
                output.send(.printed(items.map { evaluate($0, snapshot).description }.joined(separator: " ")))
            case .dispatch(let queue, .async, let body, let options):
                if let group = options.group { monitor.groupEntered(group) }
                let token = monitor.submitting(to: queue, barrier: options.barrier, line: line)
                let work = submittedBlock(body, captured: locals, start: .queued(token, queue, barrier: options.barrier), group: options.group)
                let flags: DispatchWorkItemFlags = options.barrier ? .barrier : []
                if let group = options.group {
                    queues[queue.index].async(group: groups[group.index], flags: flags, execute: work)
                } else {
                    queues[queue.index].async(flags: flags, execute: work)
                }
                monitor.submitted(token)
            case .dispatch(let queue, .sync, let body, let options):
                let name = program[queue].name
                let caller = announce(options.asyncAndWait ? .asyncAndWait(queue: name) : .sync(queue: name), at: statement)
                let wait = monitor.beginWait(.sync(queue), line: line)
                var inner = locals
                let run = { [self] () -> Value? in
                    // The body may run on another thread (the main queue's runs on the main
                    // thread, an asyncAndWait's that waited on the thread draining the queue).
                    clearAnnouncement(of: caller)
                    monitor.syncStarted(wait, on: queue, barrier: options.barrier)
                    let flow = execute(body, &inner)
                    monitor.syncFinished(on: queue, barrier: options.barrier)
                    return flow.value
                }
                let returned = options.asyncAndWait
                    ? queues[queue.index].liveAsyncAndWait(execute: run)
                    : queues[queue.index].sync(flags: options.barrier ? .barrier : [], execute: run)
                monitor.endWait(wait)
                locals = inner
                if let result = options.result, let returned { locals[result] = returned }
            case .assign(let assignment):
                assign(assignment, &locals, at: .write(index, in: block))
            case .loop(let loop):
                let range: ClosedRange<Int>?
                do {
                    range = try loop.values(from: evaluate(loop.from, locals), to: evaluate(loop.to, locals))
                } catch {
                    Self.trap(error)
                }
                // An empty body does nothing, however many times: swiftc -O removes the loop.
                guard let values = range, !program[loop.body].statements.isEmpty else { break }
                loop: for value in values {
                    if let variable = loop.variable { locals[variable] = .int(value) }
                    switch execute(loop.body, &locals) {
                    case .returned(let value): return .returned(value)
                    case .exitedLoop(.breaks): break loop
                    case .ranToEnd, .exitedLoop(.continues): continue
                    }
                }
            case .whileLoop(let loop) where loop.entersUntested:
                switch execute(loop.body, &locals) {
                case .returned(let value): return .returned(value)
                case .exitedLoop(.breaks): skipped = index + 1
                case .ranToEnd, .exitedLoop(.continues): break
                }
            case .whileLoop(let loop):
                loop: while evaluate(loop.condition, locals) == .bool(true) {
                    switch execute(loop.body, &locals) {
                    case .returned(let value): return .returned(value)
                    case .exitedLoop(.breaks): break loop
                    case .ranToEnd, .exitedLoop(.continues): continue
                    }
                }
            case .branch(let condition, let then, let otherwise):
                if let chosen = evaluate(condition, locals) == .bool(true) ? then : otherwise {
                    let flow = execute(chosen, &locals)
                    if case .ranToEnd = flow {} else { return flow }
                }
            case .group(let group, let action):
                perform(action, on: group, at: statement, locals)
            case .semaphore(let semaphore, .wait):
                // A Mutex traps when its holder takes it again: announced, like a sync.
                let mutex = program.semaphores[semaphore.index].lock == .mutex
                let caller = mutex ? announce(.mutexWithLock(mutex: program.semaphores[semaphore.index].name), at: statement) : nil
                monitor.waiting(in: .semaphore(semaphore), line: line) {
                    if let lock = locks[semaphore.index] { lock.lock() } else { semaphores[semaphore.index].wait() }
                }
                if let caller { clearAnnouncement(of: caller) }
            case .semaphore(let semaphore, .signal):
                if let lock = locks[semaphore.index] { lock.unlock() } else { semaphores[semaphore.index].signal() }
            case .dispatchAfter(let queue, let delay, let body):
                let microseconds = self.microseconds(delay, locals)
                monitor.timerSet()
                expect(microseconds)
                let work = submittedBlock(body, captured: locals, start: .timer(queue))
                queues[queue.index].asyncAfter(deadline: .now() + Self.scaled(microseconds), execute: work)
            case .sleep(let delay):
                let microseconds = self.microseconds(delay, locals)
                expect(microseconds)
                let start = DispatchTime.now().uptimeNanoseconds
                usleep(UInt32(clamping: Self.scaledMicroseconds(microseconds)))
                if keepsTime {
                    let overslept = DispatchTime.now().uptimeNanoseconds - start
                    late(by: overslept - min(overslept, UInt64(Self.scaledMicroseconds(microseconds)) * 1000))
                }
            case .timedWait(let waitable, let delay, let result):
                let microseconds = self.microseconds(delay, locals)
                expect(microseconds)
                let deadline = DispatchTime.now() + Self.scaled(microseconds)
                monitor.timerSet()
                let outcome: DispatchTimeoutResult
                switch waitable {
                case .group(let group):
                    outcome = monitor.waiting(in: .timeout(waitable), line: line) {
                        groups[group.index].wait(timeout: deadline)
                    }
                case .semaphore(let semaphore):
                    outcome = monitor.waiting(in: .timeout(waitable), line: line) {
                        semaphores[semaphore.index].wait(timeout: deadline)
                    }
                }
                monitor.timerEnded()
                if keepsTime, outcome == .timedOut {
                    let now = DispatchTime.now().uptimeNanoseconds
                    late(by: now - min(now, deadline.uptimeNanoseconds))
                }
                if let result {
                    let value = Waitable.result(timedOut: outcome == .timedOut)
                    if program[result].isGlobal { store.write(result, value) } else { locals[result] = value }
                }
            case .workItem(let id, let action):
                perform(action, on: id, at: statement, locals)
            case .concurrentPerform(let perform):
                let captured = locals
                monitor.iterationsSubmitted(perform.iterations)
                DispatchQueue.concurrentPerform(iterations: perform.iterations) { [self] iteration in
                    monitor.iterationStarted()
                    var inner = captured
                    if let variable = perform.variable { inner[variable] = .int(iteration) }
                    execute(perform.body, &inner)
                    monitor.threadStopped()
                }
                monitor.iterationsDone()
            case .activate(let queue):
                monitor.activating(queue)
                queues[queue.index].activate()
            case .queueSetting(let queue, .target(let target)):
                // On an active queue this traps in libdispatch, as the model says.
                announce(.setTarget(queue: program[queue].name), at: statement)
                queues[queue.index].setTarget(queue: queues[target.index])
                clearAnnouncement()
            case .queueSetting(let queue, .specific(let key, let value)):
                queues[queue.index].setSpecific(key: Self.specificKeys.key(for: key), value: evaluate(value, locals))
            case .call(let call):
                var parameters: [VariableID: Value] = [:]
                for argument in call.arguments {
                    parameters[argument.parameter] = evaluate(argument.value, locals)
                }
                let flow = execute(call.body, &parameters)
                if let result = call.result, let value = flow.value { locals[result] = value }
            case .returns(let value):
                let snapshot = locals
                return .returned(value.map { evaluate($0, snapshot) })
            case .exitLoop(let exit):
                return .exitedLoop(exit)
            case .timer(let source, let action):
                timerSources.perform(action, on: source, locals, in: self)
            case .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream, .throwing, .handles:
                // Swift-concurrency snippets run compiled with swiftc (the real runtime), never here.
                Self.trap(.undefined("Swift concurrency is not interpreted live: it runs compiled"))
            case .operation(let operation, let action):
                perform(action, on: operation, at: statement, locals)
            case .operationQueue(let queue, let action):
                perform(action, on: queue, at: statement, locals)
            case .precondition(let kind, let queue):
                announce(.precondition(kind, queue: program[queue].name), at: statement)
                switch kind {
                // The runtime's check off a task on Linux: dispatch_assert_queue of the main queue.
                case .onQueue, .assumeIsolated, .assertIsolated, .preconditionIsolated: dispatchPrecondition(condition: .onQueue(queues[queue.index]))
                case .notOnQueue: dispatchPrecondition(condition: .notOnQueue(queues[queue.index]))
                case .onQueueAsBarrier: dispatchPrecondition(condition: .onQueueAsBarrier(queues[queue.index]))
                }
                clearAnnouncement()
            }
        }
        return .ranToEnd
    }

    /// How a submitted block begins: it was booked as pending on a queue, or it is an
    /// `asyncAfter` block, a timer until it starts.
    enum Start {
        case queued(Int, QueueID, barrier: Bool)
        case timer(QueueID)
    }

    /// A block handed to libdispatch to run later: counted as outstanding work from now, as
    /// running while it runs, and done (possibly ending the run) when it returns.
    func submittedBlock(_ body: BlockID, captured: [VariableID: Value], start: Start, group: GroupID? = nil) -> @Sendable () -> Void {
        monitor.workSubmitted()
        return { [self] in
            let queue: QueueID, barrier: Bool
            switch start {
            case .queued(let token, let target, let isBarrier):
                (queue, barrier) = (target, isBarrier)
                let delay = monitor.started(token, on: queue, barrier: barrier)
                // A block an idle serial queue could start at once, started late: the machine
                // held it, and events the snippet times may have swapped.
                if keepsTime { late(by: delay) }
            case .timer(let target):
                (queue, barrier) = (target, false)
                monitor.started(nil, on: queue, barrier: false, endingTimer: true)
            }
            jitter?.pause(at: .start(of: body))
            var inner = captured
            execute(body, &inner)
            monitor.finished(on: queue, barrier: barrier)
            if let group { monitor.groupLeft(group) }
            if monitor.workDone() {
                Self.wakeMainThread()
            }
        }
    }

    private func perform(_ action: GroupAction, on id: GroupID, at statement: Statement, _ locals: [VariableID: Value]) {
        let group = groups[id.index]
        let name = program.groups[id.index].name
        switch action {
        case .enter:
            monitor.groupEntered(id)
            group.enter()
        case .leave:
            announce(.groupLeave(group: name), at: statement)
            monitor.groupLeft(id)
            group.leave()
            clearAnnouncement()
        case .wait:
            monitor.waiting(in: .group(id), line: statement.span.line) { group.wait() }
        case .notify(let queue, let body):
            let token = monitor.groupNotify(id, queue: queue, line: statement.span.line)
            group.notify(queue: queues[queue.index], execute: submittedBlock(body, captured: locals, start: .queued(token, queue, barrier: false)))
        }
    }

    private func perform(_ action: WorkItemAction, on id: WorkItemID, at statement: Statement, _ locals: [VariableID: Value]) {
        let decl = program.workItems[id.index]
        let item = workItem(id)
        switch action {
        case .submit(let queue, let group):
            workItemLock.withLock { itemBooks[id.index].group = group }
            if let group { monitor.groupEntered(group) }
            countSubmission(of: id, at: statement)
            let token = monitor.workItemSubmitting(id, to: queue, barrier: decl.barrier, line: statement.span.line)
            if let group {
                queues[queue.index].async(group: groups[group.index], execute: item)
            } else {
                queues[queue.index].async(execute: item)
            }
            monitor.submitted(token)
        case .submitAfter(let queue, let delay):
            let microseconds = self.microseconds(delay, locals)
            countSubmission(of: id, at: statement)
            monitor.timerSet()
            expect(microseconds)
            // The real call, so that libdispatch sees the submission as it is made (a wait after
            // perform() crashes on it); a twin timer on the books' queue marks when it fires.
            let deadline = DispatchTime.now() + Self.scaled(microseconds)
            queues[queue.index].asyncAfter(deadline: deadline, execute: item)
            Self.bookkeeping.asyncAfter(deadline: deadline) { [monitor] in monitor.timerEnded() }
        case .cancel:
            item.cancel()
            store.write(decl.cancelled, .bool(true))
            // Its submissions still queued will be skipped: no more work to wait for.
            let skipped = workItemLock.withLock {
                itemBooks[id.index].cancelled = true
                defer { itemBooks[id.index].pendingRuns = 0 }
                return itemBooks[id.index].pendingRuns
            }
            for _ in 0..<skipped {
                if monitor.workDone() { Self.wakeMainThread() }
            }
        case .perform:
            // libdispatch checks for misuse as the block starts; the body then runs on.
            announce(.workItem(call: "\(decl.name).perform()"), at: statement)
            monitor.performing(id) { item.perform() }
            clearAnnouncement()
        case .wait:
            announce(.workItem(call: "\(decl.name).wait()"), at: statement)
            monitor.waiting(in: .workItem(id), line: statement.span.line) { item.wait() }
            clearAnnouncement()
            workItemLock.withLock { itemBooks[id.index].waited = true }
        case .notify(let queue, let body):
            let token = monitor.workItemNotify(id, queue: queue, line: statement.span.line)
            announce(.workItem(call: "\(decl.name).notify(queue:)"), at: statement)
            item.notify(queue: queues[queue.index], execute: submittedBlock(body, captured: locals, start: .queued(token, queue, barrier: false)))
            clearAnnouncement()
        }
    }

    /// A submission of the item is outstanding work until its run ends; one of a cancelled item
    /// is skipped by libdispatch, so there is nothing to wait for.
    private func countSubmission(of id: WorkItemID, at statement: Statement) {
        if workItemLock.withLock({ itemBooks[id.index].waited }) {
            let call = RiskyCall.workItem(call: "async(execute: \(program.workItems[id.index].name))")
            output.send(.announced(call, line: statement.span.line, column: statement.span.column, thread: WorkerMessage.anyThread))
        }
        let counts = workItemLock.withLock {
            guard !itemBooks[id.index].cancelled else { return false }
            itemBooks[id.index].pendingRuns += 1
            return true
        }
        if counts { monitor.workSubmitted() }
    }

    /// Tells the parent that this thread is about to make `call`, which kills the process if the
    /// snippet misuses it: should it, the parent names the call and its line.
    /// Returns the thread's id, for `clearAnnouncement`.
    @discardableResult
    func announce(_ call: RiskyCall, at statement: Statement) -> Int32 {
        let thread = gcdquiz_thread_id()
        output.send(.announced(call, line: statement.span.line, column: statement.span.column, thread: thread))
        return thread
    }

    /// The call announced by `thread` (this one, by default) returned: it did not die of it.
    func clearAnnouncement(of thread: Int32 = gcdquiz_thread_id()) {
        output.send(.cleared(thread: thread))
    }

    /// After a statement: if it takes no time in the model, the time since the last one ended is
    /// how long the machine held the thread. Returns the new mark.
    private func keepTime(after action: Action, since mark: UInt64) -> UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        if action.isInstant { late(by: now - min(now, mark)) }
        return now
    }

    /// Books lateness, and tells the parent the first time the run is late.
    func late(by nanoseconds: UInt64) {
        if monitor.late(by: nanoseconds) { output.send(.late(microseconds: Int(nanoseconds / 1000))) }
    }

    /// The snippet will take at least `microseconds` (unscaled) from now by its own doing (a
    /// sleep, a timer, a timeout): the parent's deadline for the run moves accordingly.
    func expect(_ microseconds: Int) {
        output.send(.expect(microseconds: Self.scaledMicroseconds(microseconds)))
    }

    /// A shared variable is read, then (after a possible pause) written, as two steps: the same
    /// granularity as the model, so lost updates happen for real.
    private func assign(_ assignment: Assignment, _ locals: inout [VariableID: Value], at point: JitterPoint) {
        let target = assignment.target
        let isGlobal = program[target].isGlobal
        let current = isGlobal ? store.read(target) : locals[target]
        // A shared array's element is read, then written back in place, as in the model.
        if isGlobal, !assignment.keyed, let indexExpression = assignment.index {
            guard case .int(let position) = evaluate(indexExpression, locals), case .list(let items)? = current else {
                Self.trap(.undefined("a subscript of a value that is not an array"))
            }
            guard items.indices.contains(position) else { Self.trap(.runtime(.indexOutOfRange)) }
            let element: Value
            do {
                element = try Assignment(target: target, operation: assignment.operation, value: assignment.value)
                    .result(current: items[position], operand: evaluate(assignment.value, locals))
            } catch {
                Self.trap(error)
            }
            jitter?.pause(at: point)
            if !store.write(target, element: element, at: position) { Self.trap(.runtime(.indexOutOfRange)) }
            return
        }
        let value: Value
        do {
            value = try assignment.result(current: current, operand: evaluate(assignment.value, locals),
                                          position: assignment.index.map { evaluate($0, locals) })
        } catch {
            Self.trap(error)
        }
        if isGlobal {
            jitter?.pause(at: point)
            store.write(target, value)
        } else {
            locals[target] = value
        }
    }

    private func evaluate(_ expression: ConcurrencyModel.Expression, _ locals: [VariableID: Value]) -> Value {
        do {
            return try expression.evaluate({ id in read(id, locals) }, isMainThread: Thread.isMainThread)
        } catch {
            Self.trap(error)
        }
    }

    /// A variable's value: a local, a shared one, or the real object's state it stands for.
    private func read(_ id: VariableID, _ locals: [VariableID: Value]) -> Value? {
        switch program[id].reflects {
        case .operationIsFinished(let operation)?: operations.operation(operation).map { .bool($0.isFinished) } ?? .bool(false)
        case .operationIsExecuting(let operation)?: operations.operation(operation).map { .bool($0.isExecuting) } ?? .bool(false)
        case .specificKey?: DispatchQueue.getSpecific(key: Self.specificKeys.key(for: id))
        case nil: program[id].isGlobal ? store.read(id) : locals[id]
        }
    }

    /// A delay in the snippet's microseconds, computed as the model computes it.
    func microseconds(_ delay: Delay, _ locals: [VariableID: Value]) -> Int {
        if let constant = delay.constant { return max(constant, 0) }
        do {
            return try delay.evaluate({ id in read(id, locals) }, longest: Delay.longest)
        } catch {
            Self.trap(error)
        }
    }

    /// The snippet's code traps as a Swift program would (an overflow, a division by zero): the
    /// message Swift's runtime prints, then SIGILL.
    static func trap(_ error: EvaluationError) -> Never {
        let message: String
        switch error {
        case .runtime(let runtimeError): message = "Fatal error: \(runtimeError.message) \(Ending.snippetCodeMarker)"
        case .undefined(let why): message = "Fatal error: gcdquiz's interpreter has no value here: \(why)"
        }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        raise(SIGILL)
        _exit(132)
    }

    /// Live runs compress time: one second of the snippet lasts 250 ms, so 0.1 s still leaves
    /// 25 ms between deadlines, enough for their order (what the model's logical clock decides)
    /// to survive a busy machine.
    static let timeScale = 0.25

    /// At most a day: a longer wait in a snippet is as good as for ever, and keeps the time
    /// arithmetic of libdispatch and of the deadlines far from overflowing.
    static func scaledMicroseconds(_ microseconds: Int) -> Int {
        min(max(Int(Double(max(microseconds, 0)) * timeScale), 1), 86_400_000_000)
    }

    static func scaled(_ microseconds: Int) -> DispatchTimeInterval {
        .microseconds(scaledMicroseconds(microseconds))
    }

    /// The main thread waits in its run loop for main-queue work; an empty block wakes it to
    /// notice that the run is over.
    static func wakeMainThread() {
        DispatchQueue.main.async {}
    }
}

/// The worker's standard output, shared by every thread: one message, one `write(2)`.
final class WorkerOutput: @unchecked Sendable {
    private let lock = RunnableLock()
    private let descriptor: Int32

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    func send(_ message: WorkerMessage) {
        let bytes = Array(message.encoded.utf8)
        lock.withLock {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    _exit(3)  // the parent is gone: nobody to report to
                }
                offset += written
            }
        }
    }
}

/// The top-level variables of one run. Each read and each write is atomic on its own (a lock
/// keeps Swift's reference-counted values intact), but a read followed by a write is not: that
/// is the race the snippet shows.
final class SharedStore: @unchecked Sendable {
    private let lock = RunnableLock()
    private var values: [Value?]

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    func read(_ variable: VariableID) -> Value? {
        lock.withLock { values[variable.index] }
    }

    func write(_ variable: VariableID, _ value: Value) {
        lock.withLock { values[variable.index] = value }
    }

    /// `list[i] = element` in place, into the array as it is now; false when `i` is outside it.
    func write(_ variable: VariableID, element: Value, at position: Int) -> Bool {
        lock.withLock {
            guard case .list(var items)? = values[variable.index], items.indices.contains(position) else { return false }
            items[position] = element
            values[variable.index] = .list(items)
            return true
        }
    }
}
