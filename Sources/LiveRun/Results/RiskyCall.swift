import ConcurrencyModel

/// A call that stops the process when the snippet misuses it. The interpreter announces each one
/// with its place before making it, and clears it once it returned; a thread that dies inside an
/// announced call is the snippet's doing, named by the call, whatever libdispatch printed.
public enum RiskyCall: Hashable, Sendable {
    /// `queue.sync`: libdispatch traps when the thread already owns the (serial) queue.
    case sync(queue: String)
    /// `queue.asyncAndWait`: the same trap, with the same message.
    case asyncAndWait(queue: String)
    /// `group.leave()`: libdispatch traps when the group was not entered.
    case groupLeave(group: String)
    /// `dispatchPrecondition(condition:)`: libdispatch traps when the condition does not hold.
    case precondition(PreconditionKind, queue: String)
    /// Adding an operation to a queue: Foundation stops the process when it is already in one or
    /// has finished.
    case addOperation(operation: String, queue: String)
    /// `addExecutionBlock`: Foundation stops the process once the operation has started.
    case addExecutionBlock(operation: String)
    /// `op.start()`: Foundation stops the process when the operation is not ready, executing or
    /// in a queue.
    case startOperation(operation: String)
    /// `m.withLock`: a Mutex stops the process when the thread is already inside its withLock.
    case mutexWithLock(mutex: String)
    /// `queue.setTarget(queue:)`: libdispatch traps when the queue is active.
    case setTarget(queue: String)
    /// `item.wait()`, `item.notify(queue:)`, `item.perform()` or `q.async(execute: item)`, as
    /// written: libdispatch traps when the item is waited for twice, or run more than once and
    /// waited for or observed.
    case workItem(call: String)

    /// The call as the snippet writes it.
    public var call: String {
        switch self {
        case .sync(let queue): "\(queue).sync"
        case .asyncAndWait(let queue): "\(queue).asyncAndWait"
        case .groupLeave(let group): "\(group).leave()"
        case .precondition(let kind, let queue): "dispatchPrecondition(condition: .\(kind.rawValue)(\(queue)))"
        case .addOperation(let operation, let queue): "\(queue).addOperation(\(operation))"
        case .addExecutionBlock(let operation): "\(operation).addExecutionBlock"
        case .startOperation(let operation): "\(operation).start()"
        case .mutexWithLock(let mutex): "\(mutex).withLock"
        case .setTarget(let queue): "\(queue).setTarget(queue:)"
        case .workItem(let call): call
        }
    }

    /// Why the call stops the process, as libdispatch, Foundation or Swift says it.
    public var trapMessage: String {
        switch self {
        case .sync, .asyncAndWait: "dispatch_sync called on queue already owned by current thread"
        case .groupLeave: "Unbalanced call to dispatch_group_leave()"
        case .precondition(.onQueue, let queue): "Block was expected to execute on queue [\(queue)]"
        case .precondition(.notOnQueue, let queue): "Block was not expected to execute on queue [\(queue)]"
        case .precondition(.onQueueAsBarrier, let queue): "Block was expected to act as a barrier on queue [\(queue)]"
        case .precondition(.assumeIsolated, _): "MainActor.assumeIsolated off the main actor: the runtime's check of the main queue (dispatch_assert_queue) fails"
        case .precondition(.assertIsolated, _): "MainActor.assertIsolated off the main actor: the runtime's check of the main queue (dispatch_assert_queue) fails"
        case .precondition(.preconditionIsolated, _): "MainActor.preconditionIsolated off the main actor: the runtime's check of the main queue (dispatch_assert_queue) fails"
        case .addOperation: "operations finished, executing or already in a queue cannot be enqueued"
        case .addExecutionBlock: "blocks cannot be added after the operation has started executing or finished"
        case .startOperation: "an operation that is not ready, executing or in a queue cannot be started"
        case .mutexWithLock: "Recursive call to lock Mutex"
        case .setTarget: "Cannot change the target of this object after it has been activated"
        case .workItem: "A block object may not be waited for more than once, or both run more than once and waited for or observed"
        }
    }

    /// Who stops the process.
    var library: String {
        switch self {
        case .sync, .asyncAndWait, .groupLeave, .precondition, .setTarget, .workItem: "libdispatch"
        case .addOperation, .addExecutionBlock, .startOperation: "Foundation"
        case .mutexWithLock: "Swift's Synchronization module"
        }
    }

    // MARK: The wire

    var encoded: String {
        switch self {
        case .sync(let queue): "sync\t" + WorkerMessage.escape(queue)
        case .asyncAndWait(let queue): "asyncAndWait\t" + WorkerMessage.escape(queue)
        case .groupLeave(let group): "leave\t" + WorkerMessage.escape(group)
        case .precondition(let kind, let queue): "precondition\t\(kind.rawValue)\t" + WorkerMessage.escape(queue)
        case .addOperation(let operation, let queue): "add\t" + WorkerMessage.escape(operation) + "\t" + WorkerMessage.escape(queue)
        case .addExecutionBlock(let operation): "addBlock\t" + WorkerMessage.escape(operation)
        case .startOperation(let operation): "start\t" + WorkerMessage.escape(operation)
        case .mutexWithLock(let mutex): "withLock\t" + WorkerMessage.escape(mutex)
        case .setTarget(let queue): "setTarget\t" + WorkerMessage.escape(queue)
        case .workItem(let call): "workItem\t" + WorkerMessage.escape(call)
        }
    }

    init?(encoded: Substring) {
        let fields = encoded.split(separator: "\t", omittingEmptySubsequences: false).map { WorkerMessage.unescape($0) }
        switch (fields.first, fields.count) {
        case ("sync", 2): self = .sync(queue: fields[1])
        case ("asyncAndWait", 2): self = .asyncAndWait(queue: fields[1])
        case ("leave", 2): self = .groupLeave(group: fields[1])
        case ("precondition", 3):
            guard let kind = PreconditionKind(rawValue: fields[1]) else { return nil }
            self = .precondition(kind, queue: fields[2])
        case ("add", 3): self = .addOperation(operation: fields[1], queue: fields[2])
        case ("addBlock", 2): self = .addExecutionBlock(operation: fields[1])
        case ("start", 2): self = .startOperation(operation: fields[1])
        case ("withLock", 2): self = .mutexWithLock(mutex: fields[1])
        case ("setTarget", 2): self = .setTarget(queue: fields[1])
        case ("workItem", 2): self = .workItem(call: fields[1])
        default: return nil
        }
    }
}

/// A risky call where it was made.
public struct AnnouncedCall: Hashable, Sendable {
    public var call: RiskyCall
    public var line: Int
    public var column: Int

    public init(_ call: RiskyCall, line: Int, column: Int) {
        self.call = call
        self.line = line
        self.column = column
    }
}
