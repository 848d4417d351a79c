import ConcurrencyModel
import Testing

/// `return`, `guard`, `defer`, functions that return values and `let v = q.sync { … }` (issue 22):
/// each answered as swiftc runs it (the expectations were run with swiftc, prelude in front, 20–200
/// times), each misuse a diagnostic at its place, worded as swiftc words it where it has words.
@Suite struct ReturnsTests {
    /// A guard's else block may end in `throw` (probe c9: it was refused as falling through;
    /// verify ok).
    @Test func aGuardMayThrow() throws {
        #expect(try outcomeSet(explore("""
            func check(_ n: Int) throws -> Int {
                guard n > 0 else { throw CancellationError() }
                return n
            }
            do { print(try check(1)) } catch { print("fail") }
            do { print(try check(0)) } catch { print("fail \\(error)") }
            """)) == ["1 fail CancellationError()"])
    }

    @Test func aFunctionsValueIsComputedBeforeTheStatementThatUsesIt() throws {
        #expect(try outcomeSet(explore("""
            var counter = 0
            func next() -> Int {
                counter += 1
                return counter
            }
            func label(_ n: Int) -> String {
                guard n > 1 else { return "first" }
                if n == 2 { return "second" }
                return "later \\(n)"
            }
            serialQueue.async { print(label(next())) }
            serialQueue.async { print(label(next())) }
            let v = serialQueue.sync { counter * 10 }
            print(v)
            let w = serialQueue.sync { () -> Int in
                defer { counter += 100 }
                return counter
            }
            print(w, counter)
            """)) == ["first second 20 2 102"])
        // Left to right, each call once: f() + f() is 1 + 2.
        #expect(try outcomeSet(explore("""
            var n = 0
            func f() -> Int { n += 1; return n }
            print(f() * 10 + f())
            """)) == ["12"])
    }

    @Test func aReturnEndsTheLoopsAndBranchesOfItsBody() throws {
        #expect(try outcomeSet(explore("""
            func firstOver(_ limit: Int) -> Int {
                for i in 0..<10 {
                    for j in 0..<2 {
                        if i * i + j > limit { return i }
                    }
                }
                return -1
            }
            print(firstOver(10), firstOver(1000))
            """)) == ["4 -1"])
    }

    /// A `do` whose body and every catch clause return needs no return after it, as swiftc
    /// accepts (an outside puzzle was refused with "missing return").
    @Test func aDoWhoseEveryWayOutReturnsEndsTheFunction() throws {
        #expect(try outcomeSet(explore("""
            enum E: Error { case bad }
            func check(_ n: Int) throws { if n > 1 { throw E.bad } }
            func value(_ n: Int) -> Int {
                do {
                    try check(n)
                    return n
                } catch {
                    return -1
                }
            }
            func fails() throws -> Int {
                throw E.bad
            }
            print(value(1), value(2))
            do {
                print(try fails())
            } catch {
                print("thrown")
            }
            """)) == ["1 -1 thrown"])
    }

    @Test func aReturnEndsAClosureAndItsQueueMovesOn() throws {
        // The early return releases serialQueue: the second block still runs, after it.
        #expect(try outcomeSet(explore("""
            var ready = false
            serialQueue.async {
                guard ready else { print("not ready"); return }
                print("never")
            }
            serialQueue.async { print("second") }
            serialQueue.sync { }
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 1 { return }
                print("iteration \\(i)")
            }
            """)) == ["not ready second iteration 0"])
    }

    @Test func deferRunsWhenItsScopeEnds() throws {
        #expect(try outcomeSet(explore("""
            func work(_ n: Int) {
                defer { print("cleanup \\(n)") }
                for i in 1...2 {
                    defer { print("end \\(i)") }
                    if n == i { return }
                    print("step \\(i)")
                }
            }
            work(1)
            work(5)
            """)) == ["end 1 cleanup 1 step 1 end 1 step 2 end 2 cleanup 5"])
    }

    @Test func breakLeavesTheSwitch() throws {
        #expect(try outcomeSet(explore("""
            for i in 1...2 {
                switch i {
                case 1:
                    print("one")
                    break
                default:
                    break
                }
                print("after \\(i)")
            }
            """)) == ["one after 1 after 2"])
    }

    @Test func aReturnedValueComesBackFromTheMainQueue() throws {
        // main.sync from a worker: the block runs on the main thread, its value goes to the worker.
        #expect(try outcomeSet(explore("""
            var total = 5
            concurrentQueue.async {
                let seen = DispatchQueue.main.sync { total * 2 }
                print("seen \\(seen)")
            }
            """)) == ["seen 10"])
    }

    @Test func misusesAreDiagnosedWhereTheyStand() {
        expectDiagnostics("1️⃣return", ["1️⃣": "return invalid outside of a func"])
        expectDiagnostics("func f() -> Int { return 2️⃣\"a\" }", ["2️⃣": "cannot convert return expression of type 'String' to return type 'Int'"])
        expectDiagnostics("func f() -> Int {\n    if true { return 1 }\n1️⃣}", ["1️⃣": "missing return in global function expected to return 'Int'"])
        expectDiagnostics("func f() -> Int { 1️⃣print(1) }", ["1️⃣": "cannot convert return expression of type '()' to return type 'Int'"])
        expectDiagnostics("serialQueue.async { return 1️⃣5 }", ["1️⃣": "unexpected non-void return value in void closure"])
        expectDiagnostics("func g() { }\nprint(1️⃣g())", ["1️⃣": "'g()' returns nothing"])
        expectDiagnostics("let v = serialQueue.sync 1️⃣{ print(1) }", ["1️⃣": "the closure of sync returns no value"])
        expectDiagnostics("func f() -> Bool { true }\nlet a = false\nif a && 1️⃣f() { print(1) }", ["1️⃣": "runs only when the left side of && is true"])
        expectDiagnostics("func f() -> Int { 1 }\nprint(true ? 1 : 1️⃣f())", ["1️⃣": "runs only when the condition does not hold"])
        expectDiagnostics("func f() {\n    guard true 1️⃣else { print(1) }\n}", ["1️⃣": "'guard' body must not fall through"])
        expectDiagnostics("func f() {\n    defer { 1️⃣return }\n}", ["1️⃣": "'return' cannot transfer control out of a defer statement"])
    }
}

/// Functions that make or take queues and groups, capture lists, and local variables closures
/// share (issue 22's outside puzzles 07, 12, 13, 24; swiftc, prelude in front, 100 runs each).
@Suite struct FunctionsAndCapturesTests {
    @Test func aFunctionMakesItsOwnObjectsAtEachCall() throws {
        // Outside puzzle 12: a queue of the function's own; each call makes another.
        #expect(try outcomeSet(explore("""
            func doTest(_ n: Int) {
                let otherQueue = DispatchQueue(label: "otherQueue")
                DispatchQueue.main.async {
                    otherQueue.sync { print("sync \\(n) \\(Thread.isMainThread)") }
                    otherQueue.async { print("async \\(n) \\(Thread.isMainThread)") }
                }
            }
            doTest(1)
            doTest(2)
            """)) == ["sync 1 true async 1 false sync 2 true async 2 false", "sync 1 true sync 2 true async 1 false async 2 false",
                      "sync 1 true sync 2 true async 2 false async 1 false"])
        expectDiagnostics("""
            func make() { let g = DispatchGroup(); g.enter(); g.leave() }
            for _ in 1...2 { 1️⃣make() }
            """, ["1️⃣": "'make' makes its own queues, groups or operations: call it where each call makes them once"])
    }

    @Test func aFunctionTakesTheQueueItIsGiven() throws {
        #expect(try outcomeSet(explore("""
            let semaphore = DispatchSemaphore(value: 0)
            func later(queue: DispatchQueue, _ symbol: String) {
                queue.async { print(symbol); semaphore.signal() }
            }
            later(queue: serialQueue, "a")
            later(queue: serialQueue, "b")
            semaphore.wait()
            semaphore.wait()
            """)) == ["a b"])
        expectDiagnostics("""
            func later(queue: DispatchQueue) { queue.async { } }
            later(queue: 1️⃣"main")
            """, ["1️⃣": "is not a queue the supported subset knows"])
    }

    @Test func aCapturedVarIsSharedAndACaptureListCopies() throws {
        // Outside puzzle 07 (MBLTDEV): `result` is one variable for the function and its closures.
        #expect(try outcomeSet(explore("""
            func runInQueues() {
              var result = 0
              let group = DispatchGroup()
              DispatchQueue.global().sync {
                DispatchQueue.main.async {
                  result = 1
                  DispatchQueue.global().async { [toPrint = result] in
                    DispatchQueue.main.async {
                      result = 2
                      group.leave()
                      result = 3
                    }
                    print(toPrint)
                  }
                }
              }
              group.enter()
              group.notify(queue: .main) { print(result) }
            }
            runInQueues()
            """)) == ["1 3", "3 1"])
        expectDiagnostics("""
            for _ in 1...2 {
                1️⃣var n = 0
                serialQueue.async { n += 1 }
            }
            """, ["1️⃣": "declared inside a loop: each run has a variable of its own"])
    }
}
