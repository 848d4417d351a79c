import ConcurrencyModel
import Testing

/// `break` and `continue` in `for await` over an AsyncStream or a task group, and in
/// `while let v = await group.next()`. Leaving the loop
/// drops only the iterator: the stream keeps its buffer and later yields (swiftlang/swift
/// `AsyncStream.swift`: the stream and its iterator share one `_Context`, whose deinit cancels the
/// storage only when both are gone), and `withTaskGroup` still awaits the children left, without
/// cancelling them (`TaskGroup.swift`: `body` then `awaitAllRemainingTasks()`). Each answer
/// pinned by `gcdquiz verify --runs 100` (swiftc -swift-version 6, 2 cores): ok, no run outside it.
@Suite struct StreamBreakTests {
    /// The interview classic: the build closure fills the stream, the loop stops at 3.
    /// verify: 1 of 1 outcomes in 100 runs.
    @Test func breakLeavesTheLoopOverAFullStream() throws {
        #expect(try outcomeSet(explore("""
            let stream = AsyncStream<Int> { continuation in
                for i in 1...5 { continuation.yield(i) }
                continuation.finish()
            }
            for await value in stream {
                if value == 3 { break }
                print(value)
            }
            print("done")
            """)) == ["1 2 done"])
    }

    /// A producer task yields while the consumer breaks: the rest of its yields are buffered
    /// for nobody. verify: 1 of 1 outcomes in 100 runs.
    @Test func breakWhileATaskStillYields() throws {
        #expect(try outcomeSet(explore("""
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            Task {
                for i in 1...4 { continuation.yield(i) }
                continuation.finish()
            }
            for await value in stream {
                print(value)
                if value == 2 { break }
            }
            print("done")
            """)) == ["1 2 done"])
    }

    /// `continue` takes the next element; after `break` the stream still holds what was not
    /// taken, and a second loop over it gets the rest. verify: 1 of 1 outcomes in 100 runs.
    @Test func aSecondLoopTakesWhatTheFirstLeft() throws {
        #expect(try outcomeSet(explore("""
            let stream = AsyncStream<Int> { continuation in
                for i in 1...5 { continuation.yield(i) }
                continuation.finish()
            }
            for await value in stream {
                if value == 2 { continue }
                if value == 4 { break }
                print(value)
            }
            for await value in stream {
                print("again", value)
            }
            print("done")
            """)) == ["1 3 again 5 done"])
    }

    /// Leaving a group's loop early: the children left run on, uncancelled, and the group waits
    /// for them before it returns. verify: 2 of the 3 outcomes for 2 cores in 100 runs.
    @Test func breakOutOfAGroupLeavesTheOtherChildrenRunning() throws {
        let source = """
            await withTaskGroup(of: Int.self) { group in
                for i in 1...3 {
                    group.addTask { i }
                }
                for await v in group {
                    print(v)
                    if v == 2 { break }
                }
                print("left the loop")
            }
            print("after group")
            """
        #expect(try outcomeSet(explore(source)) == [
            "1 2 left the loop after group", "1 3 2 left the loop after group", "2 left the loop after group",
            "3 1 2 left the loop after group", "3 2 left the loop after group",
        ])
        #expect(try outcomeSet(source, cores: 2).count == 3)
    }

    /// The children left after a `break` are not cancelled: the sleeping one sees false.
    /// verify: 1 of 1 outcomes in 100 runs.
    @Test func childrenLeftAfterBreakAreNotCancelled() throws {
        #expect(try outcomeSet(explore("""
            await withTaskGroup(of: Int.self) { group in
                group.addTask { 1 }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(50))
                    print("cancelled:", Task.isCancelled)
                    return 2
                }
                for await v in group {
                    print(v)
                    break
                }
            }
            print("after group")
            """)) == ["1 cancelled: false after group"])
    }

    /// A throwing group left by `break` whose body then returns: nothing is cancelled (only an
    /// error out of the body cancels), and the slow child runs to its end.
    /// verify: 1 of 1 outcomes in 100 runs; run: 300 of 300.
    @Test func aThrowingGroupLeftByBreakCancelsNothing() throws {
        #expect(try outcomeSet(explore("""
            enum Failure: Error { case bad }
            do {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { 1 }
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(50))
                        print("slow child, cancelled:", Task.isCancelled)
                        return 2
                    }
                    for try await v in group {
                        print(v)
                        break
                    }
                }
                print("group done")
            } catch {
                print("caught", error)
            }
            """)) == ["1 slow child, cancelled: false group done"])
    }

    /// The first child to finish wins: `while let … = await group.next()` left by `break`
    /// after `cancelAll()`. verify: 1 of 1 outcomes in 100 runs; run: 300 of 300.
    @Test func whileLetOverNextLeftByBreak() throws {
        #expect(try outcomeSet(explore("""
            let first = await withTaskGroup(of: Int.self) { group in
                for i in 1...3 {
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(10 * i))
                        return i
                    }
                }
                var found = 0
                while let value = await group.next() {
                    found = value
                    group.cancelAll()
                    break
                }
                return found
            }
            print("first", first)
            """)) == ["first 1"])
    }

    /// `continue` in `while let … = await group.next()` waits for the next child.
    /// verify: 1 of 1 outcomes in 100 runs; run: 300 of 300.
    @Test func whileLetOverNextWithContinue() throws {
        #expect(try outcomeSet(explore("""
            await withTaskGroup(of: Int.self) { group in
                for i in 1...4 {
                    group.addTask { i }
                }
                var total = 0
                while let value = await group.next() {
                    if value % 2 == 0 { continue }
                    total += value
                }
                print("odd total", total)
            }
            """)) == ["odd total 4"])
    }

    /// A labelled loop (and so a labelled break) stays outside the subset.
    @Test func aLabelledLoopIsRefused() {
        expectDiagnostics("""
            let stream = AsyncStream<Int> { continuation in continuation.finish() }
            1️⃣outer: for await value in stream {
                print(value)
                break outer
            }
            """, ["1️⃣": "is outside the supported subset"])
    }
}
