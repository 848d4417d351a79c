import Testing

@testable import LiveRun

@Suite struct WorkerProtocolTests {
    @Test(arguments: [
        WorkerMessage.start(run: 42), .printed("a line"), .printed("two\nlines \\ with a backslash"),
        .syncing(queue: "serial queue", line: 3, column: 5), .finished, .hung("no progress"),
        .child(pid: 1234), .childEnded(signal: 4, status: 0),
    ])
    func messagesSurviveTheWire(_ message: WorkerMessage) {
        let encoded = message.encoded
        #expect(encoded.hasSuffix("\n"))
        #expect(encoded.dropLast().contains("\n") == false)
        #expect(WorkerMessage(line: encoded.dropLast()) == message)
    }

    @Test func junkIsNotAMessage() {
        #expect(WorkerMessage(line: "") == nil)
        #expect(WorkerMessage(line: "S notanumber") == nil)
        #expect(WorkerMessage(line: "Z what") == nil)
        #expect(BatchCommand(line: "R 1") == nil)
        #expect(BatchCommand(line: "R 10 990") == BatchCommand(firstRun: 10, count: 990))
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
}

@Suite struct EndingClassificationTests {
    @Test func libdispatchTrapIsADeadlock() {
        let (end, reason) = LiveRunner.classify(signal: 4, status: 0, stderr: "", lastSync: "serialQueue.sync at line 3")
        #expect(end == .deadlock)
        #expect(reason.contains("serialQueue.sync at line 3"))
        #expect(reason.contains("dispatch_sync called on queue already owned by current thread"))
    }

    @Test func swiftRuntimeErrorIsACrash() {
        let (end, _) = LiveRunner.classify(signal: 4, status: 0, stderr: "x.swift:1: Fatal error: boom\n", lastSync: nil)
        #expect(end == .crash)
    }

    @Test func foundationStoppingAMisusedOperationIsTheSnippetsEnding() {
        let stderr = "Swift/ErrorType.swift:1: warning\nFoundation/Operation.swift:1196: Fatal error: operations finished, executing or already in a queue cannot be enqueued\n"
        let (end, reason) = LiveRunner.classify(signal: 4, status: 0, stderr: stderr, lastSync: nil)
        #expect(end == .deadlock)
        #expect(reason == "Foundation stops the process: operations finished, executing or already in a queue cannot be enqueued")
    }

    @Test func otherSignalsAndExitsAreCrashes() {
        #expect(LiveRunner.classify(signal: 11, status: 0, stderr: "", lastSync: nil).0 == .crash)
        #expect(LiveRunner.classify(signal: 11, status: 0, stderr: "", lastSync: nil).1.contains("SIGSEGV"))
        #expect(LiveRunner.classify(signal: 0, status: 3, stderr: "", lastSync: nil).0 == .crash)
    }
}
