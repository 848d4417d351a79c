import ConcurrencyModel
import Testing

@testable import LiveRun

/// The words a hung live run reports: each wait worded as the Swift call the snippet makes, and
/// a list of holds said once per sentence, notify blocks last.
@Suite struct LiveNarrationTests {
    static let program = try! SnippetCompiler.compile("""
        let g = DispatchGroup()
        let s = DispatchSemaphore(value: 0)
        let item = DispatchWorkItem { }
        let queue = OperationQueue()
        let op = BlockOperation { }
        queue.addOperation(op)
        """).get()
    static let narration = LiveNarration(program: program)
    static let g = GroupID(index: program.groups.firstIndex { $0.name == "g" }!)
    static let s = SemaphoreID(index: program.semaphores.firstIndex { $0.name == "s" }!)
    static let item = WorkItemID(index: program.workItems.firstIndex { $0.name == "item" }!)
    static let queue = OperationQueueID(index: program.operationQueues.firstIndex { $0.name == "queue" }!)
    static let op = OperationID(index: program.operations.firstIndex { $0.name == "op" }!)
    static let serialQueue = QueueID(index: program.queues.firstIndex { $0.name == "serialQueue" }!)

    @Test func eachWaitIsTheCallTheSnippetMakes() {
        let calls: [(LiveWait, String)] = [
            (.sync(Self.serialQueue), "serialQueue.sync"),
            (.group(Self.g), "g.wait()"),
            (.semaphore(Self.s), "s.wait()"),
            (.timeout(.group(Self.g)), "g.wait(timeout:)"),
            (.timeout(.semaphore(Self.s)), "s.wait(timeout:)"),
            (.workItem(Self.item), "item.wait()"),
            (.operation(Self.op), "op.waitUntilFinished()"),
            (.allOperations(Self.queue), "queue.waitUntilAllOperationsAreFinished()"),
            (.addedOperations(Self.queue), "queue.addOperations(_:waitUntilFinished: true)"),
        ]
        for (wait, call) in calls {
            #expect(Self.narration.call(wait) == call)
        }
    }

    @Test func theSameSentenceIsSaidOnceWithItsCountAndNotifiesComeLast() {
        let holds: [LiveHold] = [
            .workItemNotify(Self.item, line: 10),
            .wait(.semaphore(Self.s), line: 4, onMainThread: false),
            .groupNotify(Self.g, line: 7),
            .block(line: 5, heldBy: .busySerialQueue(Self.serialQueue)),
            .wait(.semaphore(Self.s), line: 4, onMainThread: false),
            .groupNotify(Self.g, line: 10),
            .operation(Self.op, line: 6, heldBy: .noFreeSlot(limit: 1)),
            .wait(.sync(Self.serialQueue), line: 2, onMainThread: true),
        ]
        #expect(Self.narration.sentences(holds) == [
            "2× a thread waits in s.wait() at line 4",
            "the main thread waits in serialQueue.sync at line 2",
            "the block submitted at line 5 waits for serialQueue, busy with a block that cannot finish",
            "operation op (line 6) waits for a free slot in its queue (maxConcurrentOperationCount 1)",
            "a group's notify block (line 10) waits for the group to empty",
            "a group's notify block (line 7) waits for the group to empty",
            "a work item's notify block (line 10) waits for the item to run",
        ])
        #expect(Self.narration.hung(Array(holds.prefix(2))) ==
            "a thread waits in s.wait() at line 4; a work item's notify block (line 10) waits for the item to run")
    }
}
