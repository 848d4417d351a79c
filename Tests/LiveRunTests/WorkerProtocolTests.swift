import ConcurrencyModel
import Testing

@testable import LiveRun

@Suite struct WorkerProtocolTests {
    @Test(arguments: [
        WorkerMessage.start(run: 42), .printed("a line"), .printed("two\nlines \\ with a backslash"),
        .printed("crlf\r\nand\ttab"), .announced(.sync(queue: "serial queue"), line: 3, column: 5, thread: 77),
        .announced(.precondition(.onQueueAsBarrier, queue: "DispatchQueue.global(qos: .utility)"), line: 1, column: 1, thread: 2),
        .announced(.addOperation(operation: "a, b", queue: "queue"), line: 9, column: 3, thread: 5),
        .announced(.addExecutionBlock(operation: "op"), line: 2, column: 7, thread: 9),
        .announced(.setTarget(queue: "db.reads"), line: 4, column: 1, thread: 3),
        .announced(.workItem(call: "async(execute: item)"), line: 6, column: 1, thread: WorkerMessage.anyThread),
        .cleared(thread: 77), .dying(thread: 77, signal: 4), .expect(microseconds: 250_000), .finished,
        .hung("no progress"), .gaveUp("the pool\tstopped"), .child(pid: 1234), .childEnded(signal: 4, status: 0),
    ])
    func messagesSurviveTheWire(_ message: WorkerMessage) {
        let encoded = message.encoded
        #expect(encoded.hasSuffix("\n"))
        #expect(encoded.utf8.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(WorkerMessage(line: encoded.dropLast()) == message)
    }

    @Test func junkIsNotAMessage() {
        #expect(WorkerMessage(line: "") == nil)
        #expect(WorkerMessage(line: "S notanumber") == nil)
        #expect(WorkerMessage(line: "Z what") == nil)
        #expect(WorkerMessage(line: "A 1 2 3 nosuchcall\tq") == nil)
        #expect(WorkerMessage(line: "T 12") == nil)
        #expect(BatchCommand(line: "R 1") == nil)
        #expect(BatchCommand(line: "R 10 990") == BatchCommand(firstRun: 10, count: 990))
    }

    /// What the child's signal handler (C) writes is a message the parent reads.
    @Test func theDyingThreadsLineParses() {
        #expect(WorkerMessage(line: "T 4242 4") == .dying(thread: 4242, signal: 4))
    }
}

@Suite struct JitterTests {
    @Test func theSameSeedGivesTheSamePlan() {
        let a = Jitter(seed: 7, run: 3)
        let b = Jitter(seed: 7, run: 3)
        #expect(a.chance == b.chance && a.longest == b.longest && a.runSeed == b.runSeed)
    }

    @Test func runsDrawDifferentTemperaments() {
        let styles = Set((0..<200).map { Jitter(seed: 1, run: $0).chance })
        #expect(styles.count == 5)
        #expect(styles.contains(0))
    }

    /// The points keep the bits they had when they were packed by hand, so a seed still
    /// reproduces the same pauses; and no two kinds of point collide.
    @Test func jitterPointsAreDistinctAndStable() {
        let block = BlockID(index: 3)
        #expect(JitterPoint.statement(5, in: block).bits == 3 << 32 | 5)
        #expect(JitterPoint.write(5, in: block).bits == 3 << 32 | 5 | 1 << 31)
        #expect(JitterPoint.start(of: block).bits == 3 << 32 | 0xFFFF_FFFF)
        let points: Set<JitterPoint> = [.statement(0, in: block), .write(0, in: block), .start(of: block), .statement(0, in: BlockID(index: 4))]
        #expect(points.count == 4)
    }
}
