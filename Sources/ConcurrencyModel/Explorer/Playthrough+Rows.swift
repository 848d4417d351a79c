/// What the scheduler's seat shows of the current state, as facts: who runs code and where it
/// is, what each executor holds, the timers, the clock, the groups and semaphores. Shaped so that
/// Swift concurrency slots in: a runner can be a task, an executor an actor.
extension Playthrough {
    /// Every thread of the run, the main thread first, then the workers in the order they started.
    public var runners: [Runner] {
        state.threads.map { thread in
            let id = thread.threadID
            let kind: Runner.Kind = thread.id == MachineState.mainThreadID ? .mainThread : .worker
            if let wait = semantics.wait(of: thread, in: state) {
                return Runner(thread: id, kind: kind, line: line(of: thread), queue: thread.currentQueue, activity: .waits(wait))
            }
            guard let statement = semantics.nextStatement(of: thread) else {
                return Runner(thread: id, kind: kind, line: nil, queue: nil, activity: .idle)
            }
            let isPrint = if case .print = statement.action { true } else { false }
            let phase: Runner.Phase = thread.pendingWrite != nil && !isPrint ? .writes
                : (thread.sleepUntil != nil ? .wakes : (thread.waitDeadline != nil ? .endsWait : .starts))
            return Runner(thread: id, kind: kind, line: statement.span.line, queue: thread.currentQueue,
                          activity: .next(statement, printed: semantics.printedText(of: statement, by: thread, in: state), phase: phase))
        }
    }

    /// The line a thread is at: the sync it waits in, or the statement it runs next.
    private func line(of thread: ThreadState) -> Int? {
        guard let frame = thread.frames.last else { return nil }
        let statements = exploration.program[frame.block].statements
        let index = thread.waitingOn != nil || frame.pc >= statements.count ? frame.pc - 1 : frame.pc
        return statements.indices.contains(index) ? statements[index].span.line : nil
    }

    /// The dispatch queues with work running or waiting (an OperationQueue's own backing queue is
    /// shown as that OperationQueue), then the OperationQueues with operations not yet finished.
    public var executors: [Executor] {
        let program = exploration.program
        let backing = Set(program.operationQueues.filter { !$0.isMain }.map(\.backing))
        var rows: [Executor] = []
        for index in program.queues.indices where !backing.contains(QueueID(index: index)) {
            let id = QueueID(index: index)
            let queue = state.queues[index]
            let running = state.threads.filter { $0.holds(id) }.map(\.threadID)
            let drains = state.queues.indices.first { state.drainTargets[$0] == id && state.queues[$0].draining }.map { QueueID(index: $0) }
            guard !running.isEmpty || !queue.pending.isEmpty || state.inactive[index] || drains != nil else { continue }
            var row = Executor(kind: .queue(id), running: running, pending: queue.pending.map(pendingWork),
                               barrierRunning: queue.barrierActive, inactive: state.inactive[index])
            row.drains = drains
            rows.append(row)
        }
        for (index, queue) in state.operationQueues.enumerated() where queue.unfinished > 0 {
            let decl = program.operationQueues[index]
            let backed = state.queues[decl.backing.index]
            var row = Executor(kind: .operationQueue(OperationQueueID(index: index)),
                               running: decl.isMain ? [] : state.threads.filter { $0.holds(decl.backing) }.map(\.threadID),
                               pending: queue.waiting.map { .operation(state.operations[$0].decl, ready: isReady($0)) }
                                   + (decl.isMain ? [] : backed.pending.map(pendingWork)),
                               barrierRunning: false, inactive: false)
            row.limit = queue.limit
            row.suspended = queue.suspended
            rows.append(row)
        }
        return rows
    }

    private func isReady(_ operation: Int) -> Bool {
        state.operations[operation].cancelled || semantics.unfinishedDependencies(of: operation, in: state) == nil
    }

    private func pendingWork(_ item: PendingItem) -> PendingWork {
        let program = exploration.program
        switch item {
        case .async(let body, _, let barrier, _, let task):
            if case .workItem(let workItem)? = task { return .workItem(workItem, barrier: barrier) }
            return .block(line: program[body].span?.line, barrier: barrier)
        case .sync(let thread, let body, let barrier, _):
            return .sync(ThreadID(thread), line: program[body].span?.line, barrier: barrier)
        case .operation(let instance):
            return .operation(state.operations[instance].decl, ready: true)
        case .helper:
            return .helper
        case .job(let task):
            return .job(task: task)
        case .drain(let queue):
            return .targetedQueue(queue)
        }
    }

    /// The `asyncAfter` timers not yet fired, earliest first.
    public var timers: [PendingTimer] {
        state.timers.map { PendingTimer(queue: $0.queue, line: exploration.program[$0.body].span?.line, due: $0.due) }
            .sorted { $0.due < $1.due }
    }

    /// The logical clock in microseconds, when the snippet sleeps, sets timers or waits with a timeout.
    public var clock: Int? {
        exploration.program.usesTime ? state.now : nil
    }

    /// The snippet's groups (blocks in each) and semaphores (their counts).
    public var objects: [SyncObjectState] {
        state.groups.enumerated().map { .group(GroupID(index: $0.offset), inside: $0.element.count, notify: $0.element.notify.count) }
            + state.semaphores.enumerated().map { .semaphore(SemaphoreID(index: $0.offset), count: $0.element) }
    }
}

/// Something that runs the snippet's statements: a thread (a task, once Swift concurrency is
/// modelled), where it is and what it does or waits for.
public struct Runner: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case mainThread
        case worker
    }

    /// Which half of a statement taken in two steps comes next.
    public enum Phase: Hashable, Sendable {
        /// The statement's first (or only) step.
        case starts
        /// `x += 1` has read and computed: the write comes next.
        case writes
        /// A sleep's wake-up.
        case wakes
        /// A `wait(timeout:)` returning.
        case endsWait
    }

    public enum Activity: Hashable, Sendable {
        /// Can take its next step: this statement (a print's text when known).
        case next(Statement, printed: String?, phase: Phase)
        /// Waits before its next step.
        case waits(ThreadWait)
        /// Nothing to run: the main thread once the top-level code has ended, serving the main queue.
        case idle
    }

    public var thread: ThreadID
    public var kind: Kind
    /// The line of its next statement, or of the call it waits in.
    public var line: Int?
    /// The queue whose item (or sync body) it runs.
    public var queue: QueueID?
    public var activity: Activity
}

/// Something that hands work to runners: a dispatch queue or an OperationQueue (an actor or an
/// executor, once Swift concurrency is modelled).
public struct Executor: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case queue(QueueID)
        case operationQueue(OperationQueueID)
    }

    public var kind: Kind
    /// The threads running its items now.
    public var running: [ThreadID]
    /// What waits in it, first to start first.
    public var pending: [PendingWork]
    /// A concurrent queue's barrier block is running: nothing else starts.
    public var barrierRunning: Bool
    /// Created `.initiallyInactive` and not activated.
    public var inactive: Bool
    /// An OperationQueue's `maxConcurrentOperationCount` (nil: no limit).
    public var limit: Int?
    public var suspended = false
    /// A serial queue draining a queue that targets it: that queue's blocks run, one at a time.
    public var drains: QueueID?

    public init(kind: Kind, running: [ThreadID], pending: [PendingWork], barrierRunning: Bool, inactive: Bool) {
        self.kind = kind
        self.running = running
        self.pending = pending
        self.barrierRunning = barrierRunning
        self.inactive = inactive
    }
}

/// One piece of work waiting in an executor.
public enum PendingWork: Hashable, Sendable {
    /// An async block (starting at `line`).
    case block(line: Int?, barrier: Bool)
    /// A work item submitted with `async(execute:)`.
    case workItem(WorkItemID, barrier: Bool)
    /// A `sync` of this thread, waiting for its turn (its block starting at `line`).
    case sync(ThreadID, line: Int?, barrier: Bool)
    /// An operation: `ready` once its dependencies have finished (or it is cancelled).
    case operation(OperationID, ready: Bool)
    /// A request for a pool thread to help a `concurrentPerform`.
    case helper
    /// A job of a task (numbered from 0 in the order the tasks were made): the thread that takes
    /// it runs the task on.
    case job(task: Int)
    /// A queue that targets this one, woken with work, waiting to be drained.
    case targetedQueue(QueueID)
}

/// An `asyncAfter` timer not yet fired: its block (at `line`) goes to `queue` at `due`.
public struct PendingTimer: Hashable, Sendable {
    public var queue: QueueID
    public var line: Int?
    /// Microseconds of the logical clock.
    public var due: Int
}

/// The state of a synchronization object of the snippet.
public enum SyncObjectState: Hashable, Sendable {
    /// A DispatchGroup with `inside` blocks entered and not left, `notify` blocks registered.
    case group(GroupID, inside: Int, notify: Int)
    case semaphore(SemaphoreID, count: Int)
}
