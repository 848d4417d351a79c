import ConcurrencyModel
import Testing

/// A function returning the AsyncStream it makes (`Lowering+StreamFunctions`), pinned by
/// `gcdquiz verify --runs 200` (swiftc -swift-version 6, 2 cores) of each snippet.
@Suite struct StreamFunctionTests {
    /// Outside snippet sc3-10: `let stream = AsyncStream { … }` then `return stream`, the element
    /// type taken from the return type. verify: "1 2 3 finished" in 200 of 200.
    @Test func aFunctionReturningItsStream() throws {
        #expect(try outcomeSet(explore("""
            func getStream() -> AsyncStream<Int> {
                let stream = AsyncStream { stream in
                    stream.yield(1)
                    stream.yield(2)
                    stream.yield(3)
                    stream.finish()
                }

                return stream
            }

            for await x in getStream() {
                print(x)
            }

            print("finished")
            """)) == ["1 2 3 finished"])
    }

    /// A parameter, and each call a new stream. verify: one outcome in 200 of 200.
    @Test func eachCallMakesANewStream() throws {
        #expect(try outcomeSet(explore("""
            func numbers(upTo n: Int) -> AsyncStream<Int> {
                AsyncStream { continuation in
                    for i in 1...n {
                        continuation.yield(i)
                    }
                    continuation.finish()
                }
            }
            for await x in numbers(upTo: 3) {
                print(x)
            }
            let again = numbers(upTo: 2)
            for await x in again {
                print("again", x)
            }
            print("done")
            """)) == ["1 2 3 again 1 again 2 done"])
    }

    /// The continuation handed to a task in the build closure, and a throwing stream read in
    /// another task: the 15 interleavings; verify saw 7 of them in 200 runs, none outside.
    @Test func aProducerTaskAndAThrowingStream() throws {
        let outcomes = try outcomeSet(explore("""
            func countdown(from start: Int) -> AsyncStream<Int> {
                AsyncStream { continuation in
                    Task {
                        for i in 1...start {
                            continuation.yield(i)
                        }
                        continuation.finish()
                    }
                }
            }

            func words() -> AsyncThrowingStream<String, Error> {
                return AsyncThrowingStream { continuation in
                    continuation.yield("a")
                    continuation.yield("b")
                    continuation.finish()
                }
            }

            let s = countdown(from: 3)
            Task {
                for try await w in words() {
                    print(w)
                }
            }
            for await x in s {
                print(x)
            }
            print("done")
            """))
        #expect(outcomes.count == 15)
        #expect(outcomes.contains("1 2 3 a b done") && outcomes.contains("a b 1 2 3 done"))
    }

    @Test func streamFunctionMisuseIsPlacedAtItsLine() {
        expectDiagnostics("""
            func bad() -> AsyncStream<Int> {
                1️⃣AsyncStream<String> { c in c.finish() }
            }
            let b = bad()
            """, ["1️⃣": "cannot convert return expression of type 'AsyncStream<String>' to return type 'AsyncStream<Int>'"])
        expectDiagnostics("""
            func numbers() -> AsyncStream<Int> 1️⃣{
                print("making")
                return AsyncStream { c in c.finish() }
            }
            for await x in numbers() { print(x) }
            """, ["1️⃣": "returns the stream it makes"])
        expectDiagnostics("""
            struct P {
                static func 1️⃣make() -> AsyncStream<Int> { AsyncStream { c in c.finish() } }
            }
            """, ["1️⃣": "a function returning an AsyncStream is supported at the top level"])
    }
}
