/// Answers "can this outcome happen?" with a schedule that produces it, or with why none does:
/// the longest prefix some schedule prints, what could come next there, and the rule that keeps
/// the predicted next line (or ending) from coming.
public struct Explainer: Sendable {
    public let exploration: Exploration
    /// How many states at the end of the prefix the analysis may look at for reasons.
    public var stateBudget = 200_000

    public init(exploration: Exploration) {
        self.exploration = exploration
    }

    public func explain(_ outcome: Outcome) -> Explanation {
        if let report = exploration.report(for: outcome) {
            return .possible(report)
        }
        let prefix = longestPossiblePrefix(of: outcome.lines)
        let wanted: NextEvent = prefix.count < outcome.lines.count ? .line(outcome.lines[prefix.count]) : .end(outcome.end)
        let next = nextEvents(after: prefix)
        let (blockers, witness) = blockersAfter(prefix, wanted: wanted)
        return .impossible(Impossibility(
            outcome: outcome, longestPrefix: prefix, wanted: wanted, couldComeNext: next,
            blockers: blockers, witnessToPrefix: witness, narrator: exploration.narrator))
    }

    /// The longest start of `lines` that some outcome also starts with.
    func longestPossiblePrefix(of lines: [String]) -> [String] {
        Array(lines.prefix(exploration.automaton.walk(lines).matched))
    }

    /// What some outcome prints or does right after `prefix`.
    func nextEvents(after prefix: [String]) -> [NextEvent] {
        guard let state = exploration.automaton.walk(prefix).state else { return [] }
        return exploration.automaton.nextEvents(at: state)
    }

    /// Looks at the states whose output is exactly `prefix` and, in those where every thread has
    /// gone as far as it can without printing, asks why `wanted` is not next.
    private func blockersAfter(_ prefix: [String], wanted: NextEvent) -> ([Blocker], [ScheduleStep]) {
        let automaton = exploration.automaton
        let graph = automaton.graph
        let semantics = Semantics(program: exploration.program, machine: graph.machine)
        let analysis = BlockerAnalysis(program: exploration.program, semantics: semantics)
        guard let state = automaton.walk(prefix).state else { return ([], []) }
        var blockers: [Blocker] = []
        var witnessNode: Int32?

        func add(_ found: [Blocker], at node: Int32) {
            if witnessNode == nil { witnessNode = node }
            // The same reason at the same place, met again in another state (where another
            // worker number runs the block, or a loop is at another value), is said once.
            for blocker in found where !blockers.contains(where: { $0.rule == blocker.rule && $0.span == blocker.span }) {
                blockers.append(blocker)
            }
        }

        for node in automaton.members[Int(state)].prefix(stateBudget) where blockers.count < 4 {
            guard let machineState = graph.states[Int(node)] else { continue }
            let moves = semantics.moves(in: machineState)
            if analysis.isSaturated(machineState, moves: moves) {
                add(analysis.whyNot(wanted, in: machineState, prefix: prefix, isTerminal: moves.isEmpty), at: node)
            }
            // Every way the process dies is a reason nothing comes after it.
            for edge in graph.outgoing(node) where edge.line < 0 {
                if case .trap(let index) = graph.endings[Int(edge.target)], let blocker = analysis.blocker(ending: graph.trapReasons[index]) {
                    add([blocker], at: edge.target)
                }
            }
        }
        guard let witnessNode, let choices = WitnessSearch(automaton: automaton).schedule(printing: prefix, to: witnessNode) else {
            return (blockers, [])
        }
        return (blockers, Schedule(program: exploration.program, machine: graph.machine, choices: choices).steps)
    }
}

/// The learner's outcome, judged.
public enum Explanation: Sendable {
    /// Some schedule produces it; here is one.
    case possible(OutcomeReport)
    case impossible(Impossibility)
}

/// Why no schedule produces an outcome.
public struct Impossibility: Sendable, Hashable {
    public var outcome: Outcome
    /// The longest start of the outcome's lines that some schedule prints.
    public var longestPrefix: [String]
    /// The predicted line (or ending) after that prefix, which no schedule produces there.
    public var wanted: NextEvent
    /// What some schedule does produce right after the prefix.
    public var couldComeNext: [NextEvent]
    /// Why `wanted` cannot come next, each naming the model's rule at work.
    public var blockers: [Blocker]
    /// A schedule that prints the prefix.
    public var witnessToPrefix: [ScheduleStep]
    /// The words for the blockers, with the snippet's names.
    public var narrator: Narrator
}

/// The next thing in an outcome: a printed line, or the run's end.
public enum NextEvent: Hashable, Sendable, CustomStringConvertible {
    case line(String)
    case end(End)

    public var description: String {
        switch self {
        case .line(let text): text
        case .end(.finished): "the end of the run (finished)"
        case .end(.deadlock): "deadlock"
        }
    }
}

/// The model's rules, as a learner should hear them.
public enum Rule: String, Hashable, Sendable, CaseIterable, Codable {
    case programOrder
    case syncWaitsForItsBlock
    case serialOneAtATime
    /// Queues whose target is a serial queue are drained by it, one block at a time.
    case serialTargetDrainsOneAtATime
    case fifo
    case mainQueueNeedsIdleMainThread
    case notSubmittedYet
    case trapEndsTheProcess
    case alreadyPrinted
    case neverPrinted
    case workRemains
    case allWorkDone
    case barrierRunsAlone
    case groupWaitsForItsBlocks
    case groupNotifiesWhenEmpty
    case semaphoreBlocksAtZero
    case unsynchronizedAccess
    case timeIsLogical
    case preconditionCrashes
    case operationWaitsForDependencies
    case operationQueueLimit
    case cancelledOperationSkipsItsBlocks
    case completionBlockRunsAfter
    case workerPoolIsLimited
    case concurrentPerformWaitsForIterations
    case printShowsCurrentValues
    case workItemWaitReturnsAfterItRuns
    case spinningKeepsItsThread
    case cancellationHandlersHoldTheTask

    public var statement: String {
        switch self {
        case .programOrder: "statements on one thread run in program order"
        case .syncWaitsForItsBlock: "sync returns only after its block has run"
        case .serialOneAtATime: "a serial queue runs one item at a time"
        case .serialTargetDrainsOneAtATime: "a queue whose target is a serial queue is drained by that target: all the queues on one serial target run one block at a time between them, even a concurrent one"
        case .fifo: "a queue starts its items in FIFO order"
        case .mainQueueNeedsIdleMainThread: "the main queue runs only when the main thread is idle (after the top-level code)"
        case .notSubmittedYet: "a block cannot run before it is submitted"
        case .trapEndsTheProcess: "a trap (sync onto a queue the thread owns, an unbalanced leave or signal, a Swift runtime error such as an overflow) kills the process at once"
        case .alreadyPrinted: "each print runs once"
        case .neverPrinted: "nothing in the snippet prints that"
        case .workRemains: "a run finishes only when every submitted block has run"
        case .allWorkDone: "a run deadlocks only when work is left that can never run"
        case .barrierRunsAlone: "a barrier block waits for everything submitted before it and runs alone"
        case .groupWaitsForItsBlocks: "group.wait() returns only when every block in the group has left it"
        case .groupNotifiesWhenEmpty: "group.notify submits its block once the group is empty"
        case .semaphoreBlocksAtZero: "semaphore.wait() blocks while the count is 0, until a signal()"
        case .unsynchronizedAccess: "x += 1 is a read and a separate write: another thread can come between them"
        case .timeIsLogical: "code takes no time; only sleeps, asyncAfter and timeouts move the clock, and an earlier deadline comes first"
        case .preconditionCrashes: "a failed dispatchPrecondition (or MainActor.assumeIsolated off the main actor) kills the process"
        case .operationWaitsForDependencies: "an operation starts only once every operation it depends on has finished (or it is cancelled), and waits return only when operations have finished"
        case .operationQueueLimit: "an OperationQueue runs at most maxConcurrentOperationCount operations at once, and starts the ready one with the highest queuePriority first, then the first added"
        case .cancelledOperationSkipsItsBlocks: "a cancelled operation stops waiting for its dependencies and finishes without running its blocks; operations depending on it still run"
        case .completionBlockRunsAfter: "a completionBlock runs on another thread after its operation has finished, alongside whatever starts next"
        case .workerPoolIsLimited: "blocks of global and concurrent queues run on a pool of worker threads, one per CPU core; while all are busy a block waits, and libdispatch adds a thread only at its monitor's tick (as the first worker starts, then once a second, for blocked threads), so timers and sleeps can come first"
        case .concurrentPerformWaitsForIterations: "concurrentPerform returns only after every iteration has run, on the caller's thread or a worker's"
        case .printShowsCurrentValues: "a print shows the values its variables have at the moment it runs"
        case .workItemWaitReturnsAfterItRuns: "workItem.wait() returns only once the work item has run (or, cancelled, has been taken from its queue)"
        case .spinningKeepsItsThread: "a loop that changes nothing spins: its thread, and the queue or actor it runs for (the main actor too), is never given up until something else changes what the loop tests"
        case .cancellationHandlersHoldTheTask: "cancel() runs the task's onCancel handlers holding the task's status-record lock: the task cannot end a withTaskCancellationHandler (nor return from a cancelled Task.sleep) until they have run"
        }
    }
}
