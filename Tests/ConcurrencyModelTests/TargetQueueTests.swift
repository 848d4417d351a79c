import Testing
@testable import ConcurrencyModel

/// Target queues and DispatchSpecificKey (issues 24 and 25). Every outcome set was checked with
/// swiftc on Linux (prelude in front, `gcdquiz verify`'s harness, 2 cores): the run counts are
/// in each test's comment, and every output seen is in the model's set.
@Suite struct TargetQueueTests {
    /// Two serial queues on one serial root: 100 swiftc runs showed a1 a2 b1 b2 r (56), a1 b1 b2
    /// a2 r (42) and a1 b1 a2 r b2 (2); the model adds a1 a2 b1 r b2 (b2 arriving after b's
    /// drain ended). b1 never comes before a1: a reached the root first.
    @Test func siblingsOnASerialRootDrainInTurn() throws {
        let source = """
            let root = DispatchQueue(label: "root")
            let a = DispatchQueue(label: "a", target: root)
            let b = DispatchQueue(label: "b", target: root)
            a.async { print("a1") }
            b.async { print("b1") }
            a.async { print("a2") }
            root.async { print("r") }
            b.async { print("b2") }
            """
        #expect(try outcomeSet(explore(source)) == ["a1 a2 b1 b2 r", "a1 b1 b2 a2 r", "a1 b1 a2 r b2", "a1 a2 b1 r b2"])
    }

    /// Blocks of a concurrent queue on a serial root never overlap (100 of 100 swiftc runs, each
    /// block sleeping 2 ms between its lines).
    @Test func aConcurrentQueueOnASerialRootRunsOneBlockAtATime() throws {
        let source = """
            let root = DispatchQueue(label: "root")
            let c = DispatchQueue(label: "c", attributes: .concurrent, target: root)
            for i in 1...3 { c.async { print("start \\(i)"); print("end \\(i)") } }
            """
        #expect(try outcomeSet(explore(source)) == ["start 1 end 1 start 2 end 2 start 3 end 3"])
    }

    /// A queue targeting the main queue runs on the main thread, drained as one item of the main
    /// queue: q2 comes before the main-queue block queued between (100 of 100 swiftc runs).
    @Test func aQueueTargetingMainRunsOnTheMainThread() throws {
        let source = """
            let q = DispatchQueue(label: "q", target: .main)
            q.async { print("q", Thread.isMainThread) }
            DispatchQueue.main.async { print("m", Thread.isMainThread) }
            q.async { print("q2") }
            print("top")
            """
        #expect(try outcomeSet(explore(source)) == ["top q true q2 m true"])
    }

    /// A sync from a worker onto a queue targeting .main runs its body on the main thread, as
    /// DispatchQueue.main.sync does (50 of 50 swiftc runs).
    @Test func aSyncOntoAQueueTargetingMainRunsOnTheMainThread() throws {
        let source = """
            let ui = DispatchQueue(label: "ui", target: .main)
            DispatchQueue.global().async {
                ui.sync { print("ui sync on main:", Thread.isMainThread) }
                print("back")
            }
            """
        #expect(try outcomeSet(explore(source)) == ["ui sync on main: true back"])
    }

    /// A global target keeps the queue concurrent (its blocks interleave with anything).
    @Test func aGlobalTargetKeepsAConcurrentQueueConcurrent() throws {
        let source = """
            let c = DispatchQueue(label: "c", attributes: .concurrent, target: DispatchQueue.global(qos: .utility))
            c.async { print("1") }
            c.async { print("2") }
            """
        #expect(try outcomeSet(explore(source)) == ["1 2", "2 1"])
    }

    /// sync within one serial hierarchy traps, 100 of 100 swiftc runs each: from the root onto a
    /// queue that targets it, from that queue onto the root, onto a sibling, onto a concurrent
    /// queue on the root, and onto a queue targeting .main from the main thread.
    @Test(arguments: [
        ("root.async { print(\"in\"); a.sync { print(\"never\") } }", "in deadlock"),
        ("a.async { print(\"in\"); root.sync { print(\"never\") } }", "in deadlock"),
        ("a.async { print(\"in\"); b.sync { print(\"never\") } }", "in deadlock"),
        ("root.async { print(\"in\"); c.sync { print(\"never\") } }", "in deadlock"),
        ("print(\"in\"); ui.sync { print(\"never\") }", "in deadlock"),
    ])
    func syncWithinASerialHierarchyTraps(_ line: String, _ outcome: String) throws {
        let source = """
            let root = DispatchQueue(label: "root")
            let a = DispatchQueue(label: "a", target: root)
            let b = DispatchQueue(label: "b", target: root)
            let c = DispatchQueue(label: "c", attributes: .concurrent, target: root)
            let ui = DispatchQueue(label: "ui", target: .main)
            \(line)
            """
        let exploration = try explore(source)
        #expect(outcomeSet(exploration) == [outcome])
        guard case .trap? = exploration.reports.first?.deadlock else {
            Issue.record("expected a trap")
            return
        }
    }

    /// A sync from outside waits for the root's earlier items: s1 r1 s2 a1 s3 in 100 of 100
    /// swiftc runs.
    @Test func aSyncOntoATargetingQueueWaitsForTheRoot() throws {
        let source = """
            let root = DispatchQueue(label: "root")
            let a = DispatchQueue(label: "a", target: root)
            a.sync { print("s1") }
            root.async { print("r1") }
            a.sync { print("s2") }
            a.async { print("a1") }
            root.sync { print("s3") }
            """
        #expect(try outcomeSet(explore(source)) == ["s1 r1 s2 a1 s3"])
    }

    /// At the end of a sync body the queue goes back to the end of its target (x after r), while
    /// an async block's end lets the drain go on (z before r2): s r x y z r2 in 100 of 100 swiftc
    /// runs.
    @Test func aSyncBodyHandsTheQueueBackAnAsyncBlockDoesNot() throws {
        let source = """
            let root = DispatchQueue(label: "root")
            let a = DispatchQueue(label: "a", target: root)
            a.sync {
                print("s")
                a.async { print("x") }
                root.async { print("r") }
            }
            a.async {
                print("y")
                a.async { print("z") }
                root.async { print("r2") }
            }
            """
        #expect(try outcomeSet(explore(source)) == ["s r x y z r2"])
    }

    /// setTarget on an active queue traps, used or not (100 of 100 swiftc runs); on an inactive
    /// one before activate() it sets the target.
    @Test func setTargetWorksOnlyOnAnInactiveQueue() throws {
        let active = try explore("""
            let root = DispatchQueue(label: "root")
            let a = DispatchQueue(label: "a")
            print("before")
            a.setTarget(queue: root)
            print("set")
            """)
        #expect(outcomeSet(active) == ["before deadlock"])
        guard case .targetOfActiveQueue? = active.reports.first?.deadlock else {
            Issue.record("expected setTarget to trap")
            return
        }
        let inactive = """
            let root = DispatchQueue(label: "root")
            let a = DispatchQueue(label: "a", attributes: [.concurrent, .initiallyInactive])
            a.setTarget(queue: root)
            a.async { print("1"); print("2") }
            a.async { print("3") }
            a.activate()
            """
        #expect(try outcomeSet(explore(inactive)) == ["1 2 3"])
    }

    /// dispatchPrecondition(.onQueue(root)) holds in a block of a queue that targets root (100 of
    /// 100 swiftc runs).
    @Test func onQueuePreconditionHoldsThroughTheTarget() throws {
        let source = """
            let root = DispatchQueue(label: "root")
            let a = DispatchQueue(label: "a", target: root)
            a.async { dispatchPrecondition(condition: .onQueue(root)); print("holds") }
            """
        #expect(try outcomeSet(explore(source)) == ["holds"])
    }

    /// getSpecific follows the target chain; nil on the main queue, a global queue and an
    /// unrelated serial queue (100 of 100 swiftc runs).
    @Test func getSpecificFollowsTheTargets() throws {
        let source = """
            let key = DispatchSpecificKey<Int>()
            let root = DispatchQueue(label: "root")
            root.setSpecific(key: key, value: 1)
            let a = DispatchQueue(label: "a", target: root)
            let c = DispatchQueue(label: "c", attributes: .concurrent, target: root)
            print("main", DispatchQueue.getSpecific(key: key) ?? 0)
            root.sync { print("root", DispatchQueue.getSpecific(key: key) ?? 0) }
            a.sync { print("a", DispatchQueue.getSpecific(key: key) ?? 0) }
            a.async { print("a async", DispatchQueue.getSpecific(key: key) ?? 0) }
            c.sync { print("c", DispatchQueue.getSpecific(key: key) ?? 0) }
            serialQueue.sync { print("serial", DispatchQueue.getSpecific(key: key) ?? 0) }
            DispatchQueue.global().sync { print("global", DispatchQueue.getSpecific(key: key) ?? 0) }
            DispatchQueue.main.async { print("mainq", DispatchQueue.getSpecific(key: key) ?? 0) }
            """
        #expect(try outcomeSet(explore(source)) == ["main 0 root 1 a 1 a async 1 c 1 serial 0 global 0 mainq 0"])
    }

    /// A value on the main queue is seen by top-level code too (100 of 100 swiftc runs), and the
    /// comparisons read the optional as Swift does.
    @Test func getSpecificInConditions() throws {
        let source = """
            let key = DispatchSpecificKey<String>()
            DispatchQueue.main.setSpecific(key: key, value: "main")
            print(DispatchQueue.getSpecific(key: key) == "main", DispatchQueue.getSpecific(key: key) != nil)
            serialQueue.sync {
                if DispatchQueue.getSpecific(key: key) == nil { print("off main") } else { print("on main") }
                print(DispatchQueue.getSpecific(key: key) != "main")
            }
            """
        #expect(try outcomeSet(explore(source)) == ["true true off main true"])
    }

    /// print shows the optional as Swift does (swiftc warns and compiles): 20 of 20 runs.
    @Test func printShowsTheOptional() throws {
        let source = """
            let key = DispatchSpecificKey<String>()
            let n = DispatchSpecificKey<Int>()
            let q = DispatchQueue(label: "q")
            q.setSpecific(key: key, value: "tag")
            q.setSpecific(key: n, value: 3)
            print(DispatchQueue.getSpecific(key: key) as Any)
            q.sync {
                print(DispatchQueue.getSpecific(key: key) as Any)
                print(DispatchQueue.getSpecific(key: n), DispatchQueue.getSpecific(key: key))
            }
            """
        #expect(try outcomeSet(explore(source)) == ["nil Optional(\"tag\") Optional(3) Optional(\"tag\")"])
    }

    /// The idiom: work in place when already on the queue, sync otherwise; no trap.
    @Test func aGuardedSyncDoesNotTrap() throws {
        let source = """
            let key = DispatchSpecificKey<Int>()
            let q = DispatchQueue(label: "q")
            q.setSpecific(key: key, value: 1)
            func work(_ who: String) {
                if DispatchQueue.getSpecific(key: key) != nil { print(who, "in place") } else { q.sync { print(who, "synced") } }
            }
            q.async { work("block") }
            work("main")
            """
        #expect(try outcomeSet(explore(source)) == ["block in place main synced"])
    }

    @Test func unsupportedFormsAreDiagnosedAtTheirLine() {
        expectDiagnostics("""
            let c = DispatchQueue(label: "c", attributes: .concurrent)
            let q = DispatchQueue(label: "q", target: 1️⃣c)
            """, ["1️⃣": "a custom concurrent queue as a target is outside the supported subset"])
        expectDiagnostics("""
            let key = DispatchSpecificKey<1️⃣Double>()
            """, ["1️⃣": "DispatchSpecificKey<Double> is outside the supported subset"])
        expectDiagnostics("""
            let key = DispatchSpecificKey<Int>()
            let value = 1️⃣DispatchQueue.getSpecific(key: key)
            """, ["1️⃣": "returns an optional"])
        expectDiagnostics("""
            let q = DispatchQueue(label: "q", attributes: .initiallyInactive)
            q.activate()
            1️⃣q.setTarget(queue: serialQueue)
            """, ["1️⃣": "after 'q.activate()'"])
        expectDiagnostics("""
            let key = DispatchSpecificKey<Int>()
            1️⃣DispatchQueue.global().setSpecific(key: key, value: 1)
            """, ["1️⃣": "setSpecific on a global queue"])
        expectDiagnostics("""
            let key = DispatchSpecificKey<Int>()
            serialQueue.setSpecific(key: key, value: 2️⃣"one")
            """, ["2️⃣": "cannot convert value of type 'String'"])
    }
}
