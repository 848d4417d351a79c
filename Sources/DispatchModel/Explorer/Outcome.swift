/// One way a run can go, as the learner predicts it: the printed lines and how the run ended.
public struct Outcome: Hashable, Sendable, Comparable {
    public var lines: [String]
    public var end: End

    public init(lines: [String], end: End) {
        self.lines = lines
        self.end = end
    }

    /// Finished runs first; then by lines, comparing numbers as numbers so that 2 comes before 10.
    public static func < (a: Outcome, b: Outcome) -> Bool {
        if a.end != b.end { return a.end == .finished }
        for (x, y) in zip(a.lines, b.lines) where x != y {
            if let m = Int(x), let n = Int(y) { return m < n }
            return x < y
        }
        return a.lines.count < b.lines.count
    }
}

/// How a run ends. The model knows two endings; the live runner adds `crash` and `timeout`.
public enum End: String, Hashable, Sendable, Codable {
    /// Every piece of submitted work ran to completion.
    case finished
    /// Work remains that can never run: a trap, a cycle of waits.
    case deadlock
}

/// Why a run ended in a deadlock, as facts keyed by ids: which thread trapped where, or who
/// waits on whom. `Narrator.words(for:)` says it to the learner.
public enum DeadlockReason: Hashable, Sendable {
    /// libdispatch killed the process: `sync` onto a serial queue the thread already owns.
    case trap(thread: ThreadID, queue: QueueID, at: SourceSpan)
    /// Nothing can run any more: what each stuck thread or piece of work waits for.
    case stuck([StuckFact])
    /// `leave()` on a group with no block in it: libdispatch crashes the process.
    case unbalancedLeave(thread: ThreadID, group: GroupID, at: SourceSpan)
    /// `dispatchPrecondition` found the thread on the wrong queue: the process dies.
    case preconditionFailed(thread: ThreadID, kind: PreconditionKind, queue: QueueID, at: SourceSpan)
    /// Foundation's `fatalError` for misuse, such as adding an operation to a queue twice.
    case foundationCrash(thread: ThreadID, misuse: FoundationMisuse, at: SourceSpan)
    /// `signal()` on a semaphore whose count is already `Int.max`: libdispatch's counter wraps
    /// and it kills the process ("Unbalanced call to dispatch_semaphore_signal()").
    case unbalancedSignal(thread: ThreadID, semaphore: SemaphoreID, at: SourceSpan)
    /// The snippet's own code traps in Swift: an overflow, a division by zero, a bad range.
    case runtimeError(thread: ThreadID, error: RuntimeError, at: SourceSpan)
    /// The model cannot tell what the code does here: a bug in gcdquiz, said rather than guessed.
    case modelError(thread: ThreadID, message: String, at: SourceSpan)
}

/// What the explorer knows of one outcome: a schedule that produces it, and why it ended so.
public struct OutcomeReport: Hashable, Sendable {
    public var outcome: Outcome
    /// The first schedule the explorer found that produces the outcome.
    public var schedule: Schedule
    public var deadlock: DeadlockReason?

    /// That schedule, step by step.
    public var witness: [ScheduleStep] { schedule.steps }
}

/// One step of a schedule: which thread did what, running an item of which queue.
public struct ScheduleStep: Hashable, Sendable, CustomStringConvertible {
    public enum Event: Hashable, Sendable {
        case printed(String)
        /// `async` put the block at the end of the queue.
        case enqueued(queue: String)
        /// `sync` asked for the queue and waits its turn.
        case waits(queue: String)
        /// The queue handed an `async` item to this thread.
        case startsItem(queue: String)
        /// The queue let this thread into the body of a `sync`.
        case entersSync(queue: String)
        /// libdispatch traps: `sync` onto a queue this thread owns (or an unbalanced leave).
        case traps(queue: String)
        /// The first half of `x += 1`: the value is read and computed.
        case reads(variable: String)
        /// A variable gets a new value.
        case writes(variable: String, value: String)
        case loops
        case branches(Bool)
        case groupEnter(group: String)
        case groupLeave(group: String)
        case groupWaitReturns(group: String)
        case groupNotify(group: String, queue: String)
        case semaphoreWaitReturns(semaphore: String)
        case semaphoreSignal(semaphore: String)
        case schedules(queue: String, microseconds: Int)
        case timerFires(queue: String)
        case clock(microseconds: Int)
        /// Time passes while blocks of these queues wait for a worker of an exhausted pool.
        case clockWhileWaitingForWorker(microseconds: Int, queues: [String])
        case sleeps(microseconds: Int)
        case wakes
        case waitsWithTimeout(microseconds: Int)
        case waitEnds(timedOut: Bool)
        case activates(queue: String)
        case preconditionHolds
        case performs(iterations: Int)
        /// The calling thread takes the next iteration of its concurrentPerform.
        case takesIteration(Int)
        /// A pool thread joins a concurrentPerform and takes an iteration.
        case helpsPerform(iteration: Int)
        case performReturns
        case workItemCancel(item: String)
        case workItemWaitReturns(item: String)
        case workItemNotify(item: String, queue: String)
        case workItemPerform(item: String)
        case workItemSkipped(item: String)
        /// Foundation kills the process (`fatalError`).
        case crashes(String)
        /// A function the snippet declares is called: its body runs next on this thread.
        case calls(function: String)
        case operationCreated(operation: String)
        case operationBlockAdded(operation: String)
        case dependencyAdded(operation: String, on: String)
        case completionSet(operation: String)
        case priorityChanged(operation: String, priority: QueuePriority)
        case operationCancel(operation: String)
        case operationWaitReturns(operation: String)
        case operationsAdded(queue: String, operations: [String])
        case operationLimit(queue: String, limit: Int?)
        case operationQueueSuspended(queue: String, Bool)
        case operationCancelAll(queue: String)
        case operationWaitAllReturns(queue: String)
        case operationsWaitReturns(queue: String, operations: [String])
        /// The backing queue gives a thread to the operation: its first block starts.
        case startsOperation(operation: String)
        /// A cancelled operation's turn: it finishes without running.
        case operationSkipped(operation: String)
        /// An operation with no blocks (`Operation()`) runs and finishes at once.
        case operationFinishes(operation: String)
    }

    public var thread: String
    /// The queue whose item or `sync` body the thread is running, or nil for top-level code.
    public var queue: String?
    public var event: Event
    public var span: SourceSpan?

    /// What the thread did, in words: "prints 1", "serialQueue.async: enqueues the block".
    public var action: String {
        switch event {
        case .printed(let text): "prints \(text)"
        case .enqueued(let queue): "\(queue).async: enqueues the block"
        case .waits(let queue): "\(queue).sync: waits for its turn"
        case .startsItem(let queue): "starts the next item of \(queue)"
        case .entersSync(let queue): "enters the \(queue).sync block"
        case .traps(let queue): "\(queue): libdispatch traps, the process dies"
        case .reads(let variable): "reads \(variable) (and computes the new value)"
        case .writes(let variable, let value): "sets \(variable) = \(value)"
        case .loops: "starts a loop"
        case .branches(let taken): taken ? "if: the condition holds" : "if: the condition does not hold"
        case .groupEnter(let group): "\(group).enter()"
        case .groupLeave(let group): "\(group).leave()"
        case .groupWaitReturns(let group): "\(group).wait() returns: the group is empty"
        case .groupNotify(let group, let queue): "\(group).notify(queue: \(queue)): registers the block"
        case .semaphoreWaitReturns(let semaphore): "\(semaphore).wait() returns (count − 1)"
        case .semaphoreSignal(let semaphore): "\(semaphore).signal() (count + 1)"
        case .schedules(let queue, let microseconds): "\(queue).asyncAfter: a timer for \(Self.seconds(microseconds)) from now"
        case .timerFires(let queue): "fires: the block joins \(queue)"
        case .clock(let microseconds): "time passes: now \(Self.seconds(microseconds))"
        case .clockWhileWaitingForWorker(let microseconds, let queues):
            "time passes (now \(Self.seconds(microseconds))) while the next block of \(queues.joined(separator: ", ")) waits for a worker thread: the pool's threads, one per CPU core, are busy or blocked, and libdispatch adds one only about once a second"
        case .sleeps(let microseconds): "sleeps for \(Self.seconds(microseconds))"
        case .wakes: "wakes up"
        case .waitsWithTimeout(let microseconds): "waits, for \(Self.seconds(microseconds)) at most"
        case .waitEnds(let timedOut): timedOut ? "the wait times out (.timedOut)" : "the wait returns (.success)"
        case .activates(let queue): "\(queue).activate()"
        case .preconditionHolds: "dispatchPrecondition holds"
        case .performs(let iterations): "concurrentPerform(iterations: \(iterations)): runs iterations itself; pool threads may help"
        case .takesIteration(let index): "concurrentPerform: takes iteration \(index) itself"
        case .helpsPerform(let index): "joins concurrentPerform and takes iteration \(index)"
        case .performReturns: "concurrentPerform returns: every iteration has finished"
        case .workItemCancel(let item): "\(item).cancel()"
        case .workItemWaitReturns(let item): "\(item).wait() returns: the item has run"
        case .workItemNotify(let item, let queue): "\(item).notify(queue: \(queue)): registers the block"
        case .workItemPerform(let item): "\(item).perform()"
        case .workItemSkipped(let item): "takes \(item) from the queue: cancelled, so its body is skipped"
        case .crashes(let message): "Foundation stops the process: \(message)"
        case .calls(let function): "calls \(function)()"
        case .operationCreated(let operation): "creates \(operation)"
        case .operationBlockAdded(let operation): "\(operation).addExecutionBlock"
        case .dependencyAdded(let operation, let other): "\(operation).addDependency(\(other)): \(operation) waits for \(other) to finish"
        case .completionSet(let operation): "sets \(operation).completionBlock"
        case .priorityChanged(let operation, let priority): "\(operation).queuePriority = .\(priority.name)"
        case .operationCancel(let operation): "\(operation).cancel()"
        case .operationWaitReturns(let operation): "\(operation).waitUntilFinished() returns: it has finished"
        case .operationsAdded(let queue, let operations): "\(queue): adds \(operations.joined(separator: ", "))"
        case .operationLimit(let queue, let limit): "\(queue).maxConcurrentOperationCount = \(limit.map(String.init) ?? "no limit")"
        case .operationQueueSuspended(let queue, let suspended): "\(queue).isSuspended = \(suspended)"
        case .operationCancelAll(let queue): "\(queue).cancelAllOperations()"
        case .operationWaitAllReturns(let queue): "\(queue).waitUntilAllOperationsAreFinished() returns"
        case .operationsWaitReturns(let queue, let operations): "\(queue).addOperations(…, waitUntilFinished: true) returns: \(operations.joined(separator: ", ")) have finished"
        case .startsOperation(let operation): "starts \(operation)"
        case .operationSkipped(let operation): "\(operation)'s turn: cancelled, so it finishes without running"
        case .operationFinishes(let operation): "\(operation) has no blocks: it finishes at once"
        }
    }

    static func seconds(_ microseconds: Int) -> String {
        if microseconds % 1_000_000 == 0 { return "\(microseconds / 1_000_000) s" }
        if microseconds % 1_000 == 0 { return "\(microseconds / 1_000) ms" }
        return "\(microseconds) µs"
    }

    public var description: String {
        let context = queue.map { " (on \($0))" } ?? ""
        let place = span.map { "  [line \($0.line)]" } ?? ""
        return "\(thread)\(context): \(action)\(place)"
    }
}
