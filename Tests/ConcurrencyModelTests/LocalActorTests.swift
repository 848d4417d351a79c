import ConcurrencyModel
import Testing

/// An actor declared inside a function (outside puzzle sc-06), made where the function runs:
/// measured with `gcdquiz verify` (swiftc, 30 runs: 1 of 1 outcomes).
@Suite struct LocalActorTests {
    static let source = """
        func actorBasics() {
            actor CounterActor {
                var count = 0
                func increment() {
                    count += 1
                }
                func decrement() {
                    count -= 1
                }
                func report() {
                    print("counter.count", count)
                }
                private func unused() { }
            }
            let counter = CounterActor()
            for _ in 0..<2 {
                Task {
                    await counter.increment()
                }
                Task {
                    await counter.decrement()
                }
            }
            Thread.sleep(forTimeInterval: 1)
            Task {
                await counter.report()
            }
        }
        actorBasics()
        """

    @Test func anActorDeclaredInAFunction() throws {
        #expect(try outcomeSet(explore(Self.source)) == ["counter.count 0"])
    }

    /// sc-06 makes 2,000 tasks: the budget note says so (`ExplorationStops.sizeNote`).
    @Test func theTasksARunMakesAreCounted() throws {
        let program = try SnippetCompiler.compile(Self.source.replacingOccurrences(of: "0..<2", with: "0..<1_000")).get()
        #expect(program.tasksMade == 2_001)
    }

    @Test func anActorInALoopIsStillRefused() {
        expectDiagnostics("for _ in 0..<2 {\n    1️⃣actor A { var n = 0 }\n}", ["1️⃣": "declare actors at the top level of the snippet, or in a function's body"])
    }
}
