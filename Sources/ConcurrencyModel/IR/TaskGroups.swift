/// Task groups in the IR: `withTaskGroup` / `withThrowingTaskGroup`, their children and the ways
/// a group's body takes their results (see the README's Swift-concurrency rules).

public struct TaskGroupID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "tg\(index)" }
}

/// One `withTaskGroup` in the source: a call made again (in a loop, a function called twice)
/// starts the group afresh.
public struct TaskGroupDecl: Hashable, Sendable, Codable {
    /// The body's parameter (`group`), as witnesses name it.
    public var name: String
    public var span: SourceSpan
    /// `withThrowingTaskGroup`.
    public var throwing: Bool
    /// `withDiscardingTaskGroup` / `withThrowingDiscardingTaskGroup` (SE-0381): children's
    /// results are dropped as they end (no `next()`); in the throwing one, the first child error
    /// cancels the group and is thrown where the group ends.
    public var discarding: Bool

    public init(name: String, span: SourceSpan, throwing: Bool, discarding: Bool = false) {
        self.name = name
        self.span = span
        self.throwing = throwing
        self.discarding = discarding
    }

    /// The function the snippet calls.
    public var functionName: String {
        switch (throwing, discarding) {
        case (false, false): "withTaskGroup"
        case (true, false): "withThrowingTaskGroup"
        case (false, true): "withDiscardingTaskGroup"
        case (true, true): "withThrowingDiscardingTaskGroup"
        }
    }
}

/// `await withTaskGroup(of: T.self) { group in body }`: the body runs in place, in the calling
/// task (its `return` gives the call's value to `result`); the statement after it waits for
/// every child (`Suspension.groupWaitAll`), as the group does before it returns.
public struct TaskGroupRun: Hashable, Sendable, Codable {
    public var group: TaskGroupID
    public var body: BlockID
    public var result: VariableID?

    public init(group: TaskGroupID, body: BlockID, result: VariableID?) {
        self.group = group
        self.body = body
        self.result = result
    }
}

/// A wait for a group's next finished child: `for await v in group { body }` (`loops`),
/// `if let v = await group.next() { body }`, `await group.next()`. Children give their values in
/// the order they finish; once none is left running the wait ends (the loop, or no value).
public struct GroupNext: Hashable, Sendable, Codable {
    public var group: TaskGroupID
    /// Receives the child's value (nil: a `Void` group, or `_`).
    public var result: VariableID?
    public var body: BlockID?
    public var loops: Bool

    public init(group: TaskGroupID, result: VariableID?, body: BlockID?, loops: Bool) {
        self.group = group
        self.result = result
        self.body = body
        self.loops = loops
    }
}

/// Cancellation: a flag on a task that its code reads (`Task.isCancelled`), that wakes its
/// `Task.sleep` early, and that its children (async lets, a group's) share.
public enum CancellationAction: Hashable, Sendable, Codable {
    /// `t.cancel()`: the task kept in this hidden variable, and its children.
    case cancelTask(VariableID)
    /// `group.cancelAll()`: every child of the group, and the children it gets later.
    case cancelGroup(TaskGroupID)
    /// `Task.isCancelled`, read into this hidden variable before the statement that uses it.
    case read(into: VariableID)
    /// `try Task.checkCancellation()` in a task's body: a cancelled task throws
    /// CancellationError there, which ends the task (its value is the error).
    case check
    /// The start of `withTaskCancellationHandler`: the onCancel block is registered with the
    /// running task, and runs at once, on this thread, if the task is already cancelled.
    case addHandler(BlockID)
    /// The end of its operation: the handler registered last is removed.
    case removeHandler
}
