import CProcessSupport
import ConcurrencyModel
import Foundation

/// The books of one live run, kept by every thread the run touches, so that the watchdog can
/// *know* when a run is stuck instead of guessing from silence: which threads run snippet code,
/// which wait (and for what), which submitted blocks have not started yet (and on which queue),
/// which timers are pending. Every update is made on the safe side of the real call: a block is
/// booked as pending before it is submitted and as done before libdispatch learns it returned,
/// so the books never call a queue busy or a block held when libdispatch would run it.
final class RunMonitor: @unchecked Sendable {
    private let lock = RunnableLock()
    private let program: Program
    private var books: Books

    /// What the books hold; the watchdog takes a copy (`snapshot`) to judge.
    struct Books {
        /// Which run these books are for (its index).
        var run = -1
        var inProgress = false
        /// Units of submitted work not yet done (the top-level code is one): zero ends the run.
        var outstanding = 0
        /// Threads running snippet code right now, outside a wait the interpreter makes.
        var running = 0
        /// `asyncAfter` blocks not started yet, and waits with a timeout in progress: each ends by
        /// itself, so the run is not stuck while there is one.
        var timers = 0
        /// Bumped by every event: two looks at the books with the same generation saw the same run.
        var generation: UInt64 = 0
        var waits: [Int: OwnedWait] = [:]
        var pending: [Int: PendingItem] = [:]
        var queues: [QueueState] = []
        var groupCounts: [Int] = []
        /// Notify blocks registered on a group that is not empty yet, by group, with their tokens.
        var groupNotifies: [Int: [(token: Int, item: PendingItem)]] = [:]
        var workItemsExecuted: [Bool] = []
        /// Notify blocks registered on a work item that has not executed yet, by work item.
        var workItemNotifies: [Int: [(token: Int, item: PendingItem)]] = [:]
        /// Pending tokens of submitted work items, by work item, oldest first.
        var workItemTokens: [Int: [Int]] = [:]
        /// Threads inside `item.perform()`, by thread id: the item's block runs there, not on a queue.
        var performing: [Int32: Int] = [:]
        /// `concurrentPerform` iterations not started yet.
        var iterationsPending = 0
        var operations: [ObjectIdentifier: TrackedOperation] = [:]
        var nextToken = 0
        /// The longest the machine was seen to keep a thread of the run waiting, in nanoseconds
        /// (see `Punctuality`).
        var lateness: UInt64 = 0
    }

    struct QueueState: Equatable {
        var kind: QueueKind
        var inactive: Bool
        /// Items (async blocks, sync bodies) running on the queue now.
        var running = 0
        /// Barrier items among them.
        var barriers = 0
    }

    /// A wait the interpreter makes for the snippet (sync, semaphore, group, work item, operation).
    struct OwnedWait: Equatable {
        var wait: LiveWait
        var line: Int
        var thread: Int32
        var isMainThread: Bool
    }

    /// A block submitted to a queue that has not started yet.
    struct PendingItem: Equatable {
        var queue: Int
        var barrier: Bool
        var line: Int
        /// The generation when the submitting call began, and when it returned (`.max` while it
        /// is still in progress): an item is surely behind another only when that one's call
        /// returned before this one's began.
        var callStarted: UInt64
        var callReturned: UInt64 = .max
        /// When it was submitted (uptime nanoseconds) if nothing could keep it from starting at
        /// once: a custom serial queue with nothing running or pending (it gets a thread of its
        /// own at once). `nil` when it may rightly wait.
        var idleSince: UInt64?
    }

    /// An operation added to an OperationQueue whose completion has not run yet.
    struct TrackedOperation {
        var operation: Operation
        var queue: OperationQueue
        var isMainQueue: Bool
        var id: OperationID
        var line: Int
    }

    init(program: Program) {
        self.program = program
        books = Books()
    }

    // MARK: The run

    /// Starts run `run`: the top-level code is one unit of outstanding work, running on the main
    /// thread. The generation goes on counting, so that no look at one run passes for another.
    func beginRun(_ run: Int) {
        lock.withLock {
            let generation = books.generation
            books = Books()
            books.generation = generation &+ 1
            books.run = run
            books.inProgress = true
            books.outstanding = 1
            books.running = 1
            books.queues = program.queues.map { QueueState(kind: $0.kind, inactive: $0.initiallyInactive) }
            books.groupCounts = Array(repeating: 0, count: program.groups.count)
            books.workItemsExecuted = Array(repeating: false, count: program.workItems.count)
        }
    }

    func endRun() {
        update { $0.inProgress = false }
    }

    var isDone: Bool { lock.withLock { books.outstanding == 0 } }

    /// A statement runs.
    func progress() {
        lock.withLock { books.generation &+= 1 }
    }

    /// A copy of the books, for the watchdog.
    var snapshot: Books { lock.withLock { books } }

    var generation: UInt64 { lock.withLock { books.generation } }

    /// The machine kept a thread of the run from running for `nanoseconds` beyond what the
    /// snippet asked. Returns true when that makes the run late for the first time.
    func late(by nanoseconds: UInt64) -> Bool {
        lock.withLock {
            guard books.inProgress, nanoseconds > Punctuality.tolerance else { return false }
            defer { books.lateness = max(books.lateness, nanoseconds) }
            return books.lateness <= Punctuality.tolerance
        }
    }

    /// The index of the run in progress (or last begun).
    var run: Int { lock.withLock { books.run } }

    private func update<T>(_ body: (inout Books) -> T) -> T {
        lock.withLock {
            books.generation &+= 1
            return body(&books)
        }
    }

    // MARK: Work

    /// Work that will run later is submitted (a block, a notify, an operation): the run is not
    /// over until it is done.
    func workSubmitted() {
        update { $0.outstanding += 1 }
    }

    /// A unit of work (an async block, the top-level code, an operation) is done. Returns true
    /// when it was the last one: the run is over.
    @discardableResult
    func workDone() -> Bool {
        update {
            $0.outstanding -= 1
            return $0.outstanding == 0
        }
    }

    /// The top-level code ends; the main thread goes on to serve the main queue. Returns true when
    /// the run is already over.
    func topLevelEnded() -> Bool {
        update {
            $0.running -= 1
            $0.outstanding -= 1
            return $0.outstanding == 0
        }
    }

    /// The calling thread starts running snippet code (an operation's block starts).
    func threadStarted() {
        update { $0.running += 1 }
    }

    /// The calling thread stops running snippet code (an operation's block returns).
    func threadStopped() {
        update { $0.running -= 1 }
    }

    // MARK: Queues

    /// Books a block about to be submitted to `queue`; returns its token for `submitted` and `started`.
    func submitting(to queue: QueueID, barrier: Bool, line: Int) -> Int {
        update { books in
            let token = Self.newToken(&books)
            let state = books.queues[queue.index]
            let idle = state.kind == .serial && !state.inactive && state.running == 0
                && !books.pending.values.contains { $0.queue == queue.index }
            books.pending[token] = PendingItem(
                queue: queue.index, barrier: barrier, line: line, callStarted: books.generation,
                idleSince: idle ? DispatchTime.now().uptimeNanoseconds : nil)
            return token
        }
    }

    /// The submitting call returned.
    func submitted(_ token: Int) {
        update { books in books.pending[token]?.callReturned = books.generation }
    }

    /// A submitted block starts on `queue`: no longer pending (`token`), or no longer a timer
    /// (`endingTimer`, an `asyncAfter` block). Returns how long a block that could have started
    /// at once waited for the machine to run it (0 for one that may rightly wait).
    @discardableResult
    func started(_ token: Int?, on queue: QueueID, barrier: Bool, endingTimer: Bool = false) -> UInt64 {
        update { books in
            var delay: UInt64 = 0
            if let token, let item = books.pending.removeValue(forKey: token), let since = item.idleSince {
                let now = DispatchTime.now().uptimeNanoseconds
                delay = now - min(now, since)
            }
            if endingTimer { books.timers -= 1 }
            books.running += 1
            Self.occupy(queue, barrier: barrier, by: 1, in: &books)
            return delay
        }
    }

    /// A block running on `queue` returns.
    func finished(on queue: QueueID, barrier: Bool) {
        update { books in
            books.running -= 1
            Self.occupy(queue, barrier: barrier, by: -1, in: &books)
        }
    }

    /// A sync body starts on the calling thread, which stops waiting for `queue` and holds it.
    func syncStarted(_ wait: Int, on queue: QueueID, barrier: Bool) {
        update { books in
            if books.waits.removeValue(forKey: wait) != nil { books.running += 1 }
            Self.occupy(queue, barrier: barrier, by: 1, in: &books)
        }
    }

    /// A sync body returns: the thread goes on, and the queue is free of it.
    func syncFinished(on queue: QueueID, barrier: Bool) {
        update { Self.occupy(queue, barrier: barrier, by: -1, in: &$0) }
    }

    private static func occupy(_ queue: QueueID, barrier: Bool, by change: Int, in books: inout Books) {
        books.queues[queue.index].running += change
        if barrier && books.queues[queue.index].kind == .concurrent { books.queues[queue.index].barriers += change }
    }

    /// `activate()` is about to be called: the queue's items may start.
    func activating(_ queue: QueueID) {
        update { $0.queues[queue.index].inactive = false }
    }

    // MARK: Timers

    /// An `asyncAfter` timer is set, or a wait with a timeout begins: it ends by itself.
    func timerSet() {
        update { $0.timers += 1 }
    }

    /// The timer's block starts, or the wait with a timeout returns.
    func timerEnded() {
        update { $0.timers -= 1 }
    }

    // MARK: Waits

    /// The calling thread is about to block in a wait the interpreter makes for the snippet.
    /// Returns the token `endWait` takes.
    func beginWait(_ wait: LiveWait, line: Int) -> Int {
        let thread = gcdquiz_thread_id()
        let isMain = Thread.isMainThread
        return update { books in
            let token = Self.newToken(&books)
            books.waits[token] = OwnedWait(wait: wait, line: line, thread: thread, isMainThread: isMain)
            books.running -= 1
            return token
        }
    }

    /// The wait returned: the thread runs snippet code again.
    func endWait(_ token: Int) {
        update { books in
            if books.waits.removeValue(forKey: token) != nil { books.running += 1 }
        }
    }

    /// Runs `wait` as a wait the interpreter makes for the snippet.
    func waiting<T>(in wait: LiveWait, line: Int, _ body: () -> T) -> T {
        let token = beginWait(wait, line: line)
        defer { endWait(token) }
        return body()
    }

    // MARK: Groups

    /// `enter()` is about to be called, or a block submitted with `async(group:)`.
    func groupEntered(_ group: GroupID) {
        update { $0.groupCounts[group.index] += 1 }
    }

    /// `leave()` is about to be called, or a block submitted with `async(group:)` returns: when
    /// the group empties, its notify blocks are submitted.
    func groupLeft(_ group: GroupID) {
        update { books in
            books.groupCounts[group.index] -= 1
            guard books.groupCounts[group.index] <= 0 else { return }
            for notify in books.groupNotifies.removeValue(forKey: group.index) ?? [] {
                Self.book(notify.item, as: notify.token, in: &books)
            }
        }
    }

    /// `notify` is about to be called on `group`: libdispatch submits the block at once when the
    /// group is empty, else when it empties. Returns the token its block starts with.
    func groupNotify(_ group: GroupID, queue: QueueID, line: Int) -> Int {
        update { books in
            let token = Self.newToken(&books)
            let item = PendingItem(queue: queue.index, barrier: false, line: line, callStarted: books.generation)
            if books.groupCounts[group.index] <= 0 {
                Self.book(item, as: token, in: &books)
            } else {
                books.groupNotifies[group.index, default: []].append((token, item))
            }
            return token
        }
    }

    private static func newToken(_ books: inout Books) -> Int {
        defer { books.nextToken += 1 }
        return books.nextToken
    }

    /// A notify block is submitted to its queue: pending there from now on, behind whatever was
    /// submitted before.
    private static func book(_ item: PendingItem, as token: Int, in books: inout Books) {
        var item = item
        item.callStarted = books.generation
        item.callReturned = books.generation
        books.pending[token] = item
    }

    // MARK: Work items

    /// `queue.async(execute: item)` is about to be called.
    func workItemSubmitting(_ item: WorkItemID, to queue: QueueID, barrier: Bool, line: Int) -> Int {
        let token = submitting(to: queue, barrier: barrier, line: line)
        update { $0.workItemTokens[item.index, default: []].append(token) }
        return token
    }

    /// The item's block starts: on the queue it was submitted to, or inside `perform()` on the
    /// calling thread. Returns the queue, if any, for `workItemBlockEnded`.
    func workItemBlockStarted(_ item: WorkItemID, barrier: Bool) -> QueueID? {
        let thread = gcdquiz_thread_id()
        return update { books in
            books.running += 1
            if books.performing[thread] == item.index { return nil }
            guard var tokens = books.workItemTokens[item.index], !tokens.isEmpty else { return nil }
            let token = tokens.removeFirst()
            books.workItemTokens[item.index] = tokens
            guard let pending = books.pending.removeValue(forKey: token) else { return nil }
            let queue = QueueID(index: pending.queue)
            Self.occupy(queue, barrier: barrier, by: 1, in: &books)
            return queue
        }
    }

    /// The item's block returns: it has executed, and its notify blocks are submitted.
    func workItemBlockEnded(_ item: WorkItemID, on queue: QueueID?, barrier: Bool) {
        update { books in
            books.running -= 1
            if let queue { Self.occupy(queue, barrier: barrier, by: -1, in: &books) }
            Self.workItemExecuted(item, in: &books)
        }
    }

    /// libdispatch says the item has executed (run, or skipped because it was cancelled): no
    /// submission of it is pending any more. Late news of an earlier run (an item only
    /// performed, whose notify comes after its run ended) is dropped.
    func workItemDone(_ item: WorkItemID, inRun run: Int) {
        update { books in
            guard books.run == run else { return }
            for token in books.workItemTokens.removeValue(forKey: item.index) ?? [] { books.pending[token] = nil }
            Self.workItemExecuted(item, in: &books)
        }
    }

    private static func workItemExecuted(_ item: WorkItemID, in books: inout Books) {
        books.workItemsExecuted[item.index] = true
        for notify in books.workItemNotifies.removeValue(forKey: item.index) ?? [] {
            book(notify.item, as: notify.token, in: &books)
        }
    }

    /// `item.notify(queue:)` is about to be called. Returns the token its block starts with.
    func workItemNotify(_ item: WorkItemID, queue: QueueID, line: Int) -> Int {
        update { books in
            let token = Self.newToken(&books)
            let notify = PendingItem(queue: queue.index, barrier: false, line: line, callStarted: books.generation)
            if books.workItemsExecuted[item.index] {
                Self.book(notify, as: token, in: &books)
            } else {
                books.workItemNotifies[item.index, default: []].append((token, notify))
            }
            return token
        }
    }

    /// Whether this thread is inside `item.perform()` (its block then runs from no queue).
    func isPerforming(_ item: WorkItemID) -> Bool {
        let thread = gcdquiz_thread_id()
        return update { $0.performing[thread] == item.index }
    }

    /// Runs `perform` (`item.perform()`): the item's block runs on this thread, on no queue.
    func performing(_ item: WorkItemID, _ perform: () -> Void) {
        let thread = gcdquiz_thread_id()
        update { $0.performing[thread] = item.index }
        perform()
        update { $0.performing[thread] = nil }
    }

    // MARK: concurrentPerform

    /// `concurrentPerform` begins: the calling thread stops counting as running (it runs some
    /// iterations itself, each counted as it starts, and waits for the rest).
    func iterationsSubmitted(_ count: Int) {
        update {
            $0.iterationsPending += count
            $0.running -= 1
        }
    }

    /// `concurrentPerform` returned: the calling thread runs snippet code again.
    func iterationsDone() {
        update { $0.running += 1 }
    }

    func iterationStarted() {
        update {
            $0.iterationsPending -= 1
            $0.running += 1
        }
    }

    // MARK: Operations

    /// An operation is about to be added to `queue`.
    func operationAdded(_ operation: Operation, to queue: OperationQueue, isMainQueue: Bool, id: OperationID, line: Int) {
        update {
            $0.operations[ObjectIdentifier(operation)] = TrackedOperation(
                operation: operation, queue: queue, isMainQueue: isMainQueue, id: id, line: line)
        }
    }

    /// The operation's completion starts on the calling thread: the operation has finished, and
    /// nothing of it is pending.
    func operationCompleting(_ operation: Operation?) {
        update {
            if let operation { $0.operations[ObjectIdentifier(operation)] = nil }
            $0.running += 1
        }
    }
}
