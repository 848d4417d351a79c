/// One reason an event cannot happen: the fact, and the model's rule it falls under (the
/// finding's category). `Narrator.words(for:)` says it.
public struct Blocker: Hashable, Sendable {
    public var rule: Rule
    public var reason: BlockerReason
    public var span: SourceSpan?
}

/// Why a timer source's event handler cannot run yet.
public enum TimerSourceHold: Hashable, Sendable {
    /// Never resumed or activated: its timer is not armed.
    case notResumed
    case cancelled
    /// Armed, due at this time (microseconds); the clock is at `now`.
    case notDue(due: Int, now: Int)
    /// No deadline scheduled, or a one-shot timer that has fired already.
    case notScheduled
}

/// What keeps a line (or an ending) from coming next, as facts keyed by ids and lines.
public indirect enum BlockerReason: Hashable, Sendable {
    /// Every submitted block has run: the run finishes.
    case everythingRan
    /// Nothing can run any more: what holds the run.
    case stuck([StuckFact])
    /// Work is still running; these prints can come next.
    case stillRunning(nextPrints: [NextPrint])
    /// No print in the snippet prints this line.
    case neverPrinted(String)
    /// Every print that prints this line has printed it already (at these lines).
    case alreadyPrinted(String, lines: [Int])
    /// The run is stuck before the line prints.
    case stuckBefore(String, [StuckFact])
    /// A thread waits at `line` before it can go on to line `before`.
    case waits(ThreadID, ThreadWait, line: Int, before: Int)
    /// The thread is at the very print at `line`, and prints something else there.
    case printsOtherValue(ThreadID, line: Int, printed: String, wanted: String, values: [VariableValue])
    /// The thread must first run the statement at `statement` (which prints `printed`, if a print).
    case mustFirstRun(ThreadID, statement: StatementLocation, printed: String?, before: Int)
    /// The thread is inside a concurrentPerform (at `performLine`, running `running`).
    case insidePerform(ThreadID, performLine: Int, running: Int, before: Int)
    /// The thread is inside a sync (at `syncLine`) whose block runs `running`.
    case insideSync(ThreadID, syncLine: Int, running: Int, before: Int)
    /// The thread must first finish the statement at `statement`; it is at line `at` (nil: in its block).
    case mustFirstFinish(ThreadID, statement: StatementLocation, at: Int?, before: Int)
    /// `line` comes after the thread's `queue.sync` at `syncLine`, which the queue holds back.
    case afterSync(ThreadID, queue: QueueID, syncLine: Int, line: Int, because: QueueHold)
    /// The block (starting at `blockLine`) waits in the queue, which holds it back.
    case waitsInQueue(QueueID, blockLine: Int?, because: QueueHold)
    /// The operation was cancelled before it started: its blocks never run.
    case operationCancelled(OperationID)
    /// The operation waits in its queue for these to finish.
    case operationWaitsForDependencies(OperationID, queue: OperationQueueID, unfinished: [OperationID])
    /// The operation queue is suspended.
    case operationQueueSuspended(OperationQueueID)
    /// The operation waits for a free slot: the queue runs `running` operations, its limit.
    case operationQueueFull(OperationID, queue: OperationQueueID, running: Int)
    /// `line` runs in an asyncAfter block due at `due`; the clock is at `now` (microseconds).
    case timerNotDue(line: Int, queue: QueueID, due: Int, now: Int)
    /// `line` runs in a timer source's event handler, which cannot run: the source was never
    /// resumed (or activated), is cancelled, or is not due until `due`.
    case timerSourceHeldBack(line: Int, TimerSourceID, TimerSourceHold)
    /// `line` runs in a group's notify block, held back while `remaining` blocks are in the group.
    case groupNotifyHeldBack(line: Int, GroupID, remaining: Int)
    /// `line` runs in a work item's notify block, held back until the item has run.
    case workItemNotifyHeldBack(line: Int, WorkItemID)
    /// `line` runs in the completionBlock of an operation that has not finished.
    case completionHeldBack(line: Int, OperationID)
    /// `line` is in a body the statement at `parent` owns, which has not run yet because of `because`.
    case notReached(line: Int, parent: StatementLocation, because: BlockerReason)
    /// The process dies before it: a trap or a crash.
    case processDies(DeadlockReason)
}

/// Why a queue does not let a waiting block (or sync) in now.
public enum QueueHold: Hashable, Sendable {
    /// The main queue waits for the main thread, busy at `line`.
    case mainThreadBusy(line: Int)
    /// Earlier items of the queue must start first; `last` is the one just ahead.
    case earlierItems(QueueID, count: Int, last: QueuedItem)
    /// A barrier runs on the queue, alone.
    case barrierRunning(QueueID)
    /// This barrier waits for the blocks running on the queue.
    case barrierWaits(QueueID, running: Int)
    /// A serial queue runs another block: `holder`, at its line, if known.
    case busy(QueueID, holder: ThreadAt?)
    /// The queue has not started it yet.
    case notStartedYet(QueueID)
    /// Every thread of the queue's worker pool runs a block (`cores` a machine has, `added` more
    /// the pool's monitor added); `blocked` of them wait, so the monitor may add one at its next
    /// tick; `ahead` items of the queue wait for a thread before this one.
    case poolBusy(QueueID, cores: Int, added: Int, blocked: Int, ahead: Int)
    /// The queue drains through a serial target that is busy: running a block of `running`
    /// (the target itself or another queue that targets it), or, when nil, with other items
    /// ahead of this queue.
    case targetBusy(QueueID, target: QueueID, running: QueueID?)
}

/// An item waiting in a queue, as a reason names it.
public enum QueuedItem: Hashable, Sendable {
    /// An async block starting at `line`.
    case block(line: Int?)
    /// A sync block starting at `line`, of this thread.
    case sync(line: Int?, ThreadID)
    case operation(OperationID)
    /// A queue that targets this one, waiting to be drained.
    case queue(QueueID)
}

/// A thread at a line.
public struct ThreadAt: Hashable, Sendable {
    public var thread: ThreadID
    public var line: Int
}

/// A print a running thread can take next: its values (nil where the model cannot tell them).
public struct NextPrint: Hashable, Sendable {
    public var values: [Value?]
    public var thread: ThreadID
}

/// A variable's value, as a thread sees it.
public struct VariableValue: Hashable, Sendable {
    public var variable: VariableID
    public var value: Value
}
