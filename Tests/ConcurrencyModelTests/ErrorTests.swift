import ConcurrencyModel
import Testing

/// Swift errors, pinned by swiftc runs of each snippet with the prelude in front (`gcdquiz verify
/// FILE --runs 30`/`40` on 2 cores, Linux: every run's output among the model's outcomes) and by
/// what swiftc prints: `print(MyError.failed)` shows `failed`, `CancellationError()` shows
/// `CancellationError()`; an error out of the top-level code dies with "Fatal error: Error raised
/// at top level: MyError.failed"; `try!` of a call that throws with "'try!' expression
/// unexpectedly raised an error".
@Suite struct ErrorTests {
    let machine = Machine(cores: 2, platform: .linux)

    func outcomes(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Set<String> {
        outcomeSet(try explore(source, on: machine, sourceLocation: sourceLocation))
    }

    @Test func anErrorLeavesTheFunctionForTheFirstMatchingClause() throws {
        #expect(try outcomes("""
            enum MyError: Error { case failed, timedOut }
            func work(_ n: Int) throws -> Int {
                if n > 1 { throw MyError.failed }
                return n * 10
            }
            do {
                print(try work(1))
                print(try work(2))
                print("unreached")
            } catch MyError.timedOut {
                print("timed out")
            } catch {
                print("caught \\(error)")
            }
            try? work(5)
            print("end")
            """) == ["10 caught failed end"])
    }

    /// `struct MyError: Error {}`: `MyError()` prints as written; `catch is T` and `catch let e
    /// as T` take it by its type (swiftc: `MyError()`, `other Other()`; verify ok, 20 runs).
    @Test func anEmptyErrorStructIsThrownAndCaughtByItsType() throws {
        #expect(try outcomes("""
            struct MyError: Error {}
            struct Other: Error, Sendable {}
            do { throw MyError() } catch { print(error) }
            do {
                throw Other()
            } catch is MyError {
                print("mine")
            } catch let e as Other {
                print("other", e)
            }
            """) == ["MyError() other Other()"])
        expectDiagnostics("1️⃣struct E: Error { let code: Int }\nthrow E(code: 1)", ["1️⃣": "an error struct here has no members"])
        expectDiagnostics("struct E: Error {}\nthrow 1️⃣E(1)", ["1️⃣": "E() takes no arguments"])
    }

    @Test func anErrorOutOfTheTopLevelCodeKillsTheProcess() throws {
        let exploration = try explore("""
            enum MyError: Error { case failed }
            func f() throws { throw MyError.failed }
            print("a")
            try f()
            print("b")
            """, on: machine)
        #expect(outcomeSet(exploration) == ["a deadlock"])
        let reason = try #require(exploration.reports.first?.deadlock)
        guard case .runtimeError(_, .errorAtTopLevel("MyError.failed"), let span) = reason else {
            Issue.record("not the error at top level: \(reason)")
            return
        }
        #expect(span.line == 4)
    }

    @Test func tryBangTrapsWhenTheCallThrows() throws {
        #expect(try outcomes("""
            enum MyError: Error { case failed }
            func f(_ n: Int) throws { if n == 0 { throw MyError.failed } }
            print("start")
            try! f(1)
            print("one")
            try! f(0)
            print("unreached")
            """) == ["start one deadlock"])
    }

    @Test func cancellingASleepingTaskThrowsCancellationError() throws {
        #expect(try outcomes("""
            let t = Task {
                do {
                    try await Task.sleep(nanoseconds: 1_000_000_000)
                    print("slept")
                } catch is CancellationError {
                    print("cancelled")
                }
                print("after")
            }
            t.cancel()
            try await t.value
            print("done")
            """) == ["cancelled after done"])
    }

    @Test func anErrorOutOfATaskEndsItAndItsValueRethrowsIt() throws {
        #expect(try outcomes("""
            enum MyError: Error { case failed }
            let t = Task {
                print("start")
                throw MyError.failed
            }
            do {
                try await t.value
                print("value")
            } catch {
                print("error: \\(error)")
            }
            """) == ["start error: failed"])
        // Nothing prints an error that leaves a task nobody awaits.
        #expect(try outcomes("""
            enum MyError: Error { case failed }
            Task {
                print("start")
                throw MyError.failed
            }
            print("main")
            """) == ["main start"])
    }

    @Test func aSleepCancelledMidwayThrowsThroughTheTasksValue() throws {
        #expect(try outcomes("""
            let t = Task {
                print("sleeping")
                try await Task.sleep(nanoseconds: 100_000_000)
                print("woke")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
            t.cancel()
            do {
                try await t.value
                print("finished")
            } catch {
                print("caught \\(error)")
            }
            """) == ["sleeping caught CancellationError()"])
    }

    @Test func aThrowingChildEndsTheGroupAfterTheOthers() throws {
        #expect(try outcomes("""
            enum MyError: Error { case failed }
            do {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for i in 1...3 {
                        group.addTask {
                            if i == 2 { throw MyError.failed }
                            return i
                        }
                    }
                    for try await value in group {
                        print(value)
                    }
                }
            } catch {
                print("Error: \\(error)")
            }
            print("done")
            """) == ["1 3 Error: failed done", "1 Error: failed done", "Error: failed done"])
    }

    /// The body's error cancels the sleeping child and waits for it before the group rethrows.
    /// `withThrowingTaskGroup` rethrows its body's error: unmarked, it is accepted where nothing
    /// can leave the body (swiftc 6.3 type-checks it; an outside snippet's body catches
    /// everything), and a child's error nobody reads is dropped when the body ends. A child may
    /// only throw. verify ok: 30, 30 and 20 runs.
    @Test func aThrowingGroupWhoseBodyCannotThrowNeedsNoTry() throws {
        #expect(try outcomes("""
            enum E: Error { case bad }
            func fail() async throws -> Int { throw E.bad }
            func runTasks() async {
                await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { try await fail() }
                    group.addTask { 2 }
                    print("body")
                }
                print("after group")
            }
            await runTasks()
            print("end")
            """) == ["body after group end"])
        #expect(try outcomes("""
            enum E: Error { case bad }
            func runTasks() async {
                await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { throw E.bad }
                    do {
                        while let v = try await group.next() { print(v) }
                    } catch let e as E {
                        print("caught E", e)
                    } catch {
                        print("other")
                    }
                }
            }
            await runTasks()
            """) == ["caught E bad"])
    }

    @Test func anErrorOutOfAGroupsBodyCancelsAndAwaitsItsChildren() throws {
        #expect(try outcomes("""
            enum E: Error { case stop }
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            try await Task.sleep(nanoseconds: 1_000_000_000)
                            print("child slept")
                        } catch {
                            print("child cancelled")
                        }
                    }
                    print("body throws")
                    throw E.stop
                }
            } catch {
                print("caught \\(error)")
            }
            """) == ["body throws child cancelled caught stop"])
    }

    /// sc-02's `do { try await Task.sleep } catch` parts, its sleeps written as literals and its
    /// `await (a + b)` as two awaits: the outside log's two outputs (149 and 1 of 150 runs).
    @Test func theOutsidePuzzlesSleepsInDoCatch() throws {
        #expect(try outcomes("""
            func performTaskA() async -> Int {
                print("Start A")
                do {
                    try await Task.sleep(nanoseconds: 100_000_000)
                    print("End A")
                }
                catch {
                    print("Error")
                }
                return 10
            }
            func performTaskB() async -> Int {
                print("Start B")
                do {
                    try await Task.sleep(nanoseconds: 50_000_000)
                    print("End B")
                }
                catch {
                    print("Error")
                }
                return 5
            }
            func doSomething() {
                Task(priority: .high) {
                    async let a = performTaskA()
                    async let b = performTaskB()
                    let x = await a
                    let y = await b
                    print(x + y)
                }
            }
            doSomething()
            """) == ["Start A Start B End B End A 15", "Start B Start A End B End A 15"])
    }

    /// A callback API wrapped in a throwing continuation: `resume(throwing:)` from a queue's
    /// block makes the awaiting task throw (50 swiftc runs).
    @Test func resumeThrowingMakesTheAwaitThrow() throws {
        #expect(try outcomes("""
            enum NetError: Error { case offline }
            func fetch(_ ok: Bool) async throws -> Int {
                try await withCheckedThrowingContinuation { cont in
                    DispatchQueue.global().async {
                        if ok {
                            cont.resume(returning: 42)
                        } else {
                            cont.resume(throwing: NetError.offline)
                        }
                    }
                }
            }
            do {
                print(try await fetch(true))
                print(try await fetch(false))
            } catch {
                print("failed: \\(error)")
            }
            """) == ["42 failed: offline"])
        expectDiagnostics("let v: Int = await 1️⃣withCheckedThrowingContinuation { cont in cont.resume(returning: 1) }",
                          ["1️⃣": "call can throw but is not marked with 'try'"])
    }

    @Test func checkCancellationInAFunctionAndATypeTestInTheCatch() throws {
        #expect(try outcomes("""
            func step(_ n: Int) async throws {
                try Task.checkCancellation()
                print("step \\(n)")
            }
            let task = Task {
                do {
                    try await step(1)
                    await Task.yield()
                    try await step(2)
                } catch {
                    if let e = error as? CancellationError { print("cancelled: \\(e)") }
                }
            }
            task.cancel()
            """) == ["cancelled: CancellationError()"])
    }

    /// The error leaves the actor's method; the task throws it on back on the main actor.
    @Test func anActorMethodsErrorIsCaughtBackOnTheCallersActor() throws {
        #expect(try outcomes("""
            enum BankError: Error { case insufficient }
            actor Account {
                var balance = 10
                func withdraw(_ amount: Int) throws {
                    if amount > balance { throw BankError.insufficient }
                    balance -= amount
                    print("left \\(balance)")
                }
            }
            let account = Account()
            Task {
                do {
                    try await account.withdraw(5)
                    try await account.withdraw(8)
                } catch {
                    print("failed: \\(error)")
                }
                print("on main: \\(Thread.isMainThread)")
            }
            """) == ["left 5 failed: insufficient on main: true"])
    }

    @Test func anAsyncLetsErrorComesAtItsAwait() throws {
        #expect(try outcomes("""
            enum E: Error { case bad }
            func load(_ n: Int) async throws -> Int {
                if n == 2 { throw E.bad }
                return n
            }
            async let a = load(1)
            async let b = load(2)
            do {
                let x = try await a
                let y = try await b
                print(x + y)
            } catch {
                print("error \\(error)")
            }
            """) == ["error bad"])
    }

    @Test func catchLetAsBindsTheErrorAndTryQuestionDropsIt() throws {
        #expect(try outcomes("""
            enum MyError: Error { case failed }
            func check(_ n: Int) throws {
                if n == 3 { throw MyError.failed }
                print("ok \\(n)")
            }
            Task {
                for i in 1...4 {
                    try check(i)
                }
                print("all checked")
            }
            Task {
                do {
                    try check(3)
                } catch let e as MyError {
                    print("mine: \\(e)")
                }
            }
            print("main")
            try! check(1)
            try? check(3)
            print("end")
            """) == ["main ok 1 end ok 1 ok 2 mine: failed"])
    }

    @Test func misuseIsPlacedAtItsLine() {
        expectDiagnostics("enum E: Error { case bad }\nfunc f() { 1️⃣throw E.bad }", ["1️⃣": "errors thrown from here are not handled"])
        expectDiagnostics("enum E: Error { case bad }\nfunc f() throws { throw E.bad }\n1️⃣f()", ["1️⃣": "call can throw but is not marked with 'try'"])
        // swiftc: "invalid conversion from throwing function of type '@Sendable () throws -> Void' to
        // non-throwing function type", once, at the closure.
        expectDiagnostics("enum E: Error { case bad }\nDispatchQueue.global().async 1️⃣{\n    try Task.checkCancellation()\n    throw E.bad\n}",
                          ["1️⃣": "invalid conversion from throwing function to non-throwing function type"])
        expectDiagnostics("func f() 1️⃣throws(CancellationError) {}", ["1️⃣": "typed throws"])
        expectDiagnostics("enum E: Error { case bad }\nfunc f() throws { throw E.bad }\ntry serialQueue.sync {\n    1️⃣try f()\n}",
                          ["1️⃣": "an error thrown out of a sync closure is outside the supported subset"])
        // A scope's `defer` runs where it ends or returns; an error leaving it is refused.
        expectDiagnostics("enum E: Error { case bad }\nfunc f() throws {\n    defer { print(1) }\n    1️⃣throw E.bad\n}",
                          ["1️⃣": "an error thrown out of a scope with 'defer'"])
        // sc-16 (its body's `for try await` can throw): swiftc says the same at the same place
        // (5:11 in the outside file).
        expectDiagnostics("""
            func runTasks() async throws {
                await 1️⃣withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { 1 }
                    for try await value in group { print(value) }
                }
            }
            """, ["1️⃣": "call can throw but is not marked with 'try'"])
    }

    /// URLError's and NSError's text is Foundation's NSError description: measured on Linux
    /// (`Error Domain=NSURLErrorDomain Code=-1000 "(null)"`), not on Apple platforms.
    @Test func printingAFoundationErrorIsRefused() {
        expectDiagnostics("""
            Task {
                do {
                    throw NSError(domain: "Test", code: 1)
                } catch {
                    print(1️⃣error)
                }
            }
            """, ["1️⃣": "printing an error here is outside the supported subset"])
    }
}
