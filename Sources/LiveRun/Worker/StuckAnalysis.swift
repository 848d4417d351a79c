import DispatchModel
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
        /// Nothing runs, nothing is due, and every remaining piece of work is held: what holds it.
        case stuck([String])
    }

    /// What Foundation says about an added operation, read outside the books' lock.
    struct OperationFacts: Equatable {
        var name: String
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
        var held: [String] = []
        var ready = books.iterationsPending
        for item in books.pending.values.sorted(by: { $0.callStarted < $1.callStarted }) {
            if let reason = holder(of: item, books: books, mainThreadWaits: mainThreadWaits) {
                held.append("the block submitted at line \(item.line) waits for \(reason)")
            } else {
                ready += 1
            }
        }
        let executing = Dictionary(grouping: operations.filter(\.isExecuting), by: \.queue).mapValues(\.count)
        for operation in operations where !operation.isExecuting {
            if let reason = holder(of: operation, executing: executing[operation.queue] ?? 0, mainThreadWaits: mainThreadWaits) {
                held.append("operation \(operation.name) (line \(operation.line)) waits for \(reason)")
            } else {
                ready += 1
            }
        }
        if ready > 0 { return .waitingForWorkers(ready) }
        let waits = books.waits.values.sorted { ($0.line, $0.thread) < ($1.line, $1.thread) }.map { wait in
            "\(wait.isMainThread ? "the main thread" : "a thread") waits in \(wait.text) at line \(wait.line)"
        }.countingDuplicates()
        let notifies = books.groupNotifies.values.flatMap { $0 }.map { "a group's notify block (line \($0.item.line)) waits for the group to empty" }
            + books.workItemNotifies.values.flatMap { $0 }.map { "a work item's notify block (line \($0.item.line)) waits for the item to run" }
        return .stuck(waits + held.countingDuplicates() + notifies.sorted().countingDuplicates())
    }

    /// Why a pending block cannot start now whatever the thread pool does, or nil if it could.
    static func holder(of item: RunMonitor.PendingItem, books: RunMonitor.Books, mainThreadWaits: Bool) -> String? {
        let queue = books.queues[item.queue]
        let behind = books.pending.values.contains { other in
            other.queue == item.queue && other.callReturned < item.callStarted && (queue.kind.isSerial || other.barrier || item.barrier)
        }
        switch queue.kind {
        case .global:
            return nil
        case .main:
            return mainThreadWaits ? "the main thread, which is blocked" : nil
        case .serial:
            if queue.inactive { return "\(queue.name), which was never activated" }
            if queue.running > 0 { return "\(queue.name), busy with a block that cannot finish" }
            return behind ? "\(queue.name), behind another block" : nil
        case .concurrent:
            if queue.inactive { return "\(queue.name), which was never activated" }
            if item.barrier && queue.running > 0 { return "\(queue.name) to empty (a barrier), which it never does" }
            if queue.barriers > 0 { return "a barrier on \(queue.name) that cannot finish" }
            return behind ? "\(queue.name), behind a barrier" : nil
        }
    }

    /// Why an added operation that is not executing cannot start now, or nil if it could (or has
    /// finished and its completion block waits for a thread).
    static func holder(of operation: OperationFacts, executing: Int, mainThreadWaits: Bool) -> String? {
        if operation.isFinished { return nil }
        if operation.queueSuspended { return "its queue, which is suspended" }
        if !operation.isReady { return "a dependency that never finishes" }
        if let limit = operation.queueLimit, executing >= limit { return "a free slot in its queue (maxConcurrentOperationCount \(limit))" }
        if operation.isMainQueue && mainThreadWaits { return "the main thread, which is blocked" }
        return nil
    }
}

extension Array where Element == String {
    /// The same sentence said by several threads or blocks once, with how many: "a thread
    /// waits…" twice becomes "2×: a thread waits…". Order of first appearance is kept.
    func countingDuplicates() -> [String] {
        var counts: [String: Int] = [:]
        for sentence in self { counts[sentence, default: 0] += 1 }
        var said: Set<String> = []
        return compactMap { sentence in
            guard said.insert(sentence).inserted else { return nil }
            let count = counts[sentence] ?? 1
            return count == 1 ? sentence : "\(count)× \(sentence)"
        }
    }
}
