/// One topic of the bank's short taxonomy. A question's `tags` name topics from this list and no
/// others, so that a learner's progress, `--tag` and the report group questions the same way.
public struct Topic: Hashable, Sendable {
    /// The name written in `tags:` and given to `--tag`.
    public var name: String
    /// One line saying what the topic covers (`gcdquiz tags`, the README): at most 53 characters,
    /// so that `gcdquiz tags` shows each topic on one line of 80 columns.
    public var covers: String
    /// Tags the bank used before the taxonomy, and words a learner is likely to type, that mean
    /// this topic: `--tag race` suggests `data-races`.
    public var aliases: [String]

    public init(_ name: String, covers: String, aliases: [String] = []) {
        self.name = name
        self.covers = covers
        self.aliases = aliases
    }
}

extension Topic {
    /// The taxonomy, in the order a course meets the topics. The README's topic table says the same.
    public static let all: [Topic] = [
        Topic("serial-queues", covers: "serial queues: one block at a time, in FIFO order",
              aliases: ["serial", "fifo", "label", "serial-queue", "queue", "queues"]),
        Topic("concurrent-queues", covers: "concurrent and global queues, the thread pool",
              aliases: ["concurrent", "concurrent-queue", "global", "global-queue", "thread-pool", "performance"]),
        Topic("sync-async", covers: "sync versus async: who waits, which thread runs it",
              aliases: ["sync", "async", "thread", "ordering", "dispatch"]),
        Topic("main-queue", covers: "the main queue and main thread; UI work, playgrounds",
              aliases: ["main", "main-thread", "ui", "playground"]),
        Topic("deadlocks", covers: "waits that never end: sync on an owned queue, cycles",
              aliases: ["deadlock", "hang", "lock-ordering"]),
        Topic("barriers", covers: "barrier blocks on concurrent queues; readers-writer",
              aliases: ["barrier", "reader-writer"]),
        Topic("groups", covers: "DispatchGroup: enter and leave, wait, notify",
              aliases: ["group", "dispatch-group"]),
        Topic("semaphores", covers: "DispatchSemaphore: wait and signal, as lock or limit",
              aliases: ["semaphore", "dispatch-semaphore"]),
        Topic("work-items", covers: "DispatchWorkItem: perform, notify, wait, cancel",
              aliases: ["work-item", "workitem", "notify", "cancel"]),
        Topic("timing", covers: "asyncAfter, sleep, timeouts: the order time imposes",
              aliases: ["time", "asyncafter", "sleep", "timeout"]),
        Topic("data-races", covers: "data races, race conditions, lost updates, atomicity",
              aliases: ["race", "races", "race-condition", "data-race", "atomicity", "tsan"]),
        Topic("locks", covers: "NSLock, NSRecursiveLock, Mutex: mutual exclusion",
              aliases: ["lock", "nslock", "mutex", "recursive-lock", "nsrecursivelock", "os-unfair-lock", "unfair-lock"]),
        Topic("qos", covers: "quality of service, priorities, priority inversion",
              aliases: ["priority", "priorities", "priority-inversion", "quality-of-service"]),
        Topic("operations", covers: "OperationQueue: dependencies, limits, cancellation",
              aliases: ["operation", "operation-queue", "operationqueue", "dependency", "dependencies", "max-concurrent",
                        "suspend", "completion-block", "wait", "underlying-queue"]),
        Topic("async-operations", covers: "asynchronous Operation subclasses: start, state, KVO",
              aliases: ["async-operation", "asynchronous-operation", "kvo"]),
        Topic("concurrent-perform", covers: "concurrentPerform: parallel loops, what they share",
              aliases: ["concurrentperform", "parallel", "apply"]),
        Topic("inactive-queues", covers: "queues created inactive, and activating them",
              aliases: ["inactive", "initially-inactive", "activate"]),
        Topic("target-queues", covers: "target queues: setTarget, queue hierarchies",
              aliases: ["target", "target-queue", "settarget", "hierarchy"]),
        Topic("dispatch-sources", covers: "dispatch sources: timers, events, cancel handlers",
              aliases: ["dispatch-source", "source", "sources", "timer", "timers", "dispatchsourcetimer"]),
        Topic("debugging", covers: "dispatchPrecondition, Thread Sanitizer, reading hangs",
              aliases: ["debug", "dispatch-precondition", "sanitizer", "crash", "crash-log", "specific-key", "dispatchspecifickey"]),
        // Swift concurrency: async/await, tasks, actors and the checks of Swift 6.
        Topic("tasks", covers: "async/await, Task and Task.detached, priorities",
              aliases: ["task", "async-await", "await", "detached", "task-local", "task-locals", "immediate"]),
        Topic("structured-concurrency", covers: "async let, task groups: child tasks and scopes",
              aliases: ["structured", "async-let", "task-group", "taskgroup", "task-groups", "child-task", "child-tasks"]),
        Topic("actors", covers: "actors: isolated state, reentrancy at each await",
              aliases: ["actor", "reentrancy", "reentrant"]),
        Topic("main-actor", covers: "@MainActor, global actors, MainActor.run",
              aliases: ["mainactor", "global-actor", "global-actors", "main-actor-run"]),
        Topic("isolation", covers: "isolation domains, nonisolated, Swift 6.2 defaults",
              aliases: ["nonisolated", "isolated", "nonsending", "nonisolated-nonsending", "concurrent-attribute",
                        "default-isolation", "executor", "executors"]),
        Topic("sendable", covers: "Sendable, sending, Swift 6 data-race checking",
              aliases: ["sending", "strict-concurrency", "swift-6", "swift6", "data-race-safety"]),
        Topic("cancellation", covers: "cooperative cancellation of tasks and groups",
              aliases: ["cancelled", "task-cancellation", "cancellation-handler", "iscancelled"]),
        Topic("continuations", covers: "continuations: callbacks to async, resume once",
              aliases: ["continuation", "checked-continuation", "withcheckedcontinuation", "migration", "completion-handler"]),
        Topic("async-sequences", covers: "AsyncSequence, AsyncStream, for await",
              aliases: ["async-sequence", "asyncsequence", "async-stream", "asyncstream", "for-await", "stream"]),
    ]

    /// The topics about Swift concurrency (async/await, tasks, actors), as opposed to GCD and
    /// OperationQueue: a sheet's default title says which of the two its questions are about.
    public static let swiftConcurrency: Set<String> = [
        "tasks", "structured-concurrency", "actors", "main-actor", "isolation", "sendable", "cancellation",
        "continuations", "async-sequences",
    ]

    /// The topic called `name`, if the taxonomy has one.
    public static func named(_ name: String) -> Topic? {
        all.first { $0.name == name }
    }

    /// The topics a learner most likely meant by `word`, best first: the topic it is an alias of,
    /// then topics whose name is a few edits away or contains it. Empty when nothing is close.
    public static func suggestions(for word: String) -> [Topic] {
        let typed = word.lowercased()
        if let exact = named(typed) { return [exact] }
        var scored: [(topic: Topic, distance: Int)] = []
        for topic in all {
            let names = [topic.name] + topic.aliases
            if names.contains(typed) {
                scored.append((topic, 0))
                continue
            }
            let distance = names.map { editDistance(typed, $0) }.min()!
            let allowed = max(2, typed.count / 3)
            if distance <= allowed || (typed.count >= 4 && topic.name.contains(typed)) {
                scored.append((topic, distance == 0 ? 1 : distance))
            }
        }
        return scored.sorted { ($0.distance, $0.topic.name) < ($1.distance, $1.topic.name) }.prefix(3).map(\.topic)
    }

    /// "no topic 'x'" with the nearest topics, or the whole list when none is near: the message
    /// every command gives for a tag outside the taxonomy.
    public static func unknownMessage(_ word: String) -> String {
        let near = suggestions(for: word)
        if near.isEmpty {
            return "no topic '\(word)'; the topics are: " + all.map(\.name).joined(separator: ", ")
        }
        return "no topic '\(word)'; did you mean " + near.map { "'\($0.name)'" }.joined(separator: " or ") + "? ('gcdquiz tags' lists them all)"
    }

    /// Levenshtein distance, for suggestions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
