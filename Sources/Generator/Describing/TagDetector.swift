import ConcurrencyModel
import Quiz

/// A generated puzzle's tags: the topics of the taxonomy (`Topic.all`) its program exercises and
/// its exploration shows, so that `--tag`, the drill and the progress report find it like any
/// bank question.
enum TagDetector {
    /// The topics this detector decides; a variant keeps its source's other topics, which name
    /// code the changes leave alone.
    static let decided: Set<String> = [
        "serial-queues", "concurrent-queues", "sync-async", "main-queue", "deadlocks", "barriers", "groups",
        "semaphores", "work-items", "timing", "data-races", "qos", "operations", "concurrent-perform",
        "inactive-queues", "debugging", "locks", "tasks", "actors", "main-actor", "structured-concurrency",
    ]

    static func tags(program: Program, exploration: Exploration, source: [String] = []) -> [String] {
        let found = detected(program: program, exploration: exploration)
        return found + source.filter { !decided.contains($0) && !found.contains($0) }
    }

    private static func detected(program: Program, exploration: Exploration) -> [String] {
        var tags: [String] = []
        func add(_ tag: String) { if !tags.contains(tag) { tags.append(tag) } }
        func queue(_ id: QueueID) {
            add(topic(for: program[id].kind))
            if let qos = program[id].qos, qos != .default { add("qos") }
            if program[id].target != nil { add("target-queues") }
        }
        func isolation(_ isolation: Isolation) {
            switch isolation {
            case .generic: break
            case .mainActor: add("main-actor")
            case .actor: add("actors")
            }
        }
        program.walk { statement, _ in
            switch statement.action {
            case .dispatch(let id, _, _, let options):
                queue(id)
                add("sync-async")
                if options.barrier { add("barriers") }
                if options.group != nil { add("groups") }
            case .dispatchAfter(let id, _, _):
                queue(id)
                add("timing")
            case .group(_, .notify(let id, _)):
                add("groups")
                queue(id)
            case .group: add("groups")
            case .semaphore(let id, _): add(program.semaphores[id.index].isLock ? "locks" : "semaphores")
            case .sleep, .timedWait: add("timing")
            case .workItem: add("work-items")
            case .concurrentPerform: add("concurrent-perform")
            case .activate: add("inactive-queues")
            case .queueSetting: add("target-queues")
            case .operation, .operationQueue: add("operations")
            case .precondition: add("debugging")
            case .suspend(.sleep): add("timing")
            case .spawn(let spawn):
                add(spawn.kind == .asyncLet || spawn.kind == .groupChild ? "structured-concurrency" : "tasks")
                isolation(spawn.isolation)
            case .suspend: add("tasks")
            case .hop(let target): isolation(target)
            case .withTaskGroup: add("structured-concurrency")
            case .cancellation: add("cancellation")
            case .taskLocal: add("tasks")
            case .continuation: add("continuations")
            case .stream: add("async-sequences")
            case .timer(let source, _):
                add("dispatch-sources")
                add("timing")
                queue(program.timerSources[source.index].target)
            case .assign, .loop, .whileLoop, .branch, .call, .print, .returns, .exitLoop, .throwing, .handles: break
            }
        }
        if exploration.outcomes.contains(where: { $0.end == .deadlock }) { add("deadlocks") }
        if !exploration.races.isEmpty { add("data-races") }
        return tags
    }

    private static func topic(for kind: QueueKind) -> String {
        switch kind {
        case .main: "main-queue"
        case .serial: "serial-queues"
        case .concurrent, .global, .cooperative: "concurrent-queues"
        case .actor: "actors"
        }
    }
}
