import ConcurrencyModel

/// The call a live thread blocks in, by the ids of what it waits for: the books keep it and a
/// stuck run reports it, and `LiveNarration` alone turns it into the Swift call the learner wrote.
/// Unlike the model's `ThreadWait`, it knows nothing of counts or deadlines: the real library
/// keeps those.
enum LiveWait: Hashable, Sendable {
    /// In `queue.sync`, for the queue to run its body.
    case sync(QueueID)
    /// In `group.wait()`.
    case group(GroupID)
    /// In `semaphore.wait()`.
    case semaphore(SemaphoreID)
    /// In `wait(timeout:)` on a group or semaphore.
    case timeout(Waitable)
    /// In `workItem.wait()`.
    case workItem(WorkItemID)
    /// In `operation.waitUntilFinished()`.
    case operation(OperationID)
    /// In `queue.waitUntilAllOperationsAreFinished()`.
    case allOperations(OperationQueueID)
    /// In `queue.addOperations(_:waitUntilFinished: true)`, for the operations it added.
    case addedOperations(OperationQueueID)
}
