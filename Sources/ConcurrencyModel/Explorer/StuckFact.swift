/// One thing that keeps a stuck run from moving: a thread's wait that never ends, or work that
/// never starts. `Semantics.stuckFacts(in:)` lists them; the narrator words them.
public enum StuckFact: Hashable, Sendable {
    /// A thread waits, at `line`, for something that never comes. `heldBy`: for a `sync`, the
    /// threads that hold the queue it waits for.
    case waits(ThreadID, ThreadWait, line: Int, heldBy: [ThreadID])
    /// An operation never starts: its OperationQueue is suspended.
    case operationInSuspendedQueue(OperationID, queue: OperationQueueID)
    /// An operation never starts: it depends on these, which never finish.
    case operationDependsOnUnfinished(OperationID, unfinished: [OperationID])
    /// A `concurrentPerform` (at `line`, if its caller is known) has iterations no thread takes.
    case iterationsNobodyTakes(line: Int?, left: Int)
    /// A work item's notify block never runs: the item never runs.
    case workItemNotifyNeverRuns(WorkItemID)
    /// A group's notify block never runs: `remaining` blocks never leave the group.
    case groupNotifyNeverRuns(GroupID, remaining: Int)
    /// The main queue has items, but the main thread never gets idle to serve them.
    case mainQueueBlocked(QueueID, pending: Int)
    /// A queue has items that never start.
    case itemsWaiting(QueueID, pending: Int)
    /// A task suspended at `line` that nothing will ever resume.
    case taskWaits(task: Int, TaskWait, line: Int)
}

/// What a suspended task waits for.
public enum TaskWait: Hashable, Sendable {
    /// The resume of a continuation.
    case continuation(ContinuationID)
    /// Another task's value (`await t.value`, an async let).
    case taskValue(Int)
    /// A child of a group to finish.
    case group(TaskGroupID)
    /// An AsyncStream's next element, or its finish.
    case stream(StreamID)
}

/// Something Foundation refuses by killing the process (`fatalError`).
public enum FoundationMisuse: Hashable, Sendable {
    /// `addExecutionBlock` once the operation executes or has finished.
    case blockAddedAfterStart
    /// Adding an operation that is finished, executing or already in a queue.
    case operationEnqueuedTwice
    /// `start()` on an operation whose dependencies have not finished.
    case startedNotReady
    /// `start()` on an operation that is in a queue or already executing.
    case startedTwice
}

/// What libdispatch refuses to do with a `DispatchWorkItem`, each a crash with its own message.
public enum WorkItemMisuse: Hashable, Sendable {
    /// A second `wait()` ("A block object may not be waited for more than once").
    case waitedTwice
    /// `wait()` on an item that ran more than once or also waits in a queue after `perform()`,
    /// or a run after a `wait()` returned ("A block object may not be both run more than once
    /// and waited for").
    case runMoreThanOnceAndWaited
    /// `notify` on an item that ran more than once ("A block object may not be both run more
    /// than once and observed").
    case runMoreThanOnceAndObserved
}
