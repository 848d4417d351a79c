import DispatchModel

/// A generated puzzle's tags, from what its program does and what its exploration found, in the
/// bank's vocabulary (`gcdquiz tags`), so that `--tag` and the drill's topics find it.
enum TagDetector {
    /// The tags this detector decides; a variant keeps its source's other tags (operation-queue,
    /// dependency, priority, …), which name code the changes leave alone.
    static let vocabulary: Set<String> = [
        "serial", "concurrent", "main-queue", "sync", "async", "barrier", "group", "semaphore", "timing",
        "work-item", "concurrent-perform", "inactive", "operation", "deadlock", "race",
    ]

    static func tags(program: Program, exploration: Exploration, source: [String] = []) -> [String] {
        detected(program: program, exploration: exploration)
            + source.filter { !vocabulary.contains($0) }
    }

    private static func detected(program: Program, exploration: Exploration) -> [String] {
        var tags: [String] = []
        func add(_ tag: String) { if !tags.contains(tag) { tags.append(tag) } }
        for block in program.blocks {
            for statement in block.statements {
                switch statement.action {
                case .dispatch(let queue, let mode, _, let options):
                    add(tag(for: program[queue].kind))
                    add(mode.rawValue)
                    if options.barrier { add("barrier") }
                    if options.group != nil { add("group") }
                case .dispatchAfter(let queue, _, _):
                    add(tag(for: program[queue].kind))
                    add("async")
                    add("timing")
                case .group(_, .notify(let queue, _)):
                    add("group")
                    add(tag(for: program[queue].kind))
                case .group: add("group")
                case .semaphore: add("semaphore")
                case .sleep, .timedWait: add("timing")
                case .workItem: add("work-item")
                case .concurrentPerform: add("concurrent-perform")
                case .activate: add("inactive")
                case .operation, .operationQueue: add("operation")
                case .precondition, .assign, .loop, .branch, .call, .print: break
                }
            }
        }
        if exploration.outcomes.contains(where: { $0.end == .deadlock }) { add("deadlock") }
        if !exploration.races.isEmpty { add("race") }
        return tags
    }

    private static func tag(for kind: QueueKind) -> String {
        switch kind {
        case .main: "main-queue"
        case .serial: "serial"
        case .concurrent, .global: "concurrent"
        }
    }
}
