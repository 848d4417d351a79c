import ConcurrencyModel
import Testing

/// `withDiscardingTaskGroup` and `withThrowingDiscardingTaskGroup` (Swift 5.9, SE-0381;
/// swiftlang/swift `DiscardingTaskGroup.swift`): children run as a task group's do, their results
/// are dropped as they end, and the call returns once all have ended; in the throwing one a
/// child's error cancels the group and the first is thrown where the group ends (the body's own
/// error wins). Each answer pinned by `gcdquiz verify --runs 100` and `gcdquiz run --runs 300`
/// (swiftc -swift-version 6, 2 cores): no run outside it.
@Suite struct DiscardingTaskGroupTests {
    /// Children print in any order; the group waits for all. verify: 3 of 4 outcomes for 2 cores
    /// in 100 runs; run: all 4 in 300.
    @Test func theGroupWaitsForEveryChild() throws {
        let source = """
            await withDiscardingTaskGroup { group in
                for i in 1...3 {
                    group.addTask { print(i) }
                }
            }
            print("done")
            """
        #expect(try outcomeSet(explore(source)) == ["1 2 3 done", "1 3 2 done", "2 1 3 done", "2 3 1 done", "3 1 2 done", "3 2 1 done"])
        #expect(try outcomeSet(source, cores: 2) == ["1 2 3 done", "1 3 2 done", "2 1 3 done", "2 3 1 done"])
    }

    /// Side effects through an actor: every child has run when the group returns.
    /// verify: 1 of 1 outcomes.
    @Test func childrenUpdateAnActor() throws {
        #expect(try outcomeSet(explore("""
            actor Counter {
                var value = 0
                func increment() { value += 1 }
            }
            let counter = Counter()
            await withDiscardingTaskGroup { group in
                for _ in 1...3 {
                    group.addTask { await counter.increment() }
                }
            }
            print(await counter.value)
            """)) == ["3"])
    }

    /// A child's error cancels the sleeping sibling (its sleep throws at once) and is thrown out
    /// of the group. verify: 1 of 1 outcomes in 100 runs.
    @Test func aChildsErrorCancelsTheGroupAndIsRethrown() throws {
        #expect(try outcomeSet(explore("""
            enum Failure: Error { case boom }
            do {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { throw Failure.boom }
                    group.addTask {
                        try await Task.sleep(for: .seconds(1))
                        print("slow child finished")
                    }
                }
                print("not reached")
            } catch {
                print("caught", error)
            }
            """)) == ["caught boom"])
    }

    /// The body's own error wins over a child's, and the group's cancellation does not reach
    /// the body's task. verify: 1 of 1 outcomes in 100 runs.
    @Test func theBodysErrorWinsOverAChilds() throws {
        #expect(try outcomeSet(explore("""
            enum Failure: Error { case child, body }
            do {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { throw Failure.child }
                    try await Task.sleep(for: .milliseconds(100))
                    print("cancelled:", Task.isCancelled)
                    throw Failure.body
                }
            } catch {
                print("caught", error)
            }
            """)) == ["cancelled: false caught body"])
    }

    /// No next(), for await or waitForAll() on a discarding group; its throwing form always needs try.
    @Test func whatADiscardingGroupDoesNotHave() {
        expectDiagnostics("""
            await withDiscardingTaskGroup { group in
                group.addTask { print(1) }
                for await _ in 1️⃣group {}
            }
            """, ["1️⃣": "a discarding task group has no next(), for await or waitForAll(): its children's results are dropped, and withDiscardingTaskGroup waits for them where it ends"])
        expectDiagnostics("""
            await 1️⃣withThrowingDiscardingTaskGroup { group in
                group.addTask { print(1) }
            }
            """, ["1️⃣": "call can throw but is not marked with 'try': write try await withThrowingDiscardingTaskGroup(…) (or try?)"])
    }
}
