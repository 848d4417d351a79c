import ConcurrencyModel
import Testing

/// `group.addTaskUnlessCancelled { }` (SE-0304; swiftlang/swift `TaskGroup.swift`: it asks
/// `_taskGroupAddPendingTask(unconditionally: false)`, which refuses once the group is
/// cancelled): a child as `addTask` makes, unless `cancelAll()` was called or the task running the
/// group is cancelled; it gives whether it added. Each answer checked with `gcdquiz verify --runs
/// 300` (swiftc -swift-version 6, 2 cores, `probe8/p4.swift`, `p5.swift`, `p7.swift`): ok.
@Suite struct AddTaskUnlessCancelledTests {
    @Test func addsUntilTheGroupIsCancelledThenGivesFalse() throws {
        let outcomes = try outcomeSet(explore("""
            await withTaskGroup(of: Void.self) { group in
                group.addTask { print("a") }
                let first = group.addTaskUnlessCancelled { print("b") }
                group.cancelAll()
                let second = group.addTaskUnlessCancelled { print("c") }
                group.addTaskUnlessCancelled { print("d") }
                print("added \\(first) \\(second)")
            }
            print("done")
            """))
        // a and b in any order around the group's print; c and d never.
        #expect(outcomes == [
            "a added true false b done", "a b added true false done", "added true false a b done",
            "added true false b a done", "b a added true false done", "b added true false a done",
        ])
    }

    /// The group of a cancelled task is cancelled: no child is added.
    @Test func theGroupOfACancelledTaskAddsNoChild() throws {
        #expect(try outcomeSet(explore("""
            let t = Task {
                try? await Task.sleep(nanoseconds: 10_000_000)
                await withTaskGroup(of: Int.self) { group in
                    let added = group.addTaskUnlessCancelled { 1 }
                    print("added \\(added)")
                    group.addTask { 2 }
                    var sum = 0
                    for await v in group { sum += v }
                    print("sum \\(sum)")
                }
            }
            t.cancel()
            await t.value
            print("done")
            """)) == ["added false sum 2 done"])
    }

    @Test func theScheduleSaysWhyNoChildWasMade() throws {
        let exploration = try explore("""
            await withTaskGroup(of: Void.self) { group in
                group.cancelAll()
                group.addTaskUnlessCancelled { print("never") }
                print("after")
            }
            """)
        #expect(outcomeSet(exploration) == ["after"])
        let report = try #require(exploration.report(for: exploration.outcomes[0]))
        let narrator = Narrator(program: exploration.program)
        #expect(report.witness.contains { narrator.words(for: $0).contains("the group is cancelled: addTaskUnlessCancelled makes no child and gives false") })
    }
}
