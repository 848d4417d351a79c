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
            return linePrecedes(x, y)
        }
        return a.lines.count < b.lines.count
    }

    /// The order of two different lines at one place of two outcomes.
    static func linePrecedes(_ x: String, _ y: String) -> Bool {
        if let m = Int(x), let n = Int(y) { return m < n }
        return x < y
    }
}

/// `Outcome`'s order for outcomes whose lines are numbers in one graph's `lines`: each pair of
/// lines is compared once, not at every comparison of the sort (1,344 outcomes of ten lines:
/// 14,000 comparisons, each parsing its lines as numbers and comparing strings). The same
/// comparisons as `<`, so the same order.
struct OutcomeSortOrder {
    private let lines: [String]
    /// `precedes[x * count + y]`: line x before line y; empty for tables too large to keep.
    private let precedes: [Bool]

    /// Beyond this many distinct lines, pairs are compared as asked.
    static let tableLimit = 256

    init(lines: [String]) {
        self.lines = lines
        let count = lines.count
        precedes = count > Self.tableLimit ? [] : (0..<count * count).map { pair in
            pair / count != pair % count && Outcome.linePrecedes(lines[pair / count], lines[pair % count])
        }
    }

    /// Whether the outcome with these line numbers and ending comes before the other (`Outcome.<`).
    func precedes(_ a: [Int32], _ aEnd: End, _ b: [Int32], _ bEnd: End) -> Bool {
        if aEnd != bEnd { return aEnd == .finished }
        for (x, y) in zip(a, b) where x != y {
            if precedes.isEmpty { return Outcome.linePrecedes(lines[Int(x)], lines[Int(y)]) }
            return precedes[Int(x) * lines.count + Int(y)]
        }
        return a.count < b.count
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
    /// `setTarget(queue:)` on a queue that is active: libdispatch kills the process ("Cannot
    /// change the target of this object after it has been activated").
    case targetOfActiveQueue(thread: ThreadID, queue: QueueID, at: SourceSpan)
    /// `dispatchPrecondition` found the thread on the wrong queue: the process dies.
    case preconditionFailed(thread: ThreadID, kind: PreconditionKind, queue: QueueID, at: SourceSpan)
    /// Foundation's `fatalError` for misuse, such as adding an operation to a queue twice.
    case foundationCrash(thread: ThreadID, misuse: FoundationMisuse, at: SourceSpan)
    /// libdispatch's crash for a work item waited for twice, or run more than once and waited
    /// for or observed (`dispatch_block_wait`, `dispatch_block_notify` in queue.c).
    case workItemMisuse(thread: ThreadID, item: WorkItemID, misuse: WorkItemMisuse, at: SourceSpan)
    /// `signal()` on a semaphore whose count is already `Int.max`: libdispatch's counter wraps
    /// and it kills the process ("Unbalanced call to dispatch_semaphore_signal()").
    case unbalancedSignal(thread: ThreadID, semaphore: SemaphoreID, at: SourceSpan)
    /// `m.withLock` on the thread already inside `m.withLock`: the Mutex stops the process
    /// ("Fatal error: Recursive call to lock Mutex").
    case recursiveMutexLock(thread: ThreadID, semaphore: SemaphoreID, at: SourceSpan)
    /// Two threads touch one array (or a string too long to be stored inline) at once, one of
    /// them changing it: a data race on its copy-on-write buffer, which one may free or move
    /// while the other uses it, and the process may crash (measured with swiftc: three blocks
    /// appending to one array crashed with SIGSEGV in 2 of 600 runs). Listed as a way such a
    /// run can end, not a certainty.
    case memoryCorrupted(DataRace)
    /// The snippet's own code traps in Swift: an overflow, a division by zero, a bad range.
    case runtimeError(thread: ThreadID, error: RuntimeError, at: SourceSpan)
    /// The model cannot tell what the code does here: a bug in gcdquiz, said rather than guessed.
    case modelError(thread: ThreadID, message: String, at: SourceSpan)
}

/// One step of a schedule: which thread did what, running an item of which queue, as facts
/// keyed by ids; `Narrator.words(for:)` says it.
public struct ScheduleStep: Hashable, Sendable {
    public enum Event: Hashable, Sendable {
        case printed(String)
        /// `async` put the block at the end of the queue.
        case enqueued(queue: QueueID)
        /// `sync` asked for the queue and waits its turn.
        case waits(queue: QueueID)
        /// The queue handed an `async` item to this thread.
        case startsItem(queue: QueueID)
        /// Every thread of the queue's pool was busy, some blocked: libdispatch's monitor added
        /// this thread to the pool, and the queue handed it an `async` item.
        case startsItemOnAddedThread(queue: QueueID)
        /// The queue let this thread into the body of a `sync`.
        case entersSync(queue: QueueID)
        /// `asyncAndWait` found the queue free: the caller runs the block at once.
        case asyncAndWaitRunsHere(queue: QueueID)
        /// `asyncAndWait` found the queue busy: the block waits its turn, and the caller with it.
        case asyncAndWaitWaits(queue: QueueID)
        /// The queue's turn came for an `asyncAndWait` block: this thread, which drains the
        /// queue, runs it while the caller waits.
        case runsAsyncAndWait(queue: QueueID)
        /// libdispatch traps and the process dies: `sync` onto a queue this thread owns, an
        /// unbalanced leave or signal, a failed precondition.
        case traps(DeadlockReason)
        /// The first half of `x += 1`: the value is read and computed.
        case reads(variable: VariableID)
        /// A print's values are read (one of them a racing variable): the line, `text`, comes
        /// out at the thread's next step, whatever the variables hold by then.
        case readsForPrint(variable: VariableID, text: String)
        /// A variable gets a new value.
        case writes(variable: VariableID, value: Value)
        case loops
        case branches(Bool)
        /// `while`'s test: the condition holds (the body runs again) or not (the loop ends).
        case testsWhile(Bool)
        case groupEnter(group: GroupID)
        case groupLeave(group: GroupID)
        case groupWaitReturns(group: GroupID)
        case groupNotify(group: GroupID, queue: QueueID)
        case semaphoreWaitReturns(semaphore: SemaphoreID)
        case semaphoreSignal(semaphore: SemaphoreID)
        /// An `NSRecursiveLock`'s holder locks it again: it now holds it `depth` times.
        case lockTakenAgain(semaphore: SemaphoreID, depth: Int)
        /// An `NSRecursiveLock`'s holder unlocks it once and still holds it `depth` times.
        case lockStillHeld(semaphore: SemaphoreID, depth: Int)
        /// `unlock()` of an `NSRecursiveLock` by a thread that does not hold it: nothing changes.
        case unlockIgnored(semaphore: SemaphoreID)
        case schedules(queue: QueueID, microseconds: Int)
        case timerFires(queue: QueueID)
        /// `timer.schedule(deadline:repeating:)`: the deadline, this far from now.
        case timerScheduled(source: TimerSourceID, microseconds: Int, repeating: Int?)
        /// `setEventHandler` (or, `cancel`, `setCancelHandler`) on a timer source.
        case timerHandlerSet(source: TimerSourceID, cancel: Bool)
        /// `resume()` or `activate()`: the source starts.
        case timerActivated(source: TimerSourceID)
        /// `cancel()` (`again`: it was cancelled already, and nothing changes).
        case timerCancelled(source: TimerSourceID, again: Bool)
        /// The source's timer fires: its event handler joins the source's queue, which targets `queue`.
        case timerSourceFires(source: TimerSourceID, queue: QueueID)
        /// The timer fires while its event handler still waits from an earlier fire (or has
        /// none): the fires merge, and the handler runs once for them.
        case timerSourceMerges(source: TimerSourceID)
        /// An event handler that was waiting when its source was cancelled is not run.
        case timerHandlerSkipped(source: TimerSourceID)
        case clock(microseconds: Int)
        /// Time passes while blocks of these queues wait for a worker of an exhausted pool.
        case clockWhileWaitingForWorker(microseconds: Int, queues: [QueueID])
        case sleeps(microseconds: Int)
        case wakes
        case waitsWithTimeout(microseconds: Int)
        case waitEnds(timedOut: Bool)
        case activates(queue: QueueID)
        /// `setTarget(queue:)` or `setSpecific(key:value:)` on the queue.
        case setsQueue(queue: QueueID)
        /// A serial target takes a queue that targets it, woken with work, and drains it.
        case drainsTargetedQueue(QueueID, target: QueueID)
        /// `dispatchPrecondition` holds, or `MainActor.assumeIsolated` finds the main actor.
        case preconditionHolds(PreconditionKind)
        case performs(iterations: Int)
        /// The calling thread takes the next iteration of its concurrentPerform.
        case takesIteration(Int)
        /// A pool thread joins a concurrentPerform to take iterations (a thread the pool's monitor
        /// added, when every other one was busy).
        case helpsPerform(onAddedThread: Bool)
        /// A helper finds no iteration left and goes back to the pool.
        case leavesPerform
        case performReturns
        case workItemCancel(item: WorkItemID)
        case workItemWaitReturns(item: WorkItemID)
        /// `item.wait()` on an item that has not run yet: the thread blocks until it has.
        case workItemWaitStarts(item: WorkItemID)
        /// The monitor's first tick adds an idle thread to the pool (`Semantics.spareThreadPools`).
        case monitorAddsSpareThread(pool: QoSClass)
        /// `break` or `continue` leaves the loop's body.
        case exitsLoop(LoopExit)
        case workItemNotify(item: WorkItemID, queue: QueueID)
        case workItemPerform(item: WorkItemID)
        case workItemSkipped(item: WorkItemID)
        /// The process dies: Foundation's `fatalError`, or a Swift runtime error.
        case crashes(DeadlockReason)
        /// A function the snippet declares is called: its body runs next on this thread.
        case calls(function: String)
        /// `return`: the function or closure ends here, with its value if it has one.
        case returns(Value?)
        case operationCreated(operation: OperationID)
        case operationBlockAdded(operation: OperationID)
        case dependencyAdded(operation: OperationID, on: OperationID)
        case completionSet(operation: OperationID)
        case priorityChanged(operation: OperationID, priority: QueuePriority)
        case operationCancel(operation: OperationID)
        case operationWaitReturns(operation: OperationID)
        case operationsAdded(queue: OperationQueueID, operations: [OperationID])
        case operationLimit(queue: OperationQueueID, limit: Int?)
        case operationQueueSuspended(queue: OperationQueueID, Bool)
        case operationCancelAll(queue: OperationQueueID)
        case operationWaitAllReturns(queue: OperationQueueID)
        case operationsWaitReturns(queue: OperationQueueID, operations: [OperationID])
        /// The backing queue gives a thread to the operation (one the pool's monitor added, when
        /// every other one was busy): its first block starts.
        case startsOperation(operation: OperationID, onAddedThread: Bool)
        /// A cancelled operation's turn: it finishes without running.
        case operationSkipped(operation: OperationID)
        /// An operation with no blocks (`Operation()`) runs and finishes at once.
        case operationFinishes(operation: OperationID)
        /// `op.start()`: the operation starts on this thread.
        case operationStartedHere(operation: OperationID)
        /// `Task { }`, `Task.detached { }`, `async let`: a task is made (its index), its first
        /// job queued on the executor of its isolation.
        case spawnsTask(task: Int, kind: TaskSpawn.Kind, isolation: Isolation)
        /// `group.addTaskUnlessCancelled { }` on a cancelled group: no child is made.
        case addsNoChild
        /// An executor takes a task's job: the task runs (on from where it stopped).
        case runsTask(task: Int, isolation: Isolation)
        /// The global executor takes a task's job ahead of earlier ones of other priorities: the
        /// job's priority (`TaskPriority.rank`) has its own queue and threads, with room.
        case runsTaskAhead(task: Int, priority: Int)
        /// A pool thread takes a task's job to continue it, but the task belongs on the main actor
        /// or on a busy actor: the job goes there.
        case passesTask(task: Int, to: Isolation)
        /// `await Task.yield()`: the task gives up its executor; a job on the global executor continues it.
        case yields
        /// `Task.sleep`: the task gives up its executor until a timer fires.
        case sleepsTask(microseconds: Int)
        /// A `Task.sleep` timer fires: a job on the global executor continues the task.
        case taskWakes(task: Int)
        /// `await t.value` of a task that has not finished: the task gives up its executor.
        case awaitsTask(task: Int)
        /// `await t.value` of a finished task: its value, at once.
        case getsValue(task: Int)
        /// `AsyncStream { continuation in … }`: the build closure runs at once.
        case startsStream(StreamID)
        /// `continuation.yield(v)`: handed to the task waiting for it, which is woken, or
        /// buffered as the stream's policy allows, or dropped (see `StreamYieldFate`).
        case streamYields(StreamID, value: Value?, wakes: Int?, fate: StreamYieldFate)
        /// `continuation.finish()`: the waiting task, if any, is woken.
        case streamFinishes(StreamID, wakes: Int?)
        /// `continuation.finish(throwing: e)`: the waiting task, if any, is woken; nil `error`
        /// when the stream was finished already (the error is dropped).
        case streamFails(StreamID, error: ThrownError?, wakes: Int?)
        /// `for await`: the next buffered element.
        case takesElement(StreamID, value: Value?)
        /// `for await`: the stream is finished and empty; the loop ends.
        case streamEnds(StreamID)
        /// `for try await`: the stream was finished with an error and is empty; the loop throws it
        /// (once back on its executor).
        case streamThrows(StreamID, error: ThrownError)
        /// `for await`: nothing buffered yet; the task gives up its executor until a yield.
        case awaitsStream(StreamID)
        /// The block's closure has returned, and what waited for its end goes on: its group is
        /// left, its work item or operation done, its task finished. A step of its own after the
        /// last statement, since a thread that statement woke may act first.
        case blockReturns
        /// The task moves to an executor on the same thread (an idle actor, or off an actor).
        case switchesTo(Isolation)
        /// The task needs another executor it cannot take on this thread: it gives up the one it
        /// has and its job is queued there.
        case hopsTo(Isolation)
        /// Already on the executor the code needs: nothing happens.
        case staysOn(Isolation)
        /// `op.start()` returns: the operation has finished (or had, and nothing ran).
        case operationStartReturns(operation: OperationID)
        /// `withTaskGroup`: the group starts empty and its body runs in place.
        case startsTaskGroup(group: TaskGroupID)
        /// `for await`, `next()`: the group hands over a finished child's value.
        case takesChild(group: TaskGroupID, task: Int)
        /// `next()`, `for await`, `waitForAll()`, the end of `withTaskGroup`: no child runs.
        case groupDrained(group: TaskGroupID)
        /// `next()`, `for await`, `waitForAll()` with children running and none finished: the
        /// task gives up its executor until one finishes.
        case awaitsGroup(group: TaskGroupID)
        /// `t.cancel()`, `group.cancelAll()`: these tasks are cancelled (their children with them).
        case cancels(tasks: [Int])
        /// `Task.isCancelled` read.
        case readsCancelled(Bool)
        /// `withTaskCancellationHandler`: its onCancel block is registered with the task.
        case registersCancellationHandler
        /// The end of its operation: the onCancel block is removed.
        case removesCancellationHandler
        /// These already-cancelled tasks' onCancel block runs now, on this thread.
        case runsCancellationHandlers(tasks: [Int])
        /// `withValue(v) {`: the task (or thread) binds the task-local to `v`.
        case bindsTaskLocal(TaskLocalID, Value)
        /// The end of `withValue`'s body: its binding goes.
        case unbindsTaskLocal(TaskLocalID)
        /// A task-local read: the innermost binding, else the default.
        case readsTaskLocal(TaskLocalID, Value)
        /// An error is thrown (`throw`, `Task.checkCancellation()` or `Task.sleep` in a cancelled
        /// task, a callee's or a child's error thrown on), and where it goes.
        case throwsError(ThrownError, ErrorDisposition)
        /// `do {`, `try?`, `try!`: the body runs, its errors handled there.
        case entersDo(ErrorHandler.Kind)
        /// A point where an error could be thrown on (after a throwing call, a sleep): none was.
        case throwsNothing
        /// `withCheckedContinuation`: its body runs here, now.
        case startsContinuation(ContinuationID)
        /// `cont.resume`: the value is kept; the task waiting for it (if any) continues, its job
        /// queued on the executor it suspended on.
        case resumesContinuation(ContinuationID, wakes: Int?)
        /// `continuation?.resume()` of a variable that holds nil: nothing happens.
        case skipsNilResume
        /// The body has returned and nobody resumed the continuation yet: the task suspends.
        case awaitsContinuation(ContinuationID)
        /// The continuation was resumed: `withCheckedContinuation` returns its value.
        case continuationReturns(ContinuationID)
    }

    /// Where a thrown error goes.
    public enum ErrorDisposition: Hashable, Sendable {
        /// A `catch` clause of an enclosing `do` takes it.
        case caught
        /// An enclosing `try?` drops it.
        case dropped
        /// It leaves the scope of an `async let`: the child task is cancelled and awaited first.
        case leavesAsyncLetScope
        /// It leaves the function; the caller throws it on.
        case leavesFunction
        /// It leaves the body of a task group; the group's children are cancelled and awaited,
        /// then it is thrown on.
        case leavesTaskGroup
        /// It leaves the task's body: the task ends with the error (nothing prints it).
        case endsTask(task: Int)
    }

    /// What became of a yielded element (swiftlang/swift `AsyncStreamBuffer.swift`, `yield`).
    public enum StreamYieldFate: Hashable, Sendable {
        /// Handed to a waiting task, or kept in the buffer.
        case enqueued
        /// The stream is finished: the element is dropped (`.terminated`).
        case terminated
        /// The buffer is full (`bufferingOldest`, or a limit of 0): the new element is dropped.
        case droppedNew
        /// The buffer is full (`bufferingNewest`): its oldest element is dropped for the new one.
        case droppedOldest(Value?)
    }

    public var thread: ThreadID
    /// The queue whose item or `sync` body the thread is running, or nil for top-level code.
    public var queue: QueueID?
    public var event: Event
    public var span: SourceSpan?
}
