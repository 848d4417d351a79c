import ConcurrencyModel

/// What makes a trace puzzle hard, measured on its program and its exploration: the level and
/// the tags of a generated puzzle are computed from these, never guessed.
public struct PuzzleFeatures: Hashable, Sendable {
    public var outcomes: Int
    /// The most threads one schedule uses (the main thread and workers).
    public var threads: Int
    /// The deepest nesting of blocks submitted from blocks (a dispatch inside a dispatch: 2).
    public var nesting: Int
    public var prints: Int
    /// Some schedule ends in a deadlock (a trap, or work that can never run).
    public var deadlocks: Bool
    /// Some schedule ends in libdispatch's trap.
    public var traps: Bool
    public var races: Bool
    /// Distinct queues the code dispatches onto.
    public var queues: Int
    /// The constructs beyond plain sync and async the puzzle uses, by tag name.
    public var constructs: Set<String>

    public init(program: Program, exploration: Exploration) {
        outcomes = exploration.outcomes.count
        threads = exploration.reports.map { Set($0.witness.map(\.thread)).count }.max() ?? 1
        deadlocks = exploration.outcomes.contains { $0.end == .deadlock }
        traps = exploration.reports.contains { if case .trap? = $0.deadlock { true } else { false } }
        races = !exploration.races.isEmpty
        var prints = 0
        var queues: Set<QueueID> = []
        var constructs: Set<String> = []
        // A queue that drains through another is a construct of its own (target queues).
        if program.queues.contains(where: { $0.target != nil }) { constructs.insert("target") }
        program.walk { statement, _ in
            switch statement.action {
            case .print: prints += 1
            case .dispatch(let queue, _, _, let options):
                queues.insert(queue)
                if options.barrier { constructs.insert("barrier") }
                if options.group != nil { constructs.insert("group") }
            case .group: constructs.insert("group")
            case .semaphore: constructs.insert("semaphore")
            case .dispatchAfter(let queue, _, _):
                queues.insert(queue)
                constructs.insert("timing")
            case .sleep, .timedWait: constructs.insert("timing")
            case .workItem: constructs.insert("work-item")
            case .concurrentPerform: constructs.insert("concurrent-perform")
            case .operation, .operationQueue: constructs.insert("operation")
            case .activate: constructs.insert("inactive")
            case .queueSetting(_, .target): constructs.insert("target")
            case .queueSetting(_, .specific): constructs.insert("specific-key")
            case .spawn, .withTaskGroup, .cancellation, .taskLocal, .continuation: constructs.insert("task")
            case .stream: constructs.insert("stream")
            case .timer: constructs.insert("timer-source")
            case .suspend(.sleep): constructs.insert("timing")
            case .throwing, .handles: constructs.insert("error")
            case .precondition, .assign, .loop, .whileLoop, .branch, .call, .returns, .exitLoop, .suspend, .hop: break
            }
        }
        self.prints = prints
        self.queues = queues.count
        self.constructs = constructs
        nesting = Self.nesting(of: program.entry, in: program)
    }

    /// How deep blocks that run elsewhere (on a queue, as an operation, after a timer) nest.
    private static func nesting(of block: BlockID, in program: Program, seen: Set<Int> = []) -> Int {
        guard !seen.contains(block.index) else { return 0 }
        let seen = seen.union([block.index])
        var deepest = 0
        for statement in program[block].statements {
            var submitted: [BlockID] = []
            var inline: [BlockID] = []
            switch statement.action {
            case .dispatch(_, _, let body, _), .dispatchAfter(_, _, let body), .group(_, .notify(_, let body)),
                .workItem(_, .notify(_, let body)), .operation(_, .addBlock(let body)), .operation(_, .setCompletion(let body)),
                .timer(_, .setEventHandler(let body)), .timer(_, .setCancelHandler(let body)):
                submitted = [body]
            case .concurrentPerform(let perform):
                submitted = [perform.body]
            case .spawn(let spawn):
                submitted = [spawn.body]
            case .operation(let operation, .create), .operationQueue(_, .addBlock(let operation)):
                submitted = program[operation].blocks
            case .loop(let loop):
                inline = [loop.body]
            case .whileLoop(let loop):
                inline = loop.entersUntested ? [] : [loop.body]
            case .branch(_, let then, let otherwise):
                inline = [then] + (otherwise.map { [$0] } ?? [])
            case .call(let call):
                inline = [call.body]
            case .withTaskGroup(let run):
                inline = [run.body]
            case .handles(let handler):
                inline = [handler.body] + handler.clauses.map(\.body)
            case .continuation(_, .start(let body)), .stream(_, .start(let body)):
                inline = [body]
            case .suspend(.groupNext(let next)):
                inline = next.body.map { [$0] } ?? []
            case .suspend(.streamNext(let next)):
                inline = [next.body]
            case .print, .assign, .group, .semaphore, .sleep, .timedWait, .activate, .queueSetting, .precondition, .workItem,
                .operation, .operationQueue, .returns, .exitLoop, .suspend, .hop, .cancellation, .taskLocal, .continuation(_, .resume), .continuation(_, .resumeHeld),
                .stream(_, .yield), .stream(_, .finish), .stream(_, .fail), .timer(_, .schedule), .timer(_, .activate), .timer(_, .cancel), .throwing:
                // Runs no body that nests here.
                break
            }
            for body in submitted { deepest = max(deepest, 1 + nesting(of: body, in: program, seen: seen)) }
            for body in inline { deepest = max(deepest, nesting(of: body, in: program, seen: seen)) }
        }
        return deepest
    }
}
