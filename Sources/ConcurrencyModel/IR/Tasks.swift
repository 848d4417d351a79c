/// Swift concurrency in the IR: tasks, the executors their code runs on, and the points where a
/// task may suspend. Executors are queues of `Program.queues`: the main actor is the main queue,
/// each actor instance a queue of kind `.actor`, and the global executor the one queue of kind
/// `.cooperative` (see the README's Swift-concurrency rules).

/// Where a piece of async code must run, as the compiler decides it for Swift 6.
public enum Isolation: Hashable, Sendable, Codable {
    /// Nonisolated: the global concurrent executor (the cooperative pool).
    case generic
    /// The main actor: the main queue, served by the main thread.
    case mainActor
    /// An actor instance's serial executor (a queue of kind `.actor`).
    case actor(QueueID)
}

/// A task's priority, as `TaskPriority` names them: higher runs first on an actor's queue.
public enum TaskPriority: String, Hashable, Sendable, Codable, CaseIterable {
    case background, low, utility, medium, userInitiated, high

    /// The runtime's numeric value (`TaskPriority.rawValue`): `.low` is `.utility`, `.high` is
    /// `.userInitiated`.
    public var rank: Int {
        switch self {
        case .background: 9
        case .low, .utility: 17
        case .medium: 21
        case .high, .userInitiated: 25
        }
    }
}

/// `Task { }`, `Task.detached { }`, `Task(priority:) { }`, or the child task of an `async let`.
public struct TaskSpawn: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// `Task { }`: inherits the isolation of its context and the creator's priority.
        case unstructured
        /// `Task.detached { }`: no isolation, no inherited priority.
        case detached
        /// `async let`: a child task started on the global executor at once.
        case asyncLet
        /// `group.addTask { }`: a child of the group (`TaskSpawn.group`), started on the global
        /// executor at once.
        case groupChild
    }

    public var kind: Kind
    public var body: BlockID
    /// Where the body starts running.
    public var isolation: Isolation
    /// Given with `priority:`; nil inherits (or, detached, is the default).
    public var priority: TaskPriority?
    /// The hidden variable that keeps the task (`let t = Task { }`, an `async let`), for `await`.
    public var handle: VariableID?
    /// The group of a `groupChild`.
    public var group: TaskGroupID?
    /// `group.addTaskUnlessCancelled { }`: the hidden Bool told whether the child was made; it is
    /// not when the group is cancelled (`cancelAll()`, or the task that runs the group cancelled).
    public var unlessCancelled: VariableID?

    public init(kind: Kind, body: BlockID, isolation: Isolation, priority: TaskPriority? = nil, handle: VariableID? = nil,
                group: TaskGroupID? = nil, unlessCancelled: VariableID? = nil) {
        self.group = group
        self.unlessCancelled = unlessCancelled
        self.kind = kind
        self.body = body
        self.isolation = isolation
        self.priority = priority
        self.handle = handle
    }
}

/// A point where a task gives up its thread (the `await`s that really suspend).
public enum Suspension: Hashable, Sendable, Codable {
    /// `await Task.yield()`: a job on the global executor continues the task.
    case yield
    /// `try? await Task.sleep(…)`: a timer on the global executor continues it.
    case sleep(Delay)
    /// `await t.value`, `await x` of an `async let`: continues once that task has finished (at
    /// once if it has), its value into `result`.
    case value(of: VariableID, result: VariableID?)
    /// A group's next finished child (see `GroupNext`).
    case groupNext(GroupNext)
    /// `await group.waitForAll()`, and the end of `withTaskGroup`: until no child runs.
    case groupWaitAll(TaskGroupID)
    /// The wait of `withCheckedContinuation` once its body has run: at once if it was resumed,
    /// else until a `resume`; the value into `result`.
    case continuation(ContinuationID, result: VariableID?)
    /// `for await v in stream` (see `StreamNext`).
    case streamNext(StreamNext)
}
