import ConcurrencyModel
import Foundation

/// Judges a run from a copy of its books: is anything running, will a timer end a wait, is a
/// block only waiting for a worker thread, or is every piece of remaining work held by something
/// that only the run's own blocked threads could release? Pure, so that each rule is tested alone.
enum StuckAnalysis {
    enum Verdict: Equatable {
        /// Nothing to judge: no run, or snippet code is running (a thread computing or sleeping).
        case busy
        /// Nothing runs, but a timer or a wait with a timeout will end by itself.
        case waitingForTime
        /// Nothing runs, but these many blocks could start at once if libdispatch (or Foundation)
        /// gave them a thread: a slow thread pool, not a hang.
        case waitingForWorkers(Int)
        /// Nothing runs, nothing is due, and every remaining piece of work is held: what holds it
        /// (worded by `LiveNarration`).
        case stuck([LiveHold])
    }

    /// What Foundation says about an added operation, read outside the books' lock.
    struct OperationFacts: Equatable {
        var operation: OperationID
        var line: Int
        /// The operation queue, to count what it runs.
        var queue: ObjectIdentifier
        var isMainQueue: Bool
        var isFinished: Bool
        var isExecuting: Bool
        var isReady: Bool
        var queueSuspended: Bool
        /// `maxConcurrentOperationCount`, or nil for no limit.
        var queueLimit: Int?
    }

    static func verdict(_ books: RunMonitor.Books, operations: [OperationFacts]) -> Verdict {
        guard books.inProgress, books.outstanding > 0, books.running <= 0 else { return .busy }
        if books.timers > 0 { return .waitingForTime }
        let mainThreadWaits = books.waits.values.contains { $0.isMainThread }
        var held: [LiveHold] = []
        var ready = books.iterationsPending
        for item in books.pending.values.sorted(by: { $0.callStarted < $1.callStarted }) {
            if let holder = holder(of: item, books: books, mainThreadWaits: mainThreadWaits) {
                held.append(.block(line: item.line, heldBy: holder))
            } else {
                ready += 1
            }
        }
        let executing = Dictionary(grouping: operations.filter(\.isExecuting), by: \.queue).mapValues(\.count)
        for operation in operations where !operation.isExecuting {
            if let holder = holder(of: operation, executing: executing[operation.queue] ?? 0, mainThreadWaits: mainThreadWaits) {
                held.append(.operation(operation.operation, line: operation.line, heldBy: holder))
            } else {
                ready += 1
            }
        }
        if ready > 0 { return .waitingForWorkers(ready) }
        let waits = books.waits.values.sorted { ($0.line, $0.thread) < ($1.line, $1.thread) }.map { wait in
            LiveHold.wait(wait.wait, line: wait.line, onMainThread: wait.isMainThread)
        }
        let notifies = books.groupNotifies.flatMap { group, list in
            list.map { LiveHold.groupNotify(GroupID(index: group), line: $0.item.line) }
        } + books.workItemNotifies.flatMap { item, list in
            list.map { LiveHold.workItemNotify(WorkItemID(index: item), line: $0.item.line) }
        }
        return .stuck(waits + held + notifies)
    }

    /// Why a pending block cannot start now whatever the thread pool does, or nil if it could.
    static func holder(of item: RunMonitor.PendingItem, books: RunMonitor.Books, mainThreadWaits: Bool) -> LiveHolder? {
        let id = QueueID(index: item.queue)
        let queue = books.queues[item.queue]
        let behind = books.pending.values.contains { other in
            other.queue == item.queue && other.callReturned < item.callStarted && (queue.kind.isSerial || other.barrier || item.barrier)
        }
        switch queue.kind {
        case .global, .cooperative, .actor:
            return nil
        case .main:
            return mainThreadWaits ? .blockedMainThread : nil
        case .serial:
            if queue.inactive { return .inactiveQueue(id) }
            if queue.running > 0 { return .busySerialQueue(id) }
            return behind ? .blockAhead(id) : nil
        case .concurrent:
            if queue.inactive { return .inactiveQueue(id) }
            if item.barrier && queue.running > 0 { return .runningBlocks(id) }
            if queue.barriers > 0 { return .runningBarrier(id) }
            return behind ? .barrierAhead(id) : nil
        }
    }

    /// Why an added operation that is not executing cannot start now, or nil if it could (or has
    /// finished and its completion block waits for a thread).
    static func holder(of operation: OperationFacts, executing: Int, mainThreadWaits: Bool) -> LiveHolder? {
        if operation.isFinished { return nil }
        if operation.queueSuspended { return .suspendedOperationQueue }
        if !operation.isReady { return .unfinishedDependency }
        if let limit = operation.queueLimit, executing >= limit { return .noFreeSlot(limit: limit) }
        if operation.isMainQueue && mainThreadWaits { return .blockedMainThread }
        return nil
    }
}
