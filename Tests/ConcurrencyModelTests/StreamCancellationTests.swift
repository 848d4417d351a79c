import ConcurrencyModel
import Testing

/// Cancelling a task that iterates an AsyncStream: `next()` runs inside
/// `withTaskCancellationHandler` whose handler cancels the storage (swiftlang/swift
/// `AsyncStreamBuffer.swift`, `_Storage.next()` and `cancel()`: `onTermination`, then `finish()`),
/// so the stream is finished for good: the loop takes what is buffered and ends, later yields are
/// dropped. Each answer pinned by `gcdquiz verify --runs 100` and `gcdquiz run --runs 300`
/// (swiftc -swift-version 6, 2 cores): no run outside it.
@Suite struct StreamCancellationTests {
    /// The consumer waits in `for await` when it is cancelled: its loop ends, and the yield
    /// after it goes nowhere. run: 300 of 300.
    @Test func cancellingAWaitingConsumerEndsItsLoop() throws {
        #expect(try outcomeSet(explore("""
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let consumer = Task {
                for await value in stream {
                    print(value)
                }
                print("loop ended")
            }
            continuation.yield(1)
            try? await Task.sleep(for: .milliseconds(100))
            consumer.cancel()
            await consumer.value
            continuation.yield(2)
            print("done")
            """)) == ["1 loop ended done"])
    }

    /// Cancelled before its first `next()`: the stream is finished then, but what was yielded
    /// before still comes out. run: 300 of 300.
    @Test func aConsumerCancelledBeforeItStartsStillTakesTheBuffer() throws {
        #expect(try outcomeSet(explore("""
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            continuation.yield(1)
            continuation.yield(2)
            let consumer = Task {
                for await value in stream {
                    print(value)
                }
                print("loop ended")
            }
            consumer.cancel()
            continuation.yield(3)
            await consumer.value
            print("done")
            """)) == ["1 2 3 loop ended done"])
    }
}
