import ConcurrencyModel

/// One thing that holds a stuck live run, by ids: what `StuckAnalysis` finds in the books and
/// `LiveNarration` words for the learner.
enum LiveHold: Equatable {
    /// A thread (the main one or not) blocked in `wait` at `line`.
    case wait(LiveWait, line: Int, onMainThread: Bool)
    /// A block submitted at `line` that cannot start.
    case block(line: Int, heldBy: LiveHolder)
    /// An operation added at `line` that cannot start.
    case operation(OperationID, line: Int, heldBy: LiveHolder)
    /// A group's notify block (registered at `line`) waits for the group to empty.
    case groupNotify(GroupID, line: Int)
    /// A work item's notify block (registered at `line`) waits for the item to run.
    case workItemNotify(WorkItemID, line: Int)
}

/// Why a pending block or an added operation cannot start, whatever the thread pool does.
enum LiveHolder: Equatable {
    /// It runs on the main thread, which is blocked in a wait.
    case blockedMainThread
    /// Its queue was created inactive and never activated.
    case inactiveQueue(QueueID)
    /// Its serial queue runs a block that cannot finish.
    case busySerialQueue(QueueID)
    /// Its serial queue has an earlier block that has not started.
    case blockAhead(QueueID)
    /// It is a barrier, and its concurrent queue runs blocks that cannot finish.
    case runningBlocks(QueueID)
    /// Its concurrent queue runs a barrier that cannot finish.
    case runningBarrier(QueueID)
    /// Its concurrent queue has an earlier barrier (or it is a barrier behind earlier blocks).
    case barrierAhead(QueueID)
    /// Its OperationQueue is suspended.
    case suspendedOperationQueue
    /// It depends on an operation that never finishes.
    case unfinishedDependency
    /// Its OperationQueue already executes `maxConcurrentOperationCount` operations.
    case noFreeSlot(limit: Int)
}
