import ConcurrencyModel
import Foundation
import Testing

@testable import LiveRun

/// When the books say a run is stuck, waits for time, or only waits for a worker thread: each
/// rule on books set up by hand, as the interpreter's threads would leave them.
@Suite struct StuckAnalysisTests {
    typealias Books = RunMonitor.Books

    static let program = try! SnippetCompiler.compile("""
        let s = DispatchSemaphore(value: 0)
        let inactive = DispatchQueue(label: "inactive", attributes: .initiallyInactive)
        DispatchQueue.main.async { }
        DispatchQueue.global().async { }
        inactive.async { }
        let queue = OperationQueue()
        let op = BlockOperation { }
        s.wait()
        """).get()

    static func queue(_ name: String) -> Int { program.queues.firstIndex { $0.name == name }! }
    static let s = SemaphoreID(index: program.semaphores.firstIndex { $0.name == "s" }!)
    static let operationQueue = OperationQueueID(index: program.operationQueues.firstIndex { $0.name == "queue" }!)
    static let op = OperationID(index: program.operations.firstIndex { $0.name == "op" }!)

    /// What the learner reads of a stuck verdict, nil for any other.
    static func said(_ verdict: StuckAnalysis.Verdict) -> [String]? {
        guard case .stuck(let holds) = verdict else { return nil }
        return LiveNarration(program: program).sentences(holds)
    }

    /// A run in progress with `outstanding` work and nothing running.
    static func books(outstanding: Int = 2) -> Books {
        let monitor = RunMonitor(program: program)
        monitor.beginRun(0)
        var books = monitor.snapshot
        books.outstanding = outstanding
        books.running = 0
        return books
    }

    static func wait(_ wait: LiveWait, line: Int, main: Bool = false) -> RunMonitor.OwnedWait {
        RunMonitor.OwnedWait(wait: wait, line: line, thread: main ? 1 : 2, isMainThread: main)
    }

    static func pending(_ queue: String, barrier: Bool = false, line: Int = 9, at generation: UInt64 = 10) -> RunMonitor.PendingItem {
        RunMonitor.PendingItem(queue: Self.queue(queue), barrier: barrier, line: line, callStarted: generation, callReturned: generation + 1)
    }

    @Test func aMainThreadWaitingForASemaphoreNobodySignalsIsStuck() {
        var books = Self.books(outstanding: 1)
        books.waits[0] = Self.wait(.semaphore(Self.s), line: 6, main: true)
        #expect(Self.said(StuckAnalysis.verdict(books, operations: [])) == ["the main thread waits in s.wait() at line 6"])
    }

    @Test func aRunningThreadOrAPendingTimerIsNotAHang() {
        var books = Self.books()
        books.waits[0] = Self.wait(.semaphore(Self.s), line: 6, main: true)
        books.running = 1
        #expect(StuckAnalysis.verdict(books, operations: []) == .busy)
        books.running = 0
        books.timers = 1
        #expect(StuckAnalysis.verdict(books, operations: []) == .waitingForTime)
    }

    /// The issue's semaphore case: workers blocked, one more block on a global queue waiting for
    /// the pool to grow. Not a hang, however long libdispatch takes.
    @Test func aBlockWaitingForAWorkerThreadIsASlowPoolNotAHang() {
        var books = Self.books()
        books.waits[0] = Self.wait(.semaphore(Self.s), line: 4)
        books.waits[1] = Self.wait(.semaphore(Self.s), line: 4)
        books.pending[2] = Self.pending("DispatchQueue.global()")
        #expect(StuckAnalysis.verdict(books, operations: []) == .waitingForWorkers(1))
    }

    @Test func aBlockBehindABusySerialQueueIsHeld() {
        var books = Self.books()
        books.waits[0] = Self.wait(.semaphore(Self.s), line: 3)
        books.queues[Self.queue("serialQueue")].running = 1
        books.pending[1] = Self.pending("serialQueue", line: 5)
        #expect(Self.said(StuckAnalysis.verdict(books, operations: [])) == ["a thread waits in s.wait() at line 3",
                            "the block submitted at line 5 waits for serialQueue, busy with a block that cannot finish"])
        books.queues[Self.queue("serialQueue")].running = 0
        #expect(StuckAnalysis.verdict(books, operations: []) == .waitingForWorkers(1))
    }

    @Test func mainQueueBlocksWaitForTheMainThreadOnlyWhileItIsBlocked() {
        var books = Self.books()
        books.pending[1] = Self.pending("DispatchQueue.main")
        books.waits[0] = Self.wait(.semaphore(Self.s), line: 6, main: true)
        #expect(StuckAnalysis.verdict(books, operations: []) != .waitingForWorkers(1))
        books.waits[0] = Self.wait(.semaphore(Self.s), line: 6, main: false)
        #expect(StuckAnalysis.verdict(books, operations: []) == .waitingForWorkers(1))
    }

    @Test func anInactiveQueueHoldsItsBlocks() {
        var books = Self.books()
        books.pending[1] = Self.pending("inactive")
        #expect(Self.said(StuckAnalysis.verdict(books, operations: [])) == ["the block submitted at line 9 waits for inactive, which was never activated"])
    }

    @Test func barriersOnAConcurrentQueue() {
        var books = Self.books()
        let concurrent = Self.queue("concurrentQueue")
        books.waits[0] = Self.wait(.semaphore(Self.s), line: 3)
        books.queues[concurrent].running = 1
        // A barrier waits for the running block; a plain block submitted after it waits too.
        books.pending[1] = Self.pending("concurrentQueue", barrier: true, at: 10)
        books.pending[2] = Self.pending("concurrentQueue", at: 20)
        guard case .stuck = StuckAnalysis.verdict(books, operations: []) else {
            Issue.record("not stuck")
            return
        }
        // A plain block submitted while the barrier's call was still in progress may be ahead of it.
        books.pending[2] = Self.pending("concurrentQueue", at: 10)
        #expect(StuckAnalysis.verdict(books, operations: []) == .waitingForWorkers(1))
        // A running barrier holds every block.
        books.pending[1] = nil
        books.queues[concurrent].barriers = 1
        guard case .stuck = StuckAnalysis.verdict(books, operations: []) else {
            Issue.record("not stuck")
            return
        }
    }

    @Test func operationsAreJudgedByWhatFoundationSays() {
        var books = Self.books()
        books.waits[0] = Self.wait(.allOperations(Self.operationQueue), line: 8, main: true)
        let queue = ObjectIdentifier(NSObject())
        func facts(ready: Bool = true, finished: Bool = false, suspended: Bool = false, limit: Int? = nil, executing: Bool = false) -> StuckAnalysis.OperationFacts {
            .init(operation: Self.op, line: 4, queue: queue, isMainQueue: false, isFinished: finished, isExecuting: executing, isReady: ready,
                  queueSuspended: suspended, queueLimit: limit)
        }
        #expect(StuckAnalysis.verdict(books, operations: [facts()]) == .waitingForWorkers(1))
        #expect(StuckAnalysis.verdict(books, operations: [facts(finished: true)]) == .waitingForWorkers(1))
        #expect(Self.said(StuckAnalysis.verdict(books, operations: [facts(ready: false)])) == [
            "the main thread waits in queue.waitUntilAllOperationsAreFinished() at line 8",
            "operation op (line 4) waits for a dependency that never finishes",
        ])
        guard case .stuck = StuckAnalysis.verdict(books, operations: [facts(suspended: true)]),
            case .stuck = StuckAnalysis.verdict(books, operations: [facts(limit: 1), facts(executing: true)])
        else {
            Issue.record("not stuck")
            return
        }
    }

    @Test func notifyBlocksWaitForTheirGroup() {
        var books = Self.books()
        books.groupNotifies[0] = [(token: 5, item: Self.pending("serialQueue", line: 7))]
        #expect(Self.said(StuckAnalysis.verdict(books, operations: [])) == ["a group's notify block (line 7) waits for the group to empty"])
    }
}

/// The books as the interpreter keeps them, through the monitor's own calls.
@Suite struct RunMonitorTests {
    static let program = try! SnippetCompiler.compile("""
        let g = DispatchGroup()
        g.enter()
        g.notify(queue: serialQueue) { print(1) }
        g.leave()
        """).get()

    @Test func aGroupsNotifyIsSubmittedWhenTheGroupEmpties() {
        let monitor = RunMonitor(program: Self.program)
        monitor.beginRun(0)
        let group = GroupID(index: 0)
        let serial = QueueID(index: Self.program.queues.firstIndex { $0.name == "serialQueue" }!)
        monitor.groupEntered(group)
        let token = monitor.groupNotify(group, queue: serial, line: 3)
        #expect(monitor.snapshot.pending.isEmpty)
        monitor.groupLeft(group)
        #expect(monitor.snapshot.pending[token]?.queue == serial.index)
        monitor.started(token, on: serial, barrier: false)
        #expect(monitor.snapshot.pending.isEmpty)
        #expect(monitor.snapshot.queues[serial.index].running == 1)
    }

    @Test func aSyncBodyHoldsItsQueueAndTheThreadRunsAgainAfterwards() {
        let monitor = RunMonitor(program: Self.program)
        monitor.beginRun(0)
        let serial = QueueID(index: Self.program.queues.firstIndex { $0.name == "serialQueue" }!)
        let wait = monitor.beginWait(.sync(serial), line: 1)
        #expect(monitor.snapshot.running == 0)
        monitor.syncStarted(wait, on: serial, barrier: false)
        #expect(monitor.snapshot.running == 1 && monitor.snapshot.queues[serial.index].running == 1)
        monitor.syncFinished(on: serial, barrier: false)
        monitor.endWait(wait)
        #expect(monitor.snapshot.running == 1 && monitor.snapshot.queues[serial.index].running == 0)
        #expect(monitor.snapshot.waits.isEmpty)
    }
}
