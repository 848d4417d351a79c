/// A snapshot of the abstract machine the model runs: threads with their call frames, queues with
/// their pending items, groups, semaphores, variables and the worker pools. What has been printed
/// is not part of it: printing never changes what can happen next, so the search keeps the
/// printed lines on the edges between states (`StateGraph`), and two schedules that reach the
/// same state after printing different lines share everything after it. Hashable so that the
/// search can recognise a state it has already explored.
struct MachineState: Hashable {
    var threads: [ThreadState]
    var queues: [QueueState]
    /// Values of the top-level variables, by `VariableID` (nil before the declaration runs).
    var globals: [Value?]
    var nextWorker: Int
    /// The arrival number the next item put on a queue gets.
    var nextArrival = 0
    /// The logical clock, in microseconds: only sleeps, asyncAfter and timeouts move it.
    var now = 0
    /// `asyncAfter` blocks waiting for their deadline.
    var timers: [TimerEntry] = []
    /// Swift concurrency's tasks, by creation (task 0 is the top-level code once the program uses
    /// Swift concurrency: it runs as a main-actor task).
    var tasks: [TaskState] = []
    /// `Task.sleep` timers: each continues its task on the global executor when due.
    var taskTimers: [TaskTimer] = []
    /// One per `concurrentPerform` call made so far, in the order made (not with the rare
    /// parts: each iteration handed out or finished changes it).
    var performs: [PerformState] = []
    /// The parts most steps leave alone, shared between a state and the states after it until a
    /// step changes one of them, with their hash kept: the search copies, hashes and compares a
    /// state for every move, and most moves change only threads, queues and variables.
    private var rare: RareParts.Box

    static let mainThreadID = 0

    init(program: Program) {
        threads = [ThreadState(id: Self.mainThreadID, frames: [Frame(block: program.entry, role: .topLevel)])]
        queues = Array(repeating: QueueState(), count: program.queues.count)
        globals = Array(repeating: nil, count: program.variables.count)
        nextWorker = 1
        rare = RareParts.Box(RareParts(
            groups: Array(repeating: GroupState(), count: program.groups.count),
            semaphores: program.semaphores.map(\.initialValue),
            lockHolders: Array(repeating: nil, count: program.semaphores.count),
            inactive: program.queues.map(\.initiallyInactive),
            workItems: Array(repeating: WorkItemState(), count: program.workItems.count),
            operations: program.operations.indices.map { OperationState(decl: OperationID(index: $0)) },
            operationQueues: program.operationQueues.map { OperationQueueState(limit: $0.isMain ? 1 : nil) },
            taskGroups: Array(repeating: TaskGroupState(), count: program.taskGroups.count),
            continuations: Array(repeating: ContinuationState(), count: program.continuations.count),
            streams: Array(repeating: StreamState(), count: program.streams.count),
            drainTargets: program.queues.indices.map { program.drainTarget(of: QueueID(index: $0)) },
            specifics: Array(repeating: [:], count: program.queues.count),
            timerSources: Array(repeating: TimerSourceState(), count: program.timerSources.count),
            tasksInterchangeable: !program.mayCancelTasks))
        if program.usesTasks {
            tasks = [TaskState(isolation: .mainActor, priority: TaskPriority.medium.rank)]
            threads[0].task = 0
        }
    }

    /// Gives the state rare parts of its own before a step changes them.
    private mutating func changeRare() {
        if !isKnownUniquelyReferenced(&rare) { rare = RareParts.Box(rare.parts) }
    }

    var groups: [GroupState] {
        _read { yield rare.parts.groups }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.groups }
    }
    var semaphores: [Int] {
        _read { yield rare.parts.semaphores }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.semaphores }
    }
    /// Who holds each `NSRecursiveLock` and `Mutex`, and how many times (nil when free, and
    /// always for semaphores and NSLocks, which do not know their holder).
    var lockHolders: [LockHolder?] {
        _read { yield rare.parts.lockHolders }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.lockHolders }
    }
    /// Queues created `.initiallyInactive` and not activated yet.
    var inactive: [Bool] {
        _read { yield rare.parts.inactive }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.inactive }
    }
    var workItems: [WorkItemState] {
        _read { yield rare.parts.workItems }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.workItems }
    }
    /// One per declared operation (at its `OperationID` index, `idle` until added), then one
    /// per `addOperation { }` run, appended as they happen.
    var operations: [OperationState] {
        _read { yield rare.parts.operations }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.operations }
    }
    var operationQueues: [OperationQueueState] {
        _read { yield rare.parts.operationQueues }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.operationQueues }
    }
    /// One per worker pool (`Semantics.pools` order) on a machine of a given width; empty when the
    /// pools are wide enough that no block waits for a thread.
    var pools: [PoolState] {
        _read { yield rare.parts.pools }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.pools }
    }
    /// When the first worker of any pool started: libdispatch's pool monitor starts then and ticks
    /// once a second from there (on a machine of a given width; nil before, or on a wide one).
    var monitorStarted: Int? {
        _read { yield rare.parts.monitorStarted }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.monitorStarted }
    }
    /// On Linux, the top-level code has suspended: the runtime then called dispatch_main(), which
    /// ends the main thread, and main-queue blocks and main-actor jobs run, still one at a time,
    /// on a thread libdispatch starts for them (`Thread.isMainThread` is false there).
    var mainThreadLeft: Bool {
        _read { yield rare.parts.mainThreadLeft }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.mainThreadLeft }
    }
    /// One per `withTaskGroup` of the program (started afresh each time it runs).
    var taskGroups: [TaskGroupState] {
        _read { yield rare.parts.taskGroups }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.taskGroups }
    }
    /// One per `withCheckedContinuation` of the program (made afresh each time it runs).
    var continuations: [ContinuationState] {
        _read { yield rare.parts.continuations }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.continuations }
    }
    var streams: [StreamState] {
        _read { yield rare.parts.streams }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.streams }
    }
    /// One per `makeTimerSource` of the program (`Semantics+TimerSources`).
    var timerSources: [TimerSourceState] {
        _read { yield rare.parts.timerSources }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.timerSources }
    }
    /// Per queue, the serial queue that drains it (`Program.drainTarget(of:)`): fixed for the
    /// run, kept here so that `enqueue` can wake the target.
    var drainTargets: [QueueID?] { rare.parts.drainTargets }
    var tasksInterchangeable: Bool { rare.parts.tasksInterchangeable }
    /// Per queue, the values `setSpecific(key:value:)` gave it, by the key's hidden variable.
    var specifics: [[VariableID: Value]] {
        _read { yield rare.parts.specifics }
        _modify { changeRare(); defer { rare.rehash() }; yield &rare.parts.specifics }
    }


    /// The time `microseconds` from now; the front end bounds each delay, and the explorer's
    /// budget the number of them, so this saturates only beyond any real snippet.
    func later(by microseconds: Int) -> Int {
        let (sum, overflow) = now.addingReportingOverflow(microseconds)
        return overflow ? Int.max : sum
    }

    func threadIndex(_ id: Int) -> Int? {
        threads.firstIndex { $0.id == id }
    }

    var mainThread: ThreadState { threads[0] }

    /// The same state with its threads numbered by their place in `threads` (the main thread 0,
    /// then the workers in the order they started), and interchangeable tasks in a fixed order
    /// (`withInterchangeableTasksOrdered`): two states that differ only in the numbers earlier
    /// workers took, or in which of two identical tasks is which, are one state. The order of
    /// `threads`, and so of the moves, is kept, so a schedule found on canonical states replays
    /// on the numbered ones.
    func canonical() -> MachineState {
        renumbered().withInterchangeableTasksOrdered()
    }

    /// Threads and arrivals numbered in order.
    private func renumbered() -> MachineState {
        let threadsInPlace = nextWorker == threads.count && threads.indices.allSatisfy { threads[$0].id == $0 }
        let arrivalsInPlace = arrivalsAreCanonical
        if threadsInPlace && arrivalsInPlace { return self }
        // Each part below is rewritten only where renumbering changes it: a write to an array
        // copies it, and one to the rare parts copies and rehashes their box.
        // A handful of threads: a thread's new number is found by a look along them, with no
        // table to allocate for each state.
        let numbered = threads
        func renumbered(_ id: Int) -> Int { numbered.firstIndex { $0.id == id } ?? -1 }
        var state = self
        for t in state.threads.indices {
            let thread = state.threads[t]
            let waiters = thread.frames.contains { frame in
                if case .syncBody(_, _?, _) = frame.role { return true }
                return false
            }
            if thread.id != t || waiters {
                state.threads[t] = ThreadState(renumbering: thread, id: t, with: renumbered)
            }
        }
        for q in state.queues.indices {
            let syncs = state.queues[q].pending.contains { item in
                if case .sync = item { return true }
                return false
            }
            guard syncs else { continue }
            state.queues[q].mapItems { item in
                if case .sync(let thread, let body, let barrier, let captures) = item {
                    return .sync(thread: renumbered(thread), body: body, barrier: barrier, captures: captures)
                }
                return item
            }
        }
        for l in lockHolders.indices {
            if let holder = lockHolders[l], renumbered(holder.thread) != holder.thread {
                state.lockHolders[l] = LockHolder(thread: renumbered(holder.thread), depth: holder.depth)
            }
        }
        state.nextWorker = state.threads.count
        // Arrivals keep their order, numbered from 0.
        if !arrivalsInPlace {
            // Each arrival is unique: its new number is its place among them all, found by a
            // binary search, and only queues whose numbers change are rewritten.
            let arrivals = state.queues.flatMap(\.arrivals).sorted()
            func rank(_ arrival: Int) -> Int {
                var low = 0, high = arrivals.count
                while low < high {
                    let middle = (low + high) / 2
                    if arrivals[middle] < arrival { low = middle + 1 } else { high = middle }
                }
                return low
            }
            for q in state.queues.indices where state.queues[q].arrivals.contains(where: { rank($0) != $0 }) {
                state.queues[q].renumberArrivals(rank)
            }
            state.nextArrival = arrivals.count
        }
        return state
    }

    /// Arrivals numbered 0, 1, 2… in order already: the common case, checked without copying.
    private var arrivalsAreCanonical: Bool {
        var count = 0
        var seen = 0 as UInt64
        for queue in queues {
            for arrival in queue.arrivals {
                guard arrival >= 0, arrival < 64 else { return false }
                seen |= 1 << UInt64(arrival)
                count += 1
            }
        }
        return nextArrival == count && seen == (count == 64 ? .max : (1 << UInt64(count)) - 1)
    }

    /// Puts an item at the end of a queue, and the queue on its serial target when it was idle
    /// there (Semantics+TargetQueues).
    mutating func enqueue(on queue: QueueID, _ item: PendingItem) {
        queues[queue.index].append(item, arrival: nextArrival)
        nextArrival += 1
        wakeTarget(of: queue)
    }

    /// libdispatch's wakeup of a queue with a serial target: the queue itself goes to the end of
    /// its target as one item (`.drain`), once, until its drain ends; an inactive queue waits.
    mutating func wakeTarget(of queue: QueueID) {
        guard let target = drainTargets[queue.index], !inactive[queue.index], !queues[queue.index].onTarget,
            !queues[queue.index].pending.isEmpty
        else { return }
        queues[queue.index].onTarget = true
        enqueue(on: target, .drain(queue))
    }
}

extension MachineState {
    /// `StateHasher` over every part (its rare parts by the hash their box keeps).
    func hash(into hasher: inout Hasher) {
        var h = StateHasher()
        // Hashed in place through the buffers rather than through the arrays' subscripts, which
        // copied each thread (a retain and a release of every field) before hashing it.
        h.add(threads.count)
        threads.withUnsafeBufferPointer { threads in
            for t in threads.indices { ThreadState.add(threads.baseAddress! + t, to: &h) }
        }
        h.add(queues.count)
        queues.withUnsafeBufferPointer { queues in
            for q in queues.indices { QueueState.add(queues.baseAddress! + q, to: &h) }
        }
        h.add(globals.count)
        globals.withUnsafeBufferPointer { for g in $0.indices { h.add($0[g]) } }
        h.add(nextWorker)
        h.add(nextArrival)
        h.add(now)
        h.add(timers.count)
        for timer in timers {
            h.add(timer.due)
            h.add(timer.queue.index)
            h.add(timer.body.index)
            h.add(timer.captures)
        }
        h.add(tasks.count)
        tasks.withUnsafeBufferPointer { tasks in
            for t in tasks.indices { TaskState.add(tasks.baseAddress! + t, to: &h) }
        }
        h.add(taskTimers.count)
        for timer in taskTimers {
            h.add(timer.due)
            h.add(timer.task)
            h.add(timer.isShort)
        }
        h.add(performs.count)
        for perform in performs {
            h.add(perform.callBlock.index)
            h.add(perform.callIndex)
            h.add(perform.captures)
            h.add(perform.next)
            h.add(perform.running)
        }
        h.add(rare.hash)
        hasher.combine(h.value)
    }
}

/// The thread that holds a lock which knows its holder, and how many `lock()`s it has not yet
/// given back (above 1 only for an `NSRecursiveLock`).
struct LockHolder: Hashable {
    var thread: Int
    var depth: Int
}

/// A libdispatch worker pool on a machine of a given width: its threads beyond one per core were
/// added by libdispatch's monitor, which wakes once a second and adds one thread to a pool whose
/// threads are blocked while work waits (`src/event/workqueue.c`). Threads it added stay.
struct PoolState: Hashable {
    /// Threads the monitor added.
    var added = 0
    /// When it last added one (logical microseconds).
    var lastAdded: Int?
}

struct ThreadState: Hashable {
    private(set) var id: Int
    /// Innermost last. Empty for the main thread once it is idle (serving the main queue).
    var frames: [Frame]
    /// The queue this thread waits on in a `sync`, until the queue lets it in.
    var waitingOn: QueueID?
    /// The value an assignment has read and is about to write (`x += 1` is a read, then a write),
    /// or the line a print has read and is about to output (`Program.racyPrintVariables`).
    var pendingWrite: Value?
    /// For `list[i] = …`: the element the pending write goes to (the array itself may change
    /// meanwhile: each element is written in place).
    var pendingIndex: Int?
    /// Asleep until this time.
    var sleepUntil: Int?
    /// In a `wait(timeout:)` that gives up at this time.
    var waitDeadline: Int?
    /// In a work item's `wait()`, begun before the item ran: it returns once the item has run.
    var waitsForWorkItem = false
    /// The task whose job the thread runs (its frames are the task's), if any.
    var task: Int?
    /// A pool thread that took the task's job from the global executor and must first move it
    /// to the executor its code needs (`swift_task_switch`): its next step.
    var switching = false
    /// Task-local bindings made outside any task (the runtime's thread-local fallback), innermost last.
    var taskLocals: [TaskLocalBinding] = []
    /// Its block's last statement has run; the block's return, which others see (its group is
    /// left, its work item or operation done, its task finished), is its next step
    /// (`Semantics.unwind`).
    var returning = false

    /// The thread as facts name it.
    var threadID: ThreadID { ThreadID(id) }

    init(id: Int, frames: [Frame]) {
        self.id = id
        self.frames = frames
    }

    /// The thread under another number, with the threads its frames name renumbered too.
    init(renumbering thread: ThreadState, id: Int, with renumbered: (Int) -> Int) {
        self = thread
        self.id = id
        for f in frames.indices {
            if case .syncBody(let queue, let waiter?, let barrier) = frames[f].role {
                frames[f].role = .syncBody(queue, waiter: renumbered(waiter), barrier: barrier)
            }
        }
    }

    /// The queue whose item or sync body the thread runs right now, for witnesses.
    var currentQueue: QueueID? {
        frames.last { $0.role.queue != nil }?.role.queue
    }

    /// Whether the thread holds `queue` through one of its frames (an item or a sync body).
    func holds(_ queue: QueueID) -> Bool {
        frames.contains { $0.role.queue == queue }
    }

    /// The thread runs a barrier of `queue` (an item or a sync body), however deeply nested.
    func holdsBarrier(of queue: QueueID) -> Bool {
        frames.contains { frame in
            switch frame.role {
            case .item(let held, barrier: true, _), .syncBody(let held, _, barrier: true): held == queue
            case .item, .syncBody, .topLevel, .branch, .call, .loop, .whileBody, .task, .inlineBody: false
            }
        }
    }
}

struct Frame: Hashable {
    var block: BlockID
    var pc: Int = 0
    var role: Role
    /// Variables local to this frame: a closure's captures and declarations, a loop's variable.
    var locals: [VariableID: Value] = [:]
    /// The work item or operation whose body this frame runs: told when the frame ends.
    var task: Task?
    /// The `concurrentPerform` call this frame's thread is inside (its instance), while it runs
    /// or waits for iterations.
    var performing: Int?
    /// A pool thread helping that call: parked at the call's statement, it takes iterations until
    /// none is left, then goes back to the pool (it never runs the caller's code).
    var isHelper = false
    /// The operation (an index into `MachineState.operations`) this frame's `op.start()` runs:
    /// the thread comes back to the statement after its blocks and returns once it has finished.
    var startedOperation: Int?
    /// An error a function this frame called raised: thrown on from here once the thread is back
    /// at the call's `ThrowAction.pending` (after the hop back to this frame's executor).
    var pendingError: ThrownError?
    /// The task whose onCancel handler this frame runs on the thread that cancelled it: while it
    /// runs, the cancelling thread holds the task's status-record lock (`swift_task_cancel` runs
    /// the handlers under it, TaskStatus.cpp), which the task itself needs to remove a cancellation
    /// record (`Semantics.statusRecordHolder`).
    var cancellationHandlerOf: Int?

    /// Equal frames hash alike (equality is still the synthesized one, field by field), but the
    /// locals go in as `bindingsHash`, not as a `Dictionary` hashes them: a fresh hasher per
    /// entry, which made hashing frames a tenth of the search.
    func hash(into hasher: inout Hasher) {
        hasher.combine(block)
        hasher.combine(pc)
        hasher.combine(role)
        hasher.combine(bindingsHash(locals))
        hasher.combine(task)
        hasher.combine(performing)
        hasher.combine(isHelper)
        hasher.combine(startedOperation)
        hasher.combine(cancellationHandlerOf)
    }

    /// A body a `return` ends: a function's or a closure's (a work item's `perform()` runs its
    /// block in a branch-like frame, but the block is a closure of its own).
    var isBody: Bool { role.isBody || task != nil }

    /// The body of a `for`, `while` or `repeat` loop: what `break` and `continue` leave.
    var isLoop: Bool {
        switch role {
        case .loop, .whileBody: true
        case .topLevel, .item, .syncBody, .branch, .call, .inlineBody, .task: false
        }
    }

    enum Role: Hashable {
        case topLevel
        /// An `async` item this thread took from the queue.
        case item(QueueID, barrier: Bool, group: GroupID?)
        /// The body of a `sync`. `waiter` is the thread blocked in the `sync` when the body runs on
        /// another thread (a `DispatchQueue.main.sync` from a worker runs on the main thread).
        case syncBody(QueueID, waiter: Int?, barrier: Bool)
        /// The chosen branch of an `if`.
        case branch
        /// The body of a function the snippet declares: it sees its parameters, not the caller's locals.
        case call
        /// A closure run in place that a `return` leaves, seeing the caller's locals (the body of
        /// `withTaskGroup`).
        case inlineBody
        /// A loop's body, in iteration `current` of `current...last`.
        case loop(variable: VariableID?, current: Int, last: Int)
        /// A `while` or `repeat` loop's body, or a `for await` loop's (over a stream or a task
        /// group): when it ends, its thread is back at the loop's test (`WhileLoop`, or the wait
        /// for the next element), and `break` moves the caller past it.
        case whileBody
        /// The body of a task (an index into `MachineState.tasks`): the task ends with it.
        case task(Int)

        var queue: QueueID? {
            switch self {
            case .item(let queue, _, _), .syncBody(let queue, _, _): queue
            case .topLevel, .branch, .loop, .whileBody, .call, .task, .inlineBody: nil
            }
        }

        /// A frame a `return` ends (with the loops and branches above it): a function's or a
        /// closure's body.
        var isBody: Bool {
            switch self {
            case .item, .call, .syncBody, .topLevel, .task, .inlineBody: true
            case .branch, .loop, .whileBody: false
            }
        }

        /// A frame where variable lookup stops: the closure's own start.
        var isClosureRoot: Bool {
            switch self {
            case .topLevel, .item, .call, .task: true
            case .syncBody(_, let waiter, _): waiter != nil
            case .branch, .loop, .whileBody, .inlineBody: false
            }
        }
    }
}

struct QueueState: Hashable {
    /// Items waiting to start, first in first out.
    private(set) var pending: [PendingItem] = []
    /// When each pending item arrived (`MachineState.nextArrival` order), so that a pool hands
    /// its threads to the items of all its queues first come, first served.
    private(set) var arrivals: [Int] = []

    mutating func append(_ item: PendingItem, arrival: Int) {
        pending.append(item)
        arrivals.append(arrival)
    }

    /// Puts an item before the pending ones at and after `position` (an actor's higher-priority job).
    mutating func insert(_ item: PendingItem, arrival: Int, at position: Int) {
        pending.insert(item, at: position)
        arrivals.insert(arrival, at: position)
    }

    /// The item at `index` goes first, keeping its arrival.
    mutating func moveToFront(_ index: Int) {
        pending.insert(pending.remove(at: index), at: 0)
        arrivals.insert(arrivals.remove(at: index), at: 0)
    }

    mutating func removeFirst() -> PendingItem {
        arrivals.removeFirst()
        return pending.removeFirst()
    }

    mutating func removeAll(where shouldRemove: (PendingItem) -> Bool) {
        let kept = zip(pending, arrivals).filter { !shouldRemove($0.0) }
        pending = kept.map(\.0)
        arrivals = kept.map(\.1)
    }

    mutating func mapItems(_ transform: (PendingItem) -> PendingItem) {
        pending = pending.map(transform)
    }

    mutating func renumberArrivals(_ renumbered: (Int) -> Int) {
        arrivals = arrivals.map(renumbered)
    }

    /// Items or sync bodies holding the queue right now.
    var active = 0
    /// A barrier item or sync body is running: nothing else may start.
    var barrierActive = false
    /// A queue with a serial target: it waits in its target as a `.drain` item, or is drained.
    var onTarget = false
    /// A queue with a serial target: its target runs it now, one block after another.
    var draining = false
}

/// What a block running for a library object reports to when it ends.
enum Task: Hashable {
    /// The body of a work item: the item has executed.
    case workItem(WorkItemID)
    /// One execution block of an operation instance (an index into `MachineState.operations`).
    case operationBlock(Int)
    /// One iteration of a `concurrentPerform` call (an index into `MachineState.performs`).
    case iteration(Int)
    /// A timer source's event handler (an index into `MachineState.timerSources`): skipped if
    /// the source is cancelled before it starts.
    case timerEvent(Int)
}

/// A `concurrentPerform` call in progress: iterations are handed out in index order to the
/// caller and to helper threads from the pool, and the call returns when none is left running.
struct PerformState: Hashable {
    var perform: ConcurrentPerform
    /// The block and statement index of the call, where its helpers are parked.
    var callBlock: BlockID
    var callIndex: Int
    /// The locals of the calling closure, which every iteration captures.
    var captures: [VariableID: Value]
    /// The next index to hand out.
    var next = 0
    /// Iterations handed out and not yet finished.
    var running = 0

    var hasIterationsLeft: Bool { next < perform.iterations }

    /// The frame of the next iteration, with its index bound; hands the iteration out.
    mutating func takeIteration(role: Frame.Role, instance: Int) -> Frame {
        var locals = captures
        if let variable = perform.variable { locals[variable] = .int(next) }
        next += 1
        running += 1
        return Frame(block: perform.body, role: role, locals: locals, task: .iteration(instance))
    }
}

enum PendingItem: Hashable {
    case async(BlockID, captures: [VariableID: Value], barrier: Bool, group: GroupID?, task: Task?)
    case sync(thread: Int, body: BlockID, barrier: Bool, captures: [VariableID: Value])
    /// An operation its OperationQueue has handed to the backing queue: it starts (or, if
    /// cancelled, finishes without running) when the queue hands it to a thread.
    case operation(Int)
    /// One of the helper requests `concurrentPerform` pushes onto a global queue (an index into
    /// `MachineState.performs`): the worker that takes it runs iterations until none is left.
    case helper(perform: Int)
    /// A job of a task (an index into `MachineState.tasks`): the thread that takes it runs the
    /// task on from where it stopped (or from its start).
    case job(task: Int)
    /// A queue whose target this is, woken with work: when it starts, the target is held while
    /// the queue's blocks run one after another, until the queue is empty.
    case drain(QueueID)

    /// As `Frame.hash(into:)`: captures go in as `bindingsHash`.
    func hash(into hasher: inout Hasher) {
        switch self {
        case .async(let body, let captures, let barrier, let group, let task):
            hasher.combine(0)
            hasher.combine(body)
            hasher.combine(bindingsHash(captures))
            hasher.combine(barrier)
            hasher.combine(group)
            hasher.combine(task)
        case .sync(let thread, let body, let barrier, let captures):
            hasher.combine(1)
            hasher.combine(thread)
            hasher.combine(body)
            hasher.combine(barrier)
            hasher.combine(bindingsHash(captures))
        case .operation(let instance):
            hasher.combine(2)
            hasher.combine(instance)
        case .helper(let perform):
            hasher.combine(3)
            hasher.combine(perform)
        case .job(let task):
            hasher.combine(4)
            hasher.combine(task)
        case .drain(let queue):
            hasher.combine(5)
            hasher.combine(queue)
        }
    }

    var body: BlockID? {
        switch self {
        case .async(let body, _, _, _, _), .sync(_, let body, _, _): body
        case .operation, .helper, .job, .drain: nil
        }
    }

    var isBarrier: Bool {
        switch self {
        case .async(_, _, let barrier, _, _), .sync(_, _, let barrier, _): barrier
        case .operation, .helper, .job, .drain: false
        }
    }

    /// Whether it runs on a thread of its own (a worker, for a pool's queue) rather than on the
    /// thread that waits for it in `sync`.
    var needsThread: Bool {
        switch self {
        case .async, .operation, .helper, .job: true
        case .sync, .drain: false
        }
    }
}

struct GroupState: Hashable {
    /// Blocks in the group: entered and not yet left.
    var count = 0
    /// `notify` blocks waiting for the group to empty, with the queue each goes to.
    var notify: [NotifyEntry] = []
}

struct NotifyEntry: Hashable {
    var queue: QueueID
    var body: BlockID
    var captures: [VariableID: Value]
}

struct TimerEntry: Hashable {
    var due: Int
    var queue: QueueID
    var body: BlockID
    var captures: [VariableID: Value]
    /// `asyncAfter(deadline:execute: item)`: the timer submits this work item.
    var workItem: WorkItemID? = nil
}

struct WorkItemState: Hashable {
    /// Performed, or taken from a queue (run, or skipped because it was cancelled).
    var executed = false
    var notify: [NotifyEntry] = []
    /// How often it ran or was skipped, counted up to 2 (libdispatch's `dbpd_performed`): an
    /// item run more than once may not be waited for or observed.
    var runs: UInt8 = 0
    /// `perform()` ran it on a thread, which libdispatch records (`dbpd_thread`).
    var performedDirectly = false
    /// Submitted to a queue, and no run from a queue has ended since (libdispatch's `dbpd_queue`,
    /// which `wait()` also takes).
    var submissionPending = false
    /// `wait()` was called: libdispatch allows it once.
    var waitCalled = false
    /// A `wait()` returned: the item may not run again.
    var waitReturned = false
}

/// A block with the locals it captured, waiting to be submitted.
struct CapturedBlock: Hashable {
    var body: BlockID
    var captures: [VariableID: Value]
}

struct OperationState: Hashable {
    enum Phase: Hashable {
        /// Created (or not yet), in no queue.
        case idle
        /// In its queue, waiting to be ready and for a free slot.
        case enqueued
        /// Handed to the backing dispatch queue; holds one of the queue's slots.
        case dispatched
        case executing
        case finished
    }

    let decl: OperationID
    var phase = Phase.idle
    var blocks: [CapturedBlock] = []
    var completion: CapturedBlock?
    /// Higher starts first among ready operations.
    var priority = QueuePriority.normal
    var cancelled = false
    /// Instances this one waits for.
    var dependencies: [Int] = []
    var queue: Int?
    /// Execution blocks still running.
    var running = 0
    /// Finished without running: it was cancelled before its turn.
    var skipped = false
    /// For an operation started with `start()`, in no queue: where its completion block goes.
    var completionQueue: QueueID?
}

struct OperationQueueState: Hashable {
    /// Operations added and not yet handed to the backing queue, in the order added.
    var waiting: [Int] = []
    /// Operations handed to the backing queue and not finished: they hold the slots.
    var executing = 0
    /// `maxConcurrentOperationCount`; nil is Foundation's default (no limit).
    var limit: Int?
    var suspended = false
    /// Operations added and not finished.
    var unfinished = 0
}

/// A Swift-concurrency task: where its code must run now, its saved frames while it is not on a
/// thread, and what it gave back.
struct TaskState: Hashable {
    /// The executor its code needs now (it changes at each hop).
    var isolation: Isolation
    /// `TaskPriority.rank`: orders its jobs on an actor's queue.
    var priority: Int
    /// Its frames while it waits (suspended, or queued as a job); empty while a thread runs it.
    var frames: [Frame] = []
    var finished = false
    /// What its body returned.
    var result: Value?
    /// Tasks suspended in `await` of its value, resumed when it finishes.
    var waiters: [Int] = []
    /// Cancelled (`t.cancel()`, its group's `cancelAll()`, its parent's cancellation).
    var cancelled = false
    /// The task whose child it is (an async let's, a group's), which passes cancellation on.
    var parent: Int?
    /// The group (a `TaskGroupID` index) whose child it is.
    var group: Int?
    /// Someone may await its end: a kept task (`let t = Task { }`), an async let, a group's child.
    var awaitable = false
    /// A variable holds its number (`let t = Task { }`, an async let): it is never swapped with
    /// another task (`withInterchangeableTasksOrdered`).
    var named = false
    /// The block its body runs (the top-level code's for task 0): tasks of one body are
    /// interchangeable (`withInterchangeableTasksOrdered`).
    var body = BlockID(index: 0)
    /// Its `Task.sleep` was ended by cancellation: `try await Task.sleep` throws CancellationError.
    var sleepCancelled = false
    /// Its task-local bindings (`withValue`), innermost last: copied from its creator when made.
    var taskLocals: [TaskLocalBinding] = []
    /// `withTaskCancellationHandler`'s onCancel blocks registered, innermost last, each with
    /// the locals it captured: run on the cancelling thread when the task is cancelled.
    var cancellationHandlers: [CancellationHandler] = []
}

/// An `AsyncStream`: the elements yielded and not yet taken, whether it is finished, and the
/// task waiting in `for await` for the next one.
struct StreamState: Hashable {
    var buffer: [Value?] = []
    /// The first element of `buffer` was handed to the task that waited for it (its job is
    /// queued): it no longer counts against the buffering policy's limit.
    var handedOver = false
    var finished = false
    /// The error an `AsyncThrowingStream` was finished with.
    var failure: ThrownError?
    var waiter: Int?
    /// The task inside the stream's `next()`: waiting, or woken and not yet back (its
    /// cancellation handler is registered there, so cancelling it finishes the stream).
    var inNext: Int?
}

/// A continuation: the task it belongs to, whether that task waits for it, and its value once
/// resumed.
struct ContinuationState: Hashable {
    var task: Int?
    var waiting = false
    var resumed = false
    var value: Value?
}

/// A task group while its `withTaskGroup` runs.
struct TaskGroupState: Hashable {
    /// Children not finished yet, by creation.
    var running: [Int] = []
    /// Finished children whose values nobody took yet, in the order they finished.
    var finished: [Int] = []
    var cancelled = false
    /// The task suspended in `next()`, `for await` or `waitForAll()`.
    var waiter: Int?
    /// A throwing discarding group's first child error, thrown where the group ends.
    var firstError: ThrownError?
}

/// A `Task.sleep` in progress: the task's job goes to the global executor at `due`.
struct TaskTimer: Hashable {
    var due: Int
    var task: Int
    /// A sleep shorter than `Semantics.shortSleep`: it may end while other work still could run
    /// (a thread the OS has not scheduled yet can be late by more than that).
    var isShort = false
}
