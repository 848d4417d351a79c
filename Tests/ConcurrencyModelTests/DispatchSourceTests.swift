import Testing
@testable import ConcurrencyModel

/// DispatchSourceTimer and asyncAndWait (issue 25). Every outcome set here was checked against
/// swiftc 6.3 on Linux with `gcdquiz verify` (the prelude in front, 30 runs each, every run the
/// one outcome the model gives); asyncAndWait through `AsyncAndWaitShim`, which calls
/// libdispatch's exported `dispatch_async_and_wait_f`.
@Suite struct DispatchSourceTests {
    /// A source is made inactive: scheduled and handled, but never resumed, it never fires.
    @Test func aTimerThatIsNeverResumedNeverFires() throws {
        let exploration = try explore("""
            let timer = DispatchSource.makeTimerSource(queue: serialQueue)
            timer.schedule(deadline: .now() + 0.1)
            timer.setEventHandler { print("tick") }
            print("A")
            """)
        #expect(outcomeSet(exploration) == ["A"])
    }

    @Test func aRepeatingTimerFiresUntilItsHandlerCancelsIt() throws {
        let exploration = try explore("""
            var count = 0
            let timer = DispatchSource.makeTimerSource(queue: serialQueue)
            timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
            timer.setEventHandler {
                count += 1
                print("tick \\(count)")
                if count == 3 { timer.cancel() }
            }
            timer.setCancelHandler { print("cancelled") }
            timer.resume()
            print("started")
            """)
        #expect(outcomeSet(exploration) == ["started tick 1 tick 2 tick 3 cancelled"])
        #expect(exploration.races.isEmpty)
    }

    /// The source holds its target while it runs all it has: the cancel handler comes before
    /// a block submitted to the target during the event handler.
    @Test func theCancelHandlerRunsRightAfterTheEventHandler() throws {
        let exploration = try explore("""
            let timer = DispatchSource.makeTimerSource(queue: serialQueue)
            timer.schedule(deadline: .now() + 0.1)
            timer.setEventHandler {
                print("event")
                serialQueue.async { print("async") }
                timer.cancel()
                print("after cancel")
            }
            timer.setCancelHandler { print("cancel handler") }
            timer.resume()
            """)
        #expect(outcomeSet(exploration) == ["event after cancel cancel handler async"])
        let witness = try #require(exploration.reports.first?.witness)
        #expect(witness.map(exploration.narrator.action).contains { $0.contains("timer.cancel(): the timer stops") })
    }

    /// Ten periods pass while the main thread sleeps: the fires merge into one handler run.
    @Test func firesMergeWhileTheHandlerWaits() throws {
        let exploration = try explore("""
            var count = 0
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now(), repeating: .milliseconds(100))
            timer.setEventHandler {
                count += 1
                print("tick \\(count)")
                if count == 2 { timer.cancel() }
            }
            timer.resume()
            Thread.sleep(forTimeInterval: 1)
            print("awake")
            """)
        #expect(outcomeSet(exploration) == ["awake tick 1 tick 2"])
    }

    /// A fire whose handler had not started when the source was cancelled is dropped; a source
    /// cancelled before it was resumed delivers its cancel handler once resumed.
    @Test func cancelDropsAWaitingFire() throws {
        #expect(outcomeSet(try explore("""
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + 0.1)
            timer.setEventHandler { print("fired") }
            timer.setCancelHandler { print("cancelled") }
            timer.resume()
            Thread.sleep(forTimeInterval: 0.3)
            print("awake")
            timer.cancel()
            """)) == ["awake cancelled"])
        #expect(outcomeSet(try explore("""
            let timer = DispatchSource.makeTimerSource(queue: serialQueue)
            timer.schedule(deadline: .now() + 0.1)
            timer.setEventHandler { print("fired") }
            timer.setCancelHandler { print("cancelled") }
            timer.cancel()
            print("A")
            timer.resume()
            """)) == ["A cancelled"])
    }

    @Test func whatTheModelDoesNotKnowIsAnError() throws {
        let found = problems("""
            let timer = DispatchSource.makeTimerSource(queue: serialQueue)
            timer.schedule(deadline: .now() + 0.1, repeating: 0.1, leeway: .milliseconds(10))
            timer.setEventHandler { print("tick") }
            timer.resume()
            timer.suspend()
            let signals = DispatchSource.makeSignalSource(signal: 2, queue: .main)
            let wide = DispatchSource.makeTimerSource(queue: concurrentQueue)
            serialQueue.asyncAndWait(flags: .barrier) { print("x") }
            let item = DispatchWorkItem { print("y") }
            serialQueue.asyncAndWait(execute: item)
            """).map(\.message)
        #expect(found.contains { $0.contains("never cancelled fires for ever") })
        #expect(found.contains { $0.contains("'suspend' is outside the supported subset") })
        #expect(found.contains { $0.contains("only timers") })
        #expect(found.contains { $0.contains("custom concurrent queue") })
        #expect(found.contains { $0.contains("asyncAndWait(flags:)") })
        #expect(found.contains { $0.contains("asyncAndWait(execute:) with a DispatchWorkItem") })
        #expect(!found.contains { $0.contains("leeway") })
    }

    /// An idle queue lets the caller run the block; a busy one's drain thread runs it after
    /// the blocks before it; the main queue's always run on the main thread.
    @Test func asyncAndWaitRunsOnTheCallerOnlyWhenTheQueueIsFree() throws {
        #expect(outcomeSet(try explore("""
            serialQueue.asyncAndWait { print("1", Thread.isMainThread) }
            serialQueue.async {
                Thread.sleep(forTimeInterval: 0.1)
                print("2", Thread.isMainThread)
            }
            serialQueue.asyncAndWait { print("3", Thread.isMainThread) }
            print("4")
            """)) == ["1 true 2 false 3 false 4"])
        #expect(outcomeSet(try explore("""
            concurrentQueue.asyncAndWait { print("2", Thread.isMainThread) }
            DispatchQueue.global().async {
                DispatchQueue.main.asyncAndWait { print("3", Thread.isMainThread) }
                print("4")
            }
            print("5")
            """)) == ["2 true 5 3 true 4"])
    }

    @Test func asyncAndWaitOntoTheQueueItRunsOnTraps() throws {
        let exploration = try explore("""
            serialQueue.async {
                print("A")
                serialQueue.asyncAndWait { print("B") }
                print("C")
            }
            """)
        #expect(outcomeSet(exploration) == ["A deadlock"])
        let words = try #require(exploration.reports.first?.deadlock.map(exploration.narrator.words(for:)))
        #expect(words.contains("serialQueue.asyncAndWait on a queue it already owns"))
        #expect(outcomeSet(try explore("""
            print("before")
            DispatchQueue.main.asyncAndWait { print("inside") }
            """)) == ["before deadlock"])
    }
}
