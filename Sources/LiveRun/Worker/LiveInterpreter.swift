import DispatchModel
import Foundation

/// Executes one run of a program on real dispatch objects: each IR queue becomes a real
/// `DispatchQueue`, each `sync`/`async` the real call. Nothing about queues is re-implemented
/// here; the interpreter only walks statements and keeps the run's books.
final class LiveInterpreter: @unchecked Sendable {
    let program: Program
    let queues: [DispatchQueue]
    let groups: [DispatchGroup]
    let semaphores: [DispatchSemaphore]
    let store: SharedStore
    /// The snippet's work items, made on first use so that their blocks can call back into the
    /// interpreter; and whether each was submitted to a queue (then it is outstanding work).
    private var workItems: [DispatchWorkItem?]
    private var submitted: [Bool]
    private let workItemLock = NSLock()
    let monitor: RunMonitor
    /// The run's OperationQueues and the operations the snippet names.
    let operations: LiveOperations
    let output: WorkerOutput
    let jitter: Jitter?

    init(program: Program, monitor: RunMonitor, output: WorkerOutput, jitter: Jitter?) {
        self.program = program
        self.monitor = monitor
        self.output = output
        self.jitter = jitter
        // Fresh queues every run, so that no state leaks from one run into the next.
        queues = program.queues.map(Self.makeQueue)
        // libdispatch crashes when an inactive queue is released ("Release of an inactive
        // object"); a real program keeps its queues until it exits, so these live on too.
        for (queue, decl) in zip(queues, program.queues) where decl.initiallyInactive {
            _ = Unmanaged.passRetained(queue)
        }
        groups = program.groups.map { _ in DispatchGroup() }
        semaphores = program.semaphores.map { DispatchSemaphore(value: $0.initialValue) }
        store = SharedStore(count: program.variables.count)
        workItems = Array(repeating: nil, count: program.workItems.count)
        submitted = Array(repeating: false, count: program.workItems.count)
        operations = LiveOperations(program: program)
    }

    /// The real DispatchWorkItem for `id`. Its block runs the body; a notify on a private queue
    /// closes the books when it has executed (run, or skipped because it was cancelled).
    private func workItem(_ id: WorkItemID) -> DispatchWorkItem {
        workItemLock.withLock {
            if let item = workItems[id.index] { return item }
            let decl = program.workItems[id.index]
            let item = DispatchWorkItem(flags: decl.barrier ? .barrier : []) { [unowned self] in
                monitor.itemStarted()
                var locals: [VariableID: Value] = [:]
                execute(decl.body, &locals)
                monitor.itemEnded()
            }
            item.notify(queue: Self.bookkeeping) { [weak self] in
                guard let self else { return }
                let wasSubmitted = workItemLock.withLock { submitted[id.index] }
                if wasSubmitted, monitor.outstandingCompleted() {
                    Self.wakeMainThread()
                }
            }
            workItems[id.index] = item
            return item
        }
    }

    private static let bookkeeping = DispatchQueue(label: "gcdquiz.bookkeeping")

    static func makeQueue(_ decl: QueueDecl) -> DispatchQueue {
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
        return monitor.workCompleted()
    }

    /// Executes a block. `locals` are the closure's variables: loop and branch bodies share them;
    /// a submitted closure gets a copy (the model's capture by value).
    func execute(_ block: BlockID, _ locals: inout [VariableID: Value]) {
        let statements = program[block].statements
        for (index, statement) in statements.enumerated() {
            jitter?.pause(at: UInt64(block.index) << 32 | UInt64(index))
            monitor.progress()
            switch statement.action {
            case .print(let items):
                let snapshot = locals
                output.send(.printed(items.map { evaluate($0, snapshot).description }.joined(separator: " ")))
            case .dispatch(let queue, .async, let body, let options):
                let work = submittedBlock(body, captured: locals)
                let flags: DispatchWorkItemFlags = options.barrier ? .barrier : []
                if let group = options.group {
                    queues[queue.index].async(group: groups[group.index], flags: flags, execute: work)
                } else {
                    queues[queue.index].async(flags: flags, execute: work)
                }
            case .dispatch(let queue, .sync, let body, let options):
                output.send(.syncing(queue: program[queue].name, line: statement.span.line, column: statement.span.column))
                monitor.blocking(true)
                var inner = locals
                queues[queue.index].sync(flags: options.barrier ? .barrier : []) { [self] in
                    monitor.blocking(false)
                    execute(body, &inner)
                    monitor.blocking(true)
                }
                locals = inner
                monitor.blocking(false)
            case .assign(let assignment):
                assign(assignment, &locals, at: UInt64(block.index) << 32 | UInt64(index) | 1 << 31)
            case .loop(let loop):
                let range: ClosedRange<Int>?
                do {
                    range = try loop.values(from: evaluate(loop.from, locals), to: evaluate(loop.to, locals))
                } catch {
                    Self.trap(error)
                }
                guard let values = range else { break }
                for value in values {
                    if let variable = loop.variable { locals[variable] = .int(value) }
                    execute(loop.body, &locals)
                }
            case .branch(let condition, let then, let otherwise):
                if let chosen = evaluate(condition, locals) == .bool(true) ? then : otherwise {
                    execute(chosen, &locals)
                }
            case .group(let group, let action):
                perform(action, on: groups[group.index], locals)
            case .semaphore(let semaphore, .wait):
                monitor.blocking(true)
                semaphores[semaphore.index].wait()
                monitor.blocking(false)
            case .semaphore(let semaphore, .signal):
                semaphores[semaphore.index].signal()
            case .dispatchAfter(let queue, let microseconds, let body):
                monitor.timer(scheduled: true)
                let work = submittedBlock(body, captured: locals)
                queues[queue.index].asyncAfter(deadline: .now() + Self.scaled(microseconds)) { [self] in
                    monitor.timer(scheduled: false)
                    work()
                }
            case .sleep(let microseconds):
                usleep(UInt32(clamping: Self.scaledMicroseconds(microseconds)))
            case .timedWait(let waitable, let microseconds, let result):
                let deadline = DispatchTime.now() + Self.scaled(microseconds)
                let outcome: DispatchTimeoutResult
                switch waitable {
                case .group(let group): outcome = groups[group.index].wait(timeout: deadline)
                case .semaphore(let semaphore): outcome = semaphores[semaphore.index].wait(timeout: deadline)
                }
                if let result { locals[result] = Waitable.result(timedOut: outcome == .timedOut) }
            case .workItem(let id, let action):
                let decl = program.workItems[id.index]
                let item = workItem(id)
                switch action {
                case .submit(let queue, let group):
                    workItemLock.withLock { submitted[id.index] = true }
                    monitor.submitted()
                    if let group {
                        queues[queue.index].async(group: groups[group.index], execute: item)
                    } else {
                        queues[queue.index].async(execute: item)
                    }
                case .cancel:
                    item.cancel()
                    store.write(decl.cancelled, .bool(true))
                case .perform:
                    item.perform()
                case .wait:
                    monitor.blocking(true)
                    item.wait()
                    monitor.blocking(false)
                case .notify(let queue, let body):
                    item.notify(queue: queues[queue.index], execute: submittedBlock(body, captured: locals))
                }
            case .concurrentPerform(let perform):
                let captured = locals
                DispatchQueue.concurrentPerform(iterations: perform.iterations) { [self] iteration in
                    var inner = captured
                    if let variable = perform.variable { inner[variable] = .int(iteration) }
                    execute(perform.body, &inner)
                }
            case .activate(let queue):
                queues[queue.index].activate()
            case .call(let call):
                var parameters: [VariableID: Value] = [:]
                for argument in call.arguments {
                    parameters[argument.parameter] = evaluate(argument.value, locals)
                }
                execute(call.body, &parameters)
            case .operation(let operation, let action):
                perform(action, on: operation, locals)
            case .operationQueue(let queue, let action):
                perform(action, on: queue, locals)
            case .precondition(let kind, let queue):
                switch kind {
                case .onQueue: dispatchPrecondition(condition: .onQueue(queues[queue.index]))
                case .notOnQueue: dispatchPrecondition(condition: .notOnQueue(queues[queue.index]))
                case .onQueueAsBarrier: dispatchPrecondition(condition: .onQueueAsBarrier(queues[queue.index]))
                }
            }
        }
    }

    /// A block handed to libdispatch to run later: counted as outstanding work from now, as
    /// running while it runs, and done (possibly ending the run) when it returns.
    private func submittedBlock(_ body: BlockID, captured: [VariableID: Value]) -> @Sendable () -> Void {
        monitor.submitted()
        return { [self] in
            monitor.itemStarted()
            jitter?.pause(at: UInt64(body.index) << 32 | 0xFFFF_FFFF)
            var inner = captured
            execute(body, &inner)
            if monitor.workCompleted() {
                Self.wakeMainThread()
            }
        }
    }

    private func perform(_ action: GroupAction, on group: DispatchGroup, _ locals: [VariableID: Value]) {
        switch action {
        case .enter:
            group.enter()
        case .leave:
            group.leave()
        case .wait:
            monitor.blocking(true)
            group.wait()
            monitor.blocking(false)
        case .notify(let queue, let body):
            group.notify(queue: queues[queue.index], execute: submittedBlock(body, captured: locals))
        }
    }

    /// A shared variable is read, then (after a possible pause) written, as two steps: the same
    /// granularity as the model, so lost updates happen for real.
    private func assign(_ assignment: Assignment, _ locals: inout [VariableID: Value], at point: UInt64) {
        let target = assignment.target
        let isGlobal = program[target].isGlobal
        let current = isGlobal ? store.read(target) : locals[target]
        let value: Value
        do {
            value = try assignment.result(current: current, operand: evaluate(assignment.value, locals))
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

    private func evaluate(_ expression: DispatchModel.Expression, _ locals: [VariableID: Value]) -> Value {
        do {
            return try expression.evaluate({ id in program[id].isGlobal ? store.read(id) : locals[id] }, isMainThread: Thread.isMainThread)
        } catch {
            Self.trap(error)
        }
    }

    /// The snippet's code traps as a Swift program would (an overflow, a division by zero): the
    /// message Swift's runtime prints, then SIGILL.
    static func trap(_ error: EvaluationError) -> Never {
        let message: String
        switch error {
        case .runtime(let runtimeError): message = "Fatal error: \(runtimeError.message) (in the snippet's code)"
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

    static func scaledMicroseconds(_ microseconds: Int) -> Int {
        max(Int(Double(microseconds) * timeScale), 1)
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
    private let lock = NSLock()
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
    private let lock = NSLock()
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
}
