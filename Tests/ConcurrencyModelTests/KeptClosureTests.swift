import ConcurrencyModel
import Testing

/// Closures kept in a constant (`let work = { … }`): called in place, passed on for a closure
/// parameter, or dispatched with `execute:`. Each answer is the model's, checked with
/// `gcdquiz verify` (swiftc, 50 runs) when the tests were written: the figures are in the comments.
@Suite struct KeptClosureTests {
    /// A kept closure runs on the thread that calls it: in a main-actor `Task`, after the
    /// top-level code reaches its first suspension; `@Sendable` for `execute:` in Swift 6
    /// (verify: 1 of 1 in 50 runs; `run`: 200 of 200).
    @Test func calledInPlaceAndDispatched() throws {
        #expect(try outcomeSet(explore("""
            let greet = { (name: String) in print("hi \\(name)") }
            Task { greet("task") }
            greet("main")
            await Task.yield()
            let ping: @Sendable () -> Void = { print("ping") }
            DispatchQueue.main.async(execute: ping)
            try await Task.sleep(nanoseconds: 1_000_000)
            """)) == ["hi main hi task ping"])
    }

    /// Variables are captured by reference: the call sees the value at the call, not where the
    /// closure was made; one closure passed on to a function's closure parameter, another with
    /// its parameter's type in the constant's (verify: 1 of 1 in 50 runs).
    @Test func capturesByReferenceAndPassesOn() throws {
        #expect(try outcomeSet(explore("""
            func repeatTwice(_ body: @escaping () -> Void) {
                body()
                body()
            }
            var n = 0
            let bump = { n += 1 }
            repeatTwice(bump)
            let show: (Int) -> Void = { value in print("value", value) }
            show(n)
            """)) == ["value 2"])
    }

    /// Without Swift concurrency (Swift 5), a plain kept closure may be dispatched, also after a
    /// delay; the unsynchronized appends race (verify: 4 of 4 in 50 runs).
    @Test func dispatchedInSwift5() throws {
        let exploration = try explore("""
            var log: [String] = []
            let q = DispatchQueue(label: "q")
            let record = { (s: String) in log.append(s) }
            let work = { record("w") }
            q.async(execute: work)
            q.asyncAfter(deadline: .now() + 0.01, execute: work)
            record("main")
            q.sync {}
            Thread.sleep(forTimeInterval: 0.05)
            print(log)
            """)
        #expect(outcomeSet(exploration) == [#"["main", "w", "w"]"#, #"["w", "main", "w"]"#, #"["main", "w"]"#, #"["w", "w"]"#])
        #expect(!exploration.races.isEmpty)
    }

    /// swiftc's errors in Swift 6 (a task makes it a Swift 6 snippet), and the forms left out.
    @Test func refusedForms() {
        expectDiagnostics("""
            let work = { print("w") }
            DispatchQueue.global().async(execute: 1️⃣work)
            Task { work() }
            """, ["1️⃣": "converting non-Sendable function value to '@Sendable @convention(block) () -> Void' may introduce data races"])
        expectDiagnostics("""
            var x = 1
            let work: @Sendable () -> Void = { 1️⃣x += 1 }
            Task { work() }
            """, ["1️⃣": "main actor-isolated var 'x' can not be mutated from a nonisolated context"])
        expectDiagnostics("""
            var n = 1
            2️⃣var later = { print("x") }
            let copy = { 3️⃣[n] in print(n) }
            let job = { () 4️⃣async in print("a") }
            let pair = { (5️⃣a, b) in print(a, b) }
            let three = { () 6️⃣-> Int in 3 }
            """, ["2️⃣": "a closure kept in a 'var' is outside the supported subset",
                  "3️⃣": "a capture list on a closure kept in a constant",
                  "4️⃣": "an 'async' closure kept in a constant",
                  "5️⃣": "give the parameter's type",
                  "6️⃣": "a closure kept in a constant that returns a value ('Int')"])
    }
}
