/// The intermediate representation every walker shares: the explorer (all schedules), the live
/// runner (real libdispatch) and the sheet renderer. It is what a snippet *means*, with Swift's
/// syntax already resolved: queues are numbered, closures are numbered blocks.
public struct Program: Hashable, Sendable, Codable {
    /// Every queue the snippet can touch; `QueueID.index` indexes this array.
    public var queues: [QueueDecl]
    /// Every closure body; `BlockID.index` indexes this array. The top-level code is `entry`.
    public var blocks: [Block]
    public var entry: BlockID

    /// Every variable the snippet declares; `VariableID.index` indexes this array.
    public var variables: [VariableDecl] = []
    /// Every DispatchGroup the snippet creates.
    public var groups: [ObjectDecl] = []
    /// Every DispatchSemaphore the snippet creates, with its initial value.
    public var semaphores: [SemaphoreDecl] = []
    /// Every DispatchWorkItem the snippet creates.
    public var workItems: [WorkItemDecl] = []
    /// Every OperationQueue the snippet uses (`OperationQueue.main` included, when used).
    public var operationQueues: [OperationQueueDecl] = []
    /// Every operation the snippet declares or creates with `addOperation { }`.
    public var operations: [OperationDecl] = []
    /// Every `withTaskGroup` / `withThrowingTaskGroup` in the snippet.
    public var taskGroups: [TaskGroupDecl] = []
    /// Every `withCheckedContinuation` / `withCheckedThrowingContinuation` in the snippet.
    public var continuations: [ContinuationDecl] = []
    /// Every `AsyncStream` the snippet makes.
    public var streams: [StreamDecl] = []
    /// Every `DispatchSource.makeTimerSource(queue:)` in the snippet.
    public var timerSources: [TimerSourceDecl] = []
    /// Every `@TaskLocal static var` the snippet declares.
    public var taskLocals: [TaskLocalDecl] = []
    /// The language mode the snippet was lowered for, when one was stated (a question's `mode:`,
    /// `--mode`); nil: the default for its code (Swift 6 with Swift concurrency, else Swift 5).
    public var mode: LanguageMode?
    /// Shared variables whose read by a `print` is a step of its own, before the line comes out:
    /// Swift evaluates print's arguments (the interpolation reads the variable) before print
    /// takes stdout, so another thread may write the variable and print in between (measured:
    /// `x += 1; print("work \(x)")` on three threads printed `work 2`, `work 4`, `work 3`). Only
    /// a data race can make that show, so the explorer fills this in only for variables its
    /// search found racing (`Explorer.explore`), and race-free programs keep one step a print.
    public var racyPrintVariables: Set<VariableID> = []
    /// A plain nonisolated `async` function is declared: the upcoming feature
    /// NonisolatedNonsendingByDefault would run it on its caller's actor instead.
    public var dependsOnNonsendingDefault = false

    public init(queues: [QueueDecl], blocks: [Block], entry: BlockID, variables: [VariableDecl] = [],
                groups: [ObjectDecl] = [], semaphores: [SemaphoreDecl] = [], workItems: [WorkItemDecl] = [],
                operationQueues: [OperationQueueDecl] = [], operations: [OperationDecl] = []) {
        self.workItems = workItems
        self.operationQueues = operationQueues
        self.operations = operations
        self.queues = queues
        self.blocks = blocks
        self.entry = entry
        self.variables = variables
        self.groups = groups
        self.semaphores = semaphores
    }

    public subscript(variable: VariableID) -> VariableDecl { variables[variable.index] }

    /// The snippet uses Swift concurrency: the top-level code runs as a main-actor task.
    public var usesTasks: Bool {
        queues.contains { $0.kind == .cooperative }
    }

    /// Swift's global concurrent executor, when the snippet uses Swift concurrency.
    public var cooperativeQueue: QueueID? {
        queues.firstIndex { $0.kind == .cooperative }.map { QueueID(index: $0) }
    }

    public subscript(queue: QueueID) -> QueueDecl { queues[queue.index] }

    /// The serial queue (custom serial, or main) whose thread drains `queue`'s work, when its
    /// target is one: libdispatch drains a queue with such a target in the target's context, one
    /// block at a time (src/queue.c, `_dispatch_lane_drain`: "non-redirecting mode"), so even a
    /// concurrent queue becomes serial. Nil for the default target and for a global one.
    public func drainTarget(of queue: QueueID) -> QueueID? {
        guard let target = self[queue].target else { return nil }
        return self[target].kind.isSerial ? target : nil
    }

    /// The queue and the serial queues it drains through, nearest first.
    public func targetChain(of queue: QueueID) -> [QueueID] {
        var chain = [queue]
        while let next = self[chain[chain.count - 1]].target, !chain.contains(next) { chain.append(next) }
        return chain
    }

    /// The limited worker pool that runs the queue's async blocks (nil: they never wait for a
    /// worker). A queue with a serial target runs on its target's thread; one with a global
    /// target asks that root queue's pool (a non-overcommit one, even for a serial queue).
    public func workerPool(of queue: QueueID) -> QoSClass? {
        guard let target = self[queue].target else { return self[queue].workerPool }
        if drainTarget(of: queue) != nil { return nil }
        return self[target].kind == .global ? (self[target].qos ?? .default).pool : self[queue].workerPool
    }

    /// Whether `queue`'s blocks run on the main thread: it is the main queue, or drains through it.
    public func runsOnMainThread(_ queue: QueueID) -> Bool {
        targetChain(of: queue).contains { self[$0].kind == .main }
    }
    public subscript(block: BlockID) -> Block { blocks[block.index] }
    public subscript(queue: OperationQueueID) -> OperationQueueDecl { operationQueues[queue.index] }
    public subscript(operation: OperationID) -> OperationDecl { operations[operation.index] }
    public subscript(group: TaskGroupID) -> TaskGroupDecl { taskGroups[group.index] }
    public subscript(continuation: ContinuationID) -> ContinuationDecl { continuations[continuation.index] }
    public subscript(stream: StreamID) -> StreamDecl { streams[stream.index] }
}

public struct QueueID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public static func < (a: QueueID, b: QueueID) -> Bool { a.index < b.index }
    public var description: String { "q\(index)" }
}

public struct BlockID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "b\(index)" }
}

/// How a queue schedules its items; the one place both walkers learn what a queue is.
public enum QueueKind: String, Hashable, Sendable, Codable {
    /// Serial, served only by the main thread once it is idle.
    case main
    /// One item at a time, FIFO.
    case serial
    /// Items start in FIFO order and run side by side.
    case concurrent
    /// A global (root) queue: concurrent, and a barrier on it is a plain item.
    case global
    /// Swift's global concurrent executor: a queue per priority, each as wide as the CPUs and
    /// never wider; a priority's jobs start in FIFO order, other priorities' beside them
    /// (`Semantics.executorWidth`).
    case cooperative
    /// An actor instance's serial executor: one job at a time, higher priority first, each run
    /// on a thread of the cooperative pool.
    case actor

    /// At most one item at a time holds the queue.
    public var isSerial: Bool { self == .main || self == .serial || self == .actor }

    /// Whether an async item of the queue needs a worker of libdispatch's limited pool (global
    /// and custom concurrent queues: the non-overcommit root queues). Custom serial queues and
    /// the main queue are served without that limit.
    public var usesLimitedPool: Bool {
        switch self {
        case .global, .concurrent: true
        case .main, .serial, .cooperative, .actor: false
        }
    }
}

/// A quality-of-service class, as `DispatchQoS.QoSClass` names them.
public enum QoSClass: String, Hashable, Sendable, Codable, CaseIterable {
    case userInteractive, userInitiated, `default`, utility, background, unspecified

    /// The class whose limited worker pool serves it. On Linux libdispatch serves
    /// userInteractive from userInitiated's root queue, and a queue without a class from the
    /// default one.
    public var pool: QoSClass {
        switch self {
        case .userInteractive, .userInitiated: .userInitiated
        case .default, .unspecified: .default
        case .utility: .utility
        case .background: .background
        }
    }
}

public struct QueueDecl: Hashable, Sendable, Codable {
    /// The Swift expression or variable name the snippet uses, as shown in witnesses.
    public var name: String
    /// The label passed to `DispatchQueue(label:)`; for main and global queues, libdispatch's own.
    public var label: String
    public var kind: QueueKind
    /// The QoS class when the snippet gave one (a global queue always has one).
    public var qos: QoSClass?
    /// Where the snippet declared it; nil for the prelude's queues and the built-in ones.
    public var span: SourceSpan?
    /// Created with `.initiallyInactive`: nothing starts until `activate()`.
    public var initiallyInactive: Bool
    /// `DispatchQueue(label:…, target: t)`: the queue its work drains through (nil: the default
    /// root queue). `setTarget(queue:)` on an inactive queue changes it while the program runs.
    public var target: QueueID?

    public init(name: String, label: String, kind: QueueKind, qos: QoSClass? = nil, span: SourceSpan? = nil, initiallyInactive: Bool = false,
                target: QueueID? = nil) {
        self.name = name
        self.label = label
        self.kind = kind
        self.qos = qos
        self.span = span
        self.initiallyInactive = initiallyInactive
        self.target = target
    }

    /// The limited worker pool (by QoS class) that runs the queue's async items, or nil when
    /// they never wait for a worker.
    public var workerPool: QoSClass? {
        kind.usesLimitedPool ? (qos ?? .default).pool : nil
    }
}

public struct Block: Hashable, Sendable, Codable {
    public var statements: [Statement]
    /// Where the closure starts (its `{`), or nil for the top-level code.
    public var span: SourceSpan?

    public init(statements: [Statement], span: SourceSpan? = nil) {
        self.statements = statements
        self.span = span
    }
}

public struct Statement: Hashable, Sendable, Codable {
    public var action: Action
    public var span: SourceSpan

    public init(_ action: Action, at span: SourceSpan) {
        self.action = action
        self.span = span
    }
}

public enum Action: Hashable, Sendable, Codable {
    /// `print(a, b)`: one line of output, the items' descriptions separated by spaces.
    case print([Expression])
    /// `queue.sync { body }`, `queue.async { body }`, with `flags: .barrier` or `group:`.
    case dispatch(queue: QueueID, mode: DispatchMode, body: BlockID, options: DispatchOptions)
    /// `x = e`, `x += e`, `x -= e`, `list.append(e)`, and a declaration's initial value.
    case assign(Assignment)
    /// `for i in a...b { body }` or `for _ in a..<b { body }`.
    case loop(Loop)
    /// `while condition { body }`, or one of the two statements of `repeat { body } while
    /// condition` (see `WhileLoop`).
    case whileLoop(WhileLoop)
    /// `if condition { then } else { otherwise }`.
    case branch(condition: Expression, then: BlockID, otherwise: BlockID?)
    /// `group.enter()`, `group.leave()`, `group.wait()`, `group.notify(queue:) { }`.
    case group(GroupID, GroupAction)
    /// `semaphore.wait()`, `semaphore.signal()`.
    case semaphore(SemaphoreID, SemaphoreAction)
    /// `queue.asyncAfter(deadline: .now() + d) { body }`: submitted once `d` has passed.
    case dispatchAfter(queue: QueueID, delay: Delay, body: BlockID)
    /// `sleep(1)`, `usleep(n)`, `Thread.sleep(forTimeInterval:)`.
    case sleep(Delay)
    /// `group.wait(timeout:)` or `semaphore.wait(timeout:)`; `result` (if any) receives
    /// "success" or "timedOut".
    case timedWait(Waitable, delay: Delay, result: VariableID?)
    /// `queue.activate()` for a queue created `.initiallyInactive`.
    case activate(QueueID)
    /// `queue.setTarget(queue:)`, `queue.setSpecific(key:value:)`.
    case queueSetting(QueueID, QueueSetting)
    /// `dispatchPrecondition(condition: .onQueue(q))` and friends: the process dies if false.
    case precondition(PreconditionKind, QueueID)
    /// `item.perform()`, `item.cancel()`, `item.wait()`, `item.notify(queue:) { }`, and
    /// `queue.async(execute: item)`.
    case workItem(WorkItemID, WorkItemAction)
    /// `DispatchQueue.concurrentPerform(iterations: n) { i in body }`: the calling thread runs
    /// iterations itself, helped by workers of `queue`'s pool, and returns when all have run.
    case concurrentPerform(ConcurrentPerform)
    /// `work(3)`: a function the snippet declares, called with its arguments.
    case call(FunctionCall)
    /// `return`, `return value`: leaves the function, method or closure it stands in (the
    /// statements after it and around it in that body do not run), its value to the caller.
    case returns(Expression?)
    /// `break` or `continue` in a `for`, `while` or `repeat` loop: the statements after it in the loop's body (and
    /// in the branches around it) do not run; the loop ends, or goes on with its next value.
    case exitLoop(LoopExit)
    /// `op.addDependency(…)`, `op.cancel()`, `op.completionBlock = { }`, … (see `OperationAction`).
    case operation(OperationID, OperationAction)
    /// `queue.addOperation(…)`, `queue.maxConcurrentOperationCount = n`, … on an OperationQueue.
    case operationQueue(OperationQueueID, OperationQueueAction)
    /// `Task { }`, `Task.detached { }`, `async let`: a new task, its first job queued on the
    /// executor of its isolation.
    case spawn(TaskSpawn)
    /// `await withTaskGroup(of:) { group in … }`: the body in place, the group started afresh.
    case withTaskGroup(TaskGroupRun)
    /// `t.cancel()`, `group.cancelAll()`, `Task.isCancelled`, `try Task.checkCancellation()`.
    case cancellation(CancellationAction)
    /// `Ctx.$id.withValue(v) { … }`'s binding and its end, `Ctx.id` (see `TaskLocalAction`).
    case taskLocal(TaskLocalAction)
    /// `withCheckedContinuation`'s body, `cont.resume(…)`.
    case continuation(ContinuationID, ContinuationAction)
    /// An `AsyncStream`'s build closure, `yield` or `finish` (see `StreamAction`).
    case stream(StreamID, StreamAction)
    /// A call on a `DispatchSourceTimer` (`IR/TimerSources.swift`).
    case timer(TimerSourceID, TimerAction)
    /// An `await` that suspends the running task (see `Suspension`).
    case suspend(Suspension)
    /// The running task moves to the executor of an isolation: before an isolated function's
    /// body (an actor's method, a `@MainActor` function) and back after it. A suspension point
    /// when the executor differs (the actor is busy, or it is the main actor).
    case hop(Isolation)
    /// `throw e`, and where an error raised in a callee or a cancelled sleep is thrown on.
    case throwing(ThrowAction)
    /// `do { } catch { }`, `try? f()`, `try! f()` (see `ErrorHandler`).
    case handles(ErrorHandler)
}

/// How long a sleep, a timer or a timeout lasts: whole microseconds of the logical clock, written as
/// a number (`0.5`, `.milliseconds(100)`) or computed when the statement runs
/// (`TimeInterval(index) / 10`, `.seconds(n)`): Swift's seconds scaled to integer microseconds.
public struct Delay: Hashable, Sendable, Codable {
    /// Evaluates to an Int: the delay in microseconds (a negative one waits no time, as Swift's).
    public var microseconds: Expression
    /// For `sleep(UInt32(n))` and `usleep(UInt32(n))`: `n`, which Swift's conversion traps on
    /// when it is negative or past `UInt32.max`.
    public var convertedToUInt32: Expression?

    public init(microseconds: Expression, convertedToUInt32: Expression? = nil) {
        self.microseconds = microseconds
        self.convertedToUInt32 = convertedToUInt32
    }

    /// The longest delay the model's clock takes (about 317 years: `sleep(UInt32.max)` fits), far
    /// from overflowing its microseconds.
    public static let longestSeconds = 10_000_000_000
    public static let longest = longestSeconds * 1_000_000

    public static func constant(_ microseconds: Int) -> Delay {
        Delay(microseconds: .literal(.int(microseconds)))
    }

    /// The delay when it is written as a number.
    public var constant: Int? {
        guard convertedToUInt32 == nil, case .int(let value)? = microseconds.constantValue else { return nil }
        return value
    }

    /// Every variable the delay reads.
    public var variablesRead: [VariableID] {
        microseconds.variablesRead + (convertedToUInt32?.variablesRead ?? [])
    }

    /// The delay in microseconds, with `lookup` giving each variable's value: a conversion that
    /// does not fit a UInt32 traps as Swift's; a scaled value past what the clock holds (Swift's
    /// seconds are Doubles, which do not overflow) is the longest delay.
    public func evaluate(_ lookup: (VariableID) -> Value?, longest: Int) throws(EvaluationError) -> Int {
        if let convertedToUInt32, case .int(let raw) = try convertedToUInt32.evaluate(lookup, isMainThread: false),
            raw < 0 || raw > Int(UInt32.max) {
            throw .runtime(.conversionOverflow(raw, to: "UInt32"))
        }
        let value: Value
        do {
            value = try microseconds.evaluate(lookup, isMainThread: false)
        } catch {
            if case .runtime(.overflow) = error { return longest }
            throw error
        }
        guard case .int(let microseconds) = value else { throw .undefined("a delay that is not an Int") }
        return min(max(microseconds, 0), longest)
    }
}

/// `while condition { body }`: the test is a step of its own, taken before each run of the body
/// (the body's frame ends and the thread is back at this statement, with no count of the runs, so
/// a loop that changes nothing comes back to a state the search has seen). `repeat { body } while
/// condition` is two statements: its entry (`entersUntested`), which runs the body once and moves
/// on to the second, the test, which runs it again while the condition holds.
public struct WhileLoop: Hashable, Sendable, Codable {
    public var condition: Expression
    public var body: BlockID
    /// `repeat`'s first run of the body, with no test before it.
    public var entersUntested: Bool

    public init(condition: Expression, body: BlockID, entersUntested: Bool = false) {
        self.condition = condition
        self.body = body
        self.entersUntested = entersUntested
    }
}

/// How a loop's body is left early.
public enum LoopExit: String, Hashable, Sendable, Codable {
    case breaks = "break"
    case continues = "continue"
}

public enum WorkItemAction: Hashable, Sendable, Codable {
    case perform, cancel, wait
    case notify(queue: QueueID, body: BlockID)
    /// `queue.async(execute: item)`, or `queue.async(group: g, execute: item)`.
    case submit(queue: QueueID, group: GroupID?)
    /// `queue.asyncAfter(deadline: .now() + d, execute: item)`: a timer that submits the item.
    case submitAfter(queue: QueueID, delay: Delay)
}

public struct WorkItemID: Hashable, Sendable, Codable {
    public let index: Int
    public init(index: Int) { self.index = index }
}

public struct WorkItemDecl: Hashable, Sendable, Codable {
    public var name: String
    public var body: BlockID
    /// `DispatchWorkItem(flags: .barrier)`.
    public var barrier: Bool
    /// The hidden top-level variable that `item.isCancelled` reads and `cancel()` sets.
    public var cancelled: VariableID
    public var span: SourceSpan

    public init(name: String, body: BlockID, barrier: Bool, cancelled: VariableID, span: SourceSpan) {
        self.name = name
        self.body = body
        self.barrier = barrier
        self.cancelled = cancelled
        self.span = span
    }
}

/// A call of a function the snippet declares: its body runs on the calling thread, with the
/// parameters bound to the arguments' values (Swift passes them by value).
public struct FunctionCall: Hashable, Sendable, Codable {
    public struct Argument: Hashable, Sendable, Codable {
        public var parameter: VariableID
        public var value: Expression

        public init(parameter: VariableID, value: Expression) {
            self.parameter = parameter
            self.value = value
        }
    }

    public var name: String
    public var body: BlockID
    public var arguments: [Argument]
    /// Where the value it returns goes (a variable of the caller), for a call inside an expression.
    public var result: VariableID?

    public init(name: String, body: BlockID, arguments: [Argument], result: VariableID? = nil) {
        self.name = name
        self.body = body
        self.arguments = arguments
        self.result = result
    }
}

public struct ConcurrentPerform: Hashable, Sendable, Codable {
    public var iterations: Int
    public var variable: VariableID?
    public var body: BlockID
    /// The global queue whose pool lends helper threads (the caller's QoS: default here).
    public var queue: QueueID

    public init(iterations: Int, variable: VariableID?, body: BlockID, queue: QueueID) {
        self.iterations = iterations
        self.variable = variable
        self.body = body
        self.queue = queue
    }
}

/// Something a thread can wait on with a timeout.
public enum Waitable: Hashable, Sendable, Codable {
    case group(GroupID)
    case semaphore(SemaphoreID)

    /// What `wait(timeout:)` returns, as the value `if … == .timedOut` compares with.
    public static func result(timedOut: Bool) -> Value {
        .string(timedOut ? "timedOut" : "success")
    }
}

/// What a queue is told after it was made (Semantics+TargetQueues).
public enum QueueSetting: Hashable, Sendable, Codable {
    /// `q.setTarget(queue: t)`: allowed while the queue is inactive; libdispatch traps on an
    /// active one ("Cannot change the target of this object after it has been activated").
    case target(QueueID)
    /// `q.setSpecific(key: k, value: v)`: `k` is the key's hidden variable (`ObjectState.specificKey`).
    case specific(key: VariableID, value: Expression)
}

public enum PreconditionKind: String, Hashable, Sendable, Codable {
    case onQueue, notOnQueue, onQueueAsBarrier
    /// `MainActor.assumeIsolated { … }` (on the main queue): off the main actor the runtime
    /// checks the main queue with libdispatch's `dispatch_assert_queue`, as `.onQueue(.main)`
    /// does, and the process dies the same way (SIGILL, measured with swiftc 6.3 on Linux).
    case assumeIsolated
    /// `MainActor.assertIsolated()` and `MainActor.preconditionIsolated()`: the same check
    /// without a body. The runtime (GlobalActor.assertIsolated → Actor.preconditionIsolated →
    /// swift_task_isCurrentExecutor) checks the main queue with dispatch_assert_queue off a
    /// task; measured with swiftc 6.3 on Linux, both kill the process (SIGILL) off the main
    /// actor in -Onone and -O builds alike: the assert is not compiled out of the snippet.
    case assertIsolated, preconditionIsolated

    /// The MainActor call that makes the check (nil: a dispatchPrecondition).
    public var mainActorCall: String? {
        switch self {
        case .onQueue, .notOnQueue, .onQueueAsBarrier: nil
        case .assumeIsolated, .assertIsolated, .preconditionIsolated: "MainActor.\(rawValue)"
        }
    }
}

/// What a dispatch call adds to the plain `sync`/`async`.
public struct DispatchOptions: Hashable, Sendable, Codable {
    /// `flags: .barrier`: on a custom concurrent queue, runs alone after everything before it.
    public var barrier: Bool
    /// `async(group:)`: the group is entered on submission and left when the block ends.
    public var group: GroupID?
    /// `let v = q.sync { … }`: where the value the block returns goes (a variable of the caller).
    public var result: VariableID?
    /// `q.asyncAndWait { }` (a `.sync` dispatch): it waits as `sync` does, but a block that had
    /// to wait for its turn runs on the thread that drains the queue, not the caller's
    /// (libdispatch's `dispatch_async_and_wait`, `src/queue.c`).
    public var asyncAndWait = false

    public init(barrier: Bool = false, group: GroupID? = nil, result: VariableID? = nil, asyncAndWait: Bool = false) {
        self.barrier = barrier
        self.group = group
        self.result = result
        self.asyncAndWait = asyncAndWait
    }

    public static let none = DispatchOptions()
}

public struct Assignment: Hashable, Sendable, Codable {
    public enum Operation: String, Hashable, Sendable, Codable {
        case set, add, subtract, append
    }

    public var target: VariableID
    public var operation: Operation
    public var value: Expression
    /// `list[i] = v`, `list[i] += v`: the element the operation acts on, in the target array.
    public var index: Expression?
    /// `dict[key] = v`: `index` is a key of a dictionary (its entries kept as `[key, value]`
    /// pairs in the order they were added), whose entry is replaced or added.
    public var keyed: Bool

    public init(target: VariableID, operation: Operation, value: Expression, index: Expression? = nil, keyed: Bool = false) {
        self.target = target
        self.operation = operation
        self.value = value
        self.index = index
        self.keyed = keyed
    }

    /// Whether the assignment reads the target before writing it (`x += 1` does; `x = 1` does not;
    /// `list[i] = 1` does, changing one element of the array it reads).
    public var readsTarget: Bool { operation != .set || index != nil || value.reads(target) }

    /// Every variable the right-hand side and the index read.
    public var operandsRead: [VariableID] { value.variablesRead + (index?.variablesRead ?? []) }

    /// The value written, from the target's current value and the evaluated right-hand side:
    /// the one meaning both walkers give `=`, `+=`, `-=` and `append`. `+=` and `-=` trap on
    /// overflow, as in Swift.
    public func result(current: Value?, operand: Value, position: Value? = nil) throws(EvaluationError) -> Value {
        if let position, keyed {
            guard case .list(var entries)? = current, operation == .set else { throw .undefined("a key of a value that is not a dictionary") }
            if let at = entries.firstIndex(where: { if case .list(let pair) = $0 { pair.first == position } else { false } }) {
                entries[at] = .list([position, operand])
            } else {
                entries.append(.list([position, operand]))
            }
            return .list(entries)
        }
        if let position {
            guard case .list(var items)? = current, case .int(let at) = position else { throw .undefined("a subscript of a value that is not an array") }
            guard items.indices.contains(at) else { throw .runtime(.indexOutOfRange) }
            items[at] = try Assignment(target: target, operation: operation, value: value).result(current: items[at], operand: operand)
            return .list(items)
        }
        switch operation {
        case .set:
            return operand
        case .add, .subtract:
            guard let current else { throw .undefined("'\(operation)' on a variable without a value") }
            return try (operation == .add ? BinaryOperator.add : .subtract).apply(current, operand)
        case .append:
            guard case .list(let items)? = current else { throw .undefined("append to a value that is not an array") }
            return .list(items + [operand])
        }
    }
}

public struct Loop: Hashable, Sendable, Codable {
    /// The most iterations of a loop with a body gcdquiz explores (counting the loops around it):
    /// each is a step of its thread, so more would run past any budget. A loop with an empty body
    /// is one step whatever its count (`swiftc -O` removes it too).
    public static let maximumIterations: UInt64 = 100_000

    /// How many times a loop from `first` to `bound` runs, without overflow: nil for a range
    /// whose upper bound is below its lower one (Swift traps).
    public static func iterations(from first: Int, to bound: Int, inclusive: Bool) -> UInt64? {
        guard first <= bound else { return nil }
        let span = UInt64(bitPattern: Int64(bound &- first))
        return inclusive ? (span == .max ? .max : span + 1) : span
    }

    /// The loop's variable, or nil for `for _ in`.
    public var variable: VariableID?
    public var from: Expression
    public var to: Expression
    /// `...` (true) or `..<` (false).
    public var inclusive: Bool
    public var body: BlockID

    /// The values the loop variable takes, from the evaluated bounds: nil for an empty `a..<a`;
    /// a bound below the other traps, as Swift's ranges do.
    public func values(from: Value, to: Value) throws(EvaluationError) -> ClosedRange<Int>? {
        guard case .int(let first) = from, case .int(let bound) = to else { throw .undefined("a loop bound that is not an Int") }
        guard first <= bound else { throw .runtime(.invalidRange) }
        if inclusive { return first...bound }
        return first < bound ? first...(bound - 1) : nil
    }

    public init(variable: VariableID?, from: Expression, to: Expression, inclusive: Bool, body: BlockID) {
        self.variable = variable
        self.from = from
        self.to = to
        self.inclusive = inclusive
        self.body = body
    }
}

public enum GroupAction: Hashable, Sendable, Codable {
    case enter, leave, wait
    case notify(queue: QueueID, body: BlockID)
}

public enum SemaphoreAction: Hashable, Sendable, Codable {
    case wait, signal
}

public struct VariableID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public static func < (a: VariableID, b: VariableID) -> Bool { a.index < b.index }
    public var description: String { "v\(index)" }
}

public struct GroupID: Hashable, Sendable, Codable {
    public let index: Int
    public init(index: Int) { self.index = index }
}

public struct SemaphoreID: Hashable, Sendable, Codable {
    public let index: Int
    public init(index: Int) { self.index = index }
}

public struct VariableDecl: Hashable, Sendable, Codable {
    public var name: String
    /// Declared at the top level: one variable shared by every thread. Otherwise local to the
    /// closure or loop that declares it, and captured by value by closures submitted from there.
    public var isGlobal: Bool
    public var span: SourceSpan
    /// Read and written atomically by the library (a work item's cancelled flag): never a race.
    public var isSynchronized: Bool
    /// A library object's state the variable stands for (`op.isFinished`): the model keeps it,
    /// the live runner reads the real object.
    public var reflects: ObjectState?

    public init(name: String, isGlobal: Bool, span: SourceSpan, isSynchronized: Bool = false, reflects: ObjectState? = nil) {
        self.name = name
        self.isGlobal = isGlobal
        self.span = span
        self.isSynchronized = isSynchronized
        self.reflects = reflects
    }
}

/// The state of a library object that a snippet reads as a property.
public enum ObjectState: Hashable, Sendable, Codable {
    case operationIsFinished(OperationID)
    case operationIsExecuting(OperationID)
    /// A `DispatchSpecificKey`: reading it is `DispatchQueue.getSpecific(key:)`, the value set on
    /// the current queue or, failing that, on its targets, one after another (nil elsewhere).
    case specificKey
}

/// A dispatch object the snippet creates (a group).
public struct ObjectDecl: Hashable, Sendable, Codable {
    public var name: String
    public var span: SourceSpan

    public init(name: String, span: SourceSpan) {
        self.name = name
        self.span = span
    }
}

public struct SemaphoreDecl: Hashable, Sendable, Codable {
    public var name: String
    public var initialValue: Int
    public var span: SourceSpan
    /// The lock this semaphore of one is, if it is one: its count is 1 (free) or 0 (held), and
    /// the kind says what `lock()` by the holding thread and `unlock()` by anyone else do.
    public var lock: LockKind?

    /// An `NSLock`, `NSRecursiveLock` or `Mutex`, worded as a lock rather than a semaphore.
    public var isLock: Bool { lock != nil }

    public init(name: String, initialValue: Int, span: SourceSpan, lock: LockKind? = nil) {
        self.name = name
        self.initialValue = initialValue
        self.span = span
        self.lock = lock
    }
}

/// The kinds of lock the subset has. They differ only where a thread meets a lock it holds, or
/// gives back one it does not hold (each measured with swiftc 6.3 on Linux).
public enum LockKind: String, Hashable, Sendable, Codable {
    /// `NSLock` (glibc's default mutex on Linux): a second `lock()` on the holding thread waits
    /// for ever; an `unlock()` frees it whoever calls it, and one of a free lock changes nothing
    /// (a `lock()` after it still blocks).
    case plain
    /// `NSRecursiveLock` (a `PTHREAD_MUTEX_RECURSIVE` mutex in swift-corelibs-foundation): the
    /// holder may lock again and holds it until as many `unlock()`s; an `unlock()` by another
    /// thread or of a free lock fails with EPERM, which Foundation ignores, so it changes nothing.
    case recursive
    /// `Mutex` of the Synchronization module, taken and given back only by `withLock`: a
    /// `withLock` on the thread already inside one of the same mutex traps ("Fatal error:
    /// Recursive call to lock Mutex", SIGILL).
    case mutex
}

public enum DispatchMode: String, Hashable, Sendable, Codable {
    case sync, async
}

extension UInt64 {
    /// 9223372036854775807 as "9,223,372,036,854,775,807", for messages.
    var grouped: String {
        let digits = String(self)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
