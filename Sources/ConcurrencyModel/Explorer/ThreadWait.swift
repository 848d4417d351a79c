/// What a thread waits for before it can take its next step. One answer, computed by
/// `Semantics.wait(of:in:)`, that the search (is the thread runnable?), deadlock reasons and
/// why-not sentences all use; the narrator words it.
public enum ThreadWait: Hashable, Sendable {
    /// In `sync`, for the queue to let it in.
    case syncTurn(QueueID)
    /// In `group.wait()`, for the blocks still in the group to leave it.
    case group(GroupID, remaining: Int)
    /// In `semaphore.wait()`, for a `signal()`: the count is 0.
    case semaphore(SemaphoreID)
    /// In `sleep`, until a time on the logical clock (microseconds).
    case sleep(until: Int)
    /// In `wait(timeout:)`, for the group or semaphore, or the deadline (microseconds).
    case timeout(Waitable, deadline: Int)
    /// In `workItem.wait()`, for the item to have run.
    case workItem(WorkItemID)
    /// Inside `concurrentPerform` with nothing left to take, for the iterations other threads run.
    case iterations
    /// In `operation.waitUntilFinished()`.
    case operation(OperationID)
    /// In `operation.start()`, for its blocks running on other threads to end (Apple's
    /// BlockOperation runs its further blocks side by side).
    case operationStart(OperationID)
    /// In `waitUntilAllOperationsAreFinished()`.
    case allOperations(OperationQueueID)
    /// In `addOperations(_:waitUntilFinished: true)`, for the operations it added.
    case addedOperations(OperationQueueID)
    /// At a `while` test whose every iteration changes nothing (`Semantics.spinning`): the thread
    /// spins, holding what it holds, until something else changes what the test reads.
    case spins
    /// Where a task removes a cancellation record (the end of `withTaskCancellationHandler`'s
    /// operation, a cancelled `Task.sleep` returning), for the thread running its onCancel
    /// handlers (`holder`) to finish them: that thread holds the task's status-record lock.
    case statusRecordLock(task: Int, holder: Int)
}
