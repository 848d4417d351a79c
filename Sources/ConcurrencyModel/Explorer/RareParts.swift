/// The parts of a `MachineState` that most steps leave alone: groups, semaphores and locks, work
/// items, operations, pools, task groups, continuations, streams and queue-specific values. A
/// state keeps them in one shared box (`Box`), so that copying a state for each move retains one
/// reference instead of thirteen arrays, and hashing or comparing two states whose boxes are one,
/// or whose kept hashes differ, never looks inside.
struct RareParts: Hashable {
    var groups: [GroupState]
    var semaphores: [Int]
    var lockHolders: [LockHolder?]
    var inactive: [Bool]
    var workItems: [WorkItemState]
    var operations: [OperationState]
    var operationQueues: [OperationQueueState]
    var pools: [PoolState] = []
    var monitorStarted: Int?
    var mainThreadLeft = false
    var taskGroups: [TaskGroupState]
    var continuations: [ContinuationState]
    var streams: [StreamState]
    let drainTargets: [QueueID?]
    var specifics: [[VariableID: Value]]
    var timerSources: [TimerSourceState]
    /// Tasks of one origin may trade numbers (`MachineState+TaskSymmetry.swift`): the program
    /// cancels no task, so no rule depends on the order of tasks' numbers.
    let tasksInterchangeable: Bool

    /// The parts with their hash, copied on write by `MachineState` (which changes a box only
    /// while no other state holds it, and then hashes it again at once: a box that states share
    /// never changes, so reading it from several threads is safe).
    final class Box: Hashable, @unchecked Sendable {
        var parts: RareParts
        private(set) var hash: Int

        init(_ parts: RareParts) {
            self.parts = parts
            hash = parts.hashValue
        }

        /// Called after each change of `parts`.
        func rehash() { hash = parts.hashValue }

        static func == (a: Box, b: Box) -> Bool { a === b || (a.hash == b.hash && a.parts == b.parts) }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }
}
