import ConcurrencyModel
import Testing

/// `bufferingPolicy:` on AsyncStream and AsyncThrowingStream, as swiftlang/swift
/// `AsyncStreamBuffer.swift` (`_Storage.yield`) decides: with nobody waiting, an element joins the
/// buffer while it holds fewer than the limit; then `.bufferingOldest(n)` drops the new element
/// and `.bufferingNewest(n)` the oldest buffered one (with a limit of 0, the new one). An element
/// for a task already waiting in `for await` is handed to it and never counts. Each answer pinned
/// by `gcdquiz verify --runs 100` and `gcdquiz run --runs 300` (swiftc -swift-version 6, 2 cores):
/// no run outside it.
@Suite struct StreamBufferingTests {
    /// The classic: five synchronous yields in the build closure keep only the newest.
    /// verify: 1 of 1 outcomes; run: `5` in 300 of 300.
    @Test func bufferingNewestKeepsTheLastElement() throws {
        #expect(try outcomeSet(explore("""
            let stream = AsyncStream(Int.self, bufferingPolicy: .bufferingNewest(1)) { continuation in
                for i in 1...5 { continuation.yield(i) }
                continuation.finish()
            }
            for await value in stream {
                print(value)
            }
            """)) == ["5"])
    }

    /// `.bufferingOldest(2)` keeps the first two. verify: 1 of 1; run: `1 2` in 300 of 300.
    @Test func bufferingOldestKeepsTheFirstElements() throws {
        #expect(try outcomeSet(explore("""
            let stream = AsyncStream<Int>(bufferingPolicy: .bufferingOldest(2)) { continuation in
                for i in 1...5 { continuation.yield(i) }
                continuation.finish()
            }
            for await value in stream {
                print(value)
            }
            """)) == ["1 2"])
    }

    /// A limit of 0 keeps nothing for a consumer not yet waiting. verify: 1 of 1 outcomes.
    @Test func aLimitOfZeroDropsEveryElementNobodyWaitsFor() throws {
        #expect(try outcomeSet(explore("""
            let stream = AsyncStream(Int.self, bufferingPolicy: .bufferingNewest(0)) { continuation in
                continuation.yield(1)
                continuation.finish()
            }
            for await value in stream {
                print(value)
            }
            print("done")
            """)) == ["done"])
    }

    /// `makeStream(of:throwing:bufferingPolicy:)` of an AsyncThrowingStream. verify: 1 of 1.
    @Test func aThrowingStreamMadeWithAPolicy() throws {
        #expect(try outcomeSet(explore("""
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self, throwing: Error.self, bufferingPolicy: .bufferingNewest(2))
            for i in 1...4 { continuation.yield(i) }
            continuation.finish()
            for try await value in stream {
                print(value)
            }
            """)) == ["3 4"])
    }

    /// A producer task on the main actor against the main actor's loop: the consumer may be
    /// waiting when 1 is yielded (it gets 1, then 3 replaces 2), or not (only 3 is left).
    /// verify: 2 of 3 outcomes in 100 runs; run: `1 3` 155, `3` 144, `2 3` 1 of 300.
    @Test func aProducerTaskAgainstAConsumer() throws {
        #expect(try outcomeSet(explore("""
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
            Task {
                for i in 1...3 { continuation.yield(i) }
                continuation.finish()
            }
            for await value in stream {
                print(value)
            }
            print("done")
            """)) == ["1 3 done", "2 3 done", "3 done"])
    }

    /// A global queue's block yields to a detached consumer: the element handed to the waiting
    /// consumer does not count against `.bufferingOldest(1)`, so up to all three arrive.
    /// verify: 2 of 4 outcomes in 100 runs; run: `1` 206, `1 2` 90, `1 2 3` 4 of 300.
    @Test func anElementHandedToTheWaitingConsumerIsNotBuffered() throws {
        #expect(try outcomeSet(explore("""
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingOldest(1))
            Task.detached {
                for await value in stream {
                    print(value)
                }
                print("done")
            }
            DispatchQueue.global().async {
                continuation.yield(1)
                continuation.yield(2)
                continuation.yield(3)
                continuation.finish()
            }
            """)) == ["1 2 3 done", "1 2 done", "1 3 done", "1 done"])
    }

    /// A function returning a stream with a policy (its element type from the return type),
    /// and a loop over its call left by `break`. verify: 1 of 1; run: `4 done` in 300 of 300.
    @Test func aStreamFunctionWithAPolicy() throws {
        #expect(try outcomeSet(explore("""
            func numbers(upTo n: Int) -> AsyncStream<Int> {
                AsyncStream(bufferingPolicy: .bufferingNewest(2)) { continuation in
                    for i in 1...n { continuation.yield(i) }
                    continuation.finish()
                }
            }
            for await x in numbers(upTo: 5) {
                if x == 5 { break }
                print(x)
            }
            print("done")
            """)) == ["4 done"])
    }

    /// A policy outside the three, or a limit not written out, is refused at its place.
    @Test func otherPoliciesAreRefused() {
        expectDiagnostics("""
            let n = 2
            let stream = AsyncStream(Int.self, bufferingPolicy: .bufferingNewest(1️⃣n)) { continuation in continuation.finish() }
            """, ["1️⃣": "the buffer's limit here is a whole number written out: .bufferingNewest(1)"])
    }
}
