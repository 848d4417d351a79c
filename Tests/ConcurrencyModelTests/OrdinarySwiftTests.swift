import ConcurrencyModel
import Testing

/// Ordinary Swift that outside puzzles write around the concurrency (issue 22): each answered as
/// swiftc runs it (the expectations were run with swiftc, prelude in front), each misuse a
/// diagnostic at its place.
@Suite struct OrdinarySwiftTests {
    /// `for x in list` goes over a copy taken where the loop starts (appending in the body
    /// does not lengthen it), `enumerated()` gives index and element; a group's children made
    /// in such a loop (swiftc: `a b c [1, 2, 10, 20] 0 a 1 b 2 c total 3`, verify ok, 20 runs).
    @Test func aLoopGoesOverAnArraysElements() throws {
        #expect(try outcomeSet(explore("""
            let urls = ["a", "b", "c"]
            for u in urls {
                print(u)
            }
            var nums = [1, 2]
            for n in nums {
                nums.append(n * 10)
            }
            print(nums)
            for (i, u) in urls.enumerated() { print(i, u) }
            func fetch(_ url: String) async -> Int {
                try? await Task.sleep(nanoseconds: 1_000_000)
                return url.count
            }
            let sizes = await withTaskGroup(of: Int.self) { group in
                for url in urls {
                    group.addTask { await fetch(url) }
                }
                var total = 0
                for await s in group { total += s }
                return total
            }
            print("total", sizes)
            """)) == ["a b c [1, 2, 10, 20] 0 a 1 b 2 c total 3"])
        expectDiagnostics("let n = 3\nfor i in 1️⃣n { print(i) }", ["1️⃣": "loops go over a range ('for i in 1...3') or an array"])
        expectDiagnostics("for 1️⃣(i, u) in [1] { print(i, u) }", ["1️⃣": "the loop variable is a name or '_'"])
    }

    @Test func theTernaryOperatorChoosesOneValue() throws {
        #expect(try outcomeSet(explore("""
            let item = DispatchWorkItem { print("work") }
            item.cancel()
            print(item.isCancelled ? "Second Work Item Canceled" : "Second Work Item Is Ready For Execution")
            """)) == ["Second Work Item Canceled"])
        // Only the chosen value is computed: the other would trap.
        #expect(try outcomeSet(explore("var zero = 0\nprint(zero == 0 ? 1 : 10 / zero)")) == ["1"])
        expectDiagnostics("print(true ? 1 : 1️⃣\"a\")", ["1️⃣": "mismatching types 'Int' and 'String'"])
        expectDiagnostics("print(1️⃣1 ? 2 : 3)", ["1️⃣": "cannot be used as a boolean"])
    }

    @Test func ifAndSwitchExpressionsAreValues() throws {
        #expect(try outcomeSet(explore("""
            for i in 1...4 {
                let parity = if i % 2 == 0 { "even" } else { "odd" }
                let size = switch i { case 1: "one" case 2...3: "few" default: "many" }
                print(parity, size)
            }
            """)) == ["odd one even few odd few even many"])
        expectDiagnostics("let n = 1\nlet s = 1️⃣switch n { case 1: \"one\" }", ["1️⃣": "switch must be exhaustive"])
        expectDiagnostics("let s = 1️⃣if true { 1 }", ["1️⃣": "must have an unconditional 'else'"])
    }

    @Test func aSwitchStatementRunsTheFirstMatchingCase() throws {
        #expect(try outcomeSet(explore("""
            for i in 1...4 {
                switch i {
                case 1, 2:
                    serialQueue.async { print("small \\(i)") }
                case 3:
                    break
                default:
                    print("big \\(i)")
                }
            }
            serialQueue.sync { }
            """)) == ["big 4 small 1 small 2", "small 1 big 4 small 2", "small 1 small 2 big 4"])
        expectDiagnostics("let b = true\nswitch b {\ncase true:\n    print(1)\n1️⃣fallthrough\ncase false:\n    print(2)\n}", ["1️⃣": "'fallthrough' is outside the supported subset"])
    }

    @Test func durationsMayBeComputed() throws {
        // Operations made in a loop sleep a tenth of a second per index: they finish in order.
        #expect(try outcomeSet(explore("""
            let queue = OperationQueue()
            for index in 1...3 {
                queue.addOperation {
                    Thread.sleep(forTimeInterval: TimeInterval(index) / 10)
                    print("op \\(index)")
                }
            }
            queue.waitUntilAllOperationsAreFinished()
            print("done")
            """)) == ["op 1 op 2 op 3 done"])
        #expect(try outcomeSet(explore("""
            for i in 0..<3 {
                serialQueue.asyncAfter(deadline: .now() + .milliseconds(300 - i * 100)) { print(i) }
            }
            """)) == ["2 1 0"])
        #expect(try outcomeSet(explore("let n = 2\nconcurrentQueue.async { sleep(UInt32(n)); print(\"late\") }\nconcurrentQueue.asyncAfter(deadline: .now() + Double(n) * 0.5) { print(\"timer\") }")) == ["timer late"])
        // Swift's UInt32(n) traps on a negative n.
        #expect(try outcomeSet(explore("var n = -1\nsleep(UInt32(n))\nprint(1)")) == ["deadlock"])
        expectDiagnostics("var n = 2\nsleep(1️⃣n)", ["1️⃣": "sleep takes a UInt32: sleep(1), or sleep(UInt32(n)) for an Int n"])
        expectDiagnostics("Thread.sleep(forTimeInterval: 1️⃣\"a\")", ["1️⃣": "write a time in seconds as a number"])
    }

    @Test func startRunsTheOperationOnTheCallingThread() throws {
        let code = """
            let op = BlockOperation { print("a", Thread.isMainThread) }
            op.addExecutionBlock { print("b", Thread.isMainThread) }
            print("before")
            op.start()
            print("after")
            op.start()
            print("again")
            """
        // swift-corelibs-foundation: its blocks one after another, here; a second start() does nothing.
        #expect(try outcomeSet(explore(code, on: Machine(platform: .linux))) == ["before a true b true after again"])
        // Apple's Foundation: the further blocks side by side on other threads; start() waits for them.
        #expect(try outcomeSet(explore(code)) == ["before a true b false after again", "before b false a true after again"])
    }

    @Test func startIsFoundationsErrorWhenTheOperationIsNotReadyOrQueued() throws {
        let notReady = try explore("""
            let first = BlockOperation { print("first") }
            let second = BlockOperation { print("second") }
            second.addDependency(first)
            second.start()
            print("after")
            """)
        #expect(outcomeSet(notReady) == ["deadlock"])
        let reason = try #require(notReady.reports.first?.deadlock.map(notReady.narrator.words(for:)))
        #expect(reason.contains("receiver is not yet ready to execute"))
        let queued = try explore("""
            let queue = OperationQueue()
            queue.isSuspended = true
            let op = BlockOperation { print("body") }
            queue.addOperation(op)
            op.start()
            print("after")
            """)
        #expect(outcomeSet(queued) == ["deadlock"])
        // A cancelled operation finishes without running.
        #expect(try outcomeSet(explore("let op = BlockOperation { print(\"body\") }\nop.cancel()\nop.start()\nprint(\"after\", op.isFinished)")) == ["after true"])
    }

    @Test func settingsThatChangeNoOrderAreAccepted() throws {
        #expect(try outcomeSet(explore("""
            let queue = OperationQueue()
            queue.name = "myQueue"
            queue.qualityOfService = .userInitiated
            let op = BlockOperation { print("work") }
            op.name = "loader"
            op.qualityOfService = .utility
            print(op.isFinished, op.isExecuting)
            queue.addOperation(op)
            op.waitUntilFinished()
            print(op.isFinished, op.isExecuting)
            """)) == ["false false work true false"])
        expectDiagnostics("let queue = OperationQueue()\n1️⃣queue.underlyingQueue = serialQueue", ["1️⃣": "underlyingQueue is outside the supported subset"])
        expectDiagnostics("let op = BlockOperation { }\nop.qualityOfService = 1️⃣.fast", ["1️⃣": "a quality of service is one of"])
    }

    @Test func aWaitWithATimeoutMayBeAStatement() throws {
        #expect(try outcomeSet(explore("let s = DispatchSemaphore(value: 0)\ns.wait(timeout: .now() + 0.1)\nprint(\"gave up\")")) == ["gave up"])
        // Its deadline's own problem is said, not "'_ = …' is supported for wait(timeout:) only".
        expectDiagnostics("let s = DispatchSemaphore(value: 0)\n_ = s.wait(timeout: .now() + 1️⃣\"a\")", ["1️⃣": "write a time in seconds as a number"])
    }
}
