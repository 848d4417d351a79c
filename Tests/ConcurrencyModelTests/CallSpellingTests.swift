import ConcurrencyModel
import Testing

/// Spellings of calls that outside interview snippets use (notes/outside2: sc2-13, sc2-14, sc2-16):
/// `MainActor.run(body: f)`, `await A().foo()`, `MainActor.assumeIsolated`, and the clock
/// forms of `Task.sleep`. Each pinned outcome set is the one `gcdquiz verify` found swiftc
/// (Swift 6 mode, Linux, 2 CPUs, 200 runs) to print, every outcome seen.
@Suite struct CallSpellingTests {
    /// sc2-16: two tasks made on an actor, each hopping to the main actor through
    /// `MainActor.run(body:)` with a function: either may get there first.
    static let runWithFunctions = """
        @MainActor func mustBeExecutedFirst() { print("first") }
        @MainActor func mustBeExecutedSecond() { print("second") }

        actor A {
            func foo() {
                Task {
                    await MainActor.run(body: mustBeExecutedFirst)
                }
                Task {
                    await MainActor.run(body: mustBeExecutedSecond)
                }
            }
        }

        await A().foo()
        """

    @Test func mainActorRunTakesAFunctionOfTheSnippet() throws {
        #expect(try outcomeSet(explore(Self.runWithFunctions)) == ["first second", "second first"])
        #expect(try outcomeSet(explore("""
            @MainActor func three() -> Int { 3 }
            func hello() { print("hello") }
            let v = await MainActor.run(body: three)
            await MainActor.run(body: hello)
            print(v)
            """)) == ["hello 3"])
    }

    @Test func mainActorRunRefusesWhatSwiftcRefuses() {
        expectDiagnostics("func f() async { }\nawait MainActor.run(body: 1️⃣f)",
                          ["1️⃣": "cannot pass function of type '@Sendable () async -> ()' to parameter expecting synchronous function type"])
        expectDiagnostics("func f(_ x: Int) { }\nawait MainActor.run(body: 1️⃣f)",
                          ["1️⃣": "cannot convert value of type '@Sendable (Int) -> ()' to expected argument type"])
        expectDiagnostics("let n = 1\nawait 1️⃣MainActor.run(body: n)", ["1️⃣": "write MainActor.run { … }"])
    }

    /// A synchronous `@MainActor` function awaited from an actor or a nonisolated function: the
    /// call hops to the main actor (busy with the top level until it ends) and back
    /// (`gcdquiz verify`: ok, 2 of 2 outcomes in 100 runs).
    @Test func anAwaitedMainActorFunctionHopsToTheMainActor() throws {
        #expect(try outcomeSet(explore("""
            @MainActor func mark() { print("main") }
            actor A {
                func go() async {
                    print("a1")
                    await mark()
                    print("a2")
                }
            }
            Task.detached { await A().go() }
            print("top")
            """)) == ["a1 top main a2", "top a1 main a2"])
        #expect(try outcomeSet(explore("""
            @MainActor func label(_ n: Int) -> String {
                print("label \\(n)")
                return "L\\(n)"
            }
            func work() async {
                let s = await label(1)
                print(s)
            }
            Task.detached { await work() }
            print("top")
            """)) == ["top label 1 L1"])
    }

    /// `await` on a synchronous call is only a warning to swiftc: the call runs in place.
    @Test func anAwaitedSynchronousFunctionRunsInPlace() throws {
        #expect(try outcomeSet(explore("""
            func double(_ n: Int) -> Int { n * 2 }
            Task {
                let x = await double(4)
                print(x)
            }
            print("top")
            """)) == ["top 8"])
    }

    /// `MainActor.run { () -> Int in … }` names its value's type; `await VM()` of a
    /// `@MainActor` class on the main actor awaits nothing (swiftc warns) and makes it in place.
    @Test func spelledOutClosureTypesAndAwaitedInstantiation() throws {
        #expect(try outcomeSet(explore("""
            print("before")
            let value = await MainActor.run { () -> Int in
                print("on main")
                return 7
            }
            print("after \\(value)")
            """)) == ["before on main after 7"])
        #expect(try outcomeSet(explore("""
            @MainActor final class VM {
                var n = 1
                func show() { print("n \\(n)") }
            }
            let vm = await VM()
            vm.show()
            """)) == ["n 1"])
    }

    /// `await A().foo()`: the instance is made for the call, and the call hops to it.
    @Test func anActorMadeInPlaceTakesTheCall() throws {
        #expect(try outcomeSet(explore("""
            actor A {
                var n = 1
                func next() -> Int { n + 1 }
                func show() { print("show \\(n)") }
            }
            await A().show()
            print(await A().next())
            """)) == ["show 1 2"])
        expectDiagnostics("actor A { func foo() { } }\nawait A().1️⃣bar()", ["1️⃣": "value of type 'A' has no member 'bar'"])
    }

    /// sc2-14: main-queue blocks that assume the main actor run in their FIFO order.
    static let assumeFromMainQueue = """
        @MainActor func mustBeExecutedFirst() { print("first") }
        @MainActor func mustBeExecutedSecond() { print("second") }

        actor A {
            func foo() {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated(mustBeExecutedFirst)
                }
                DispatchQueue.main.async {
                    MainActor.assumeIsolated(mustBeExecutedSecond)
                }
            }
        }

        await A().foo()
        """

    @Test func assumeIsolatedRunsItsBodyOnTheMainActor() throws {
        #expect(try outcomeSet(explore(Self.assumeFromMainQueue)) == ["first second"])
        #expect(try outcomeSet(explore("""
            print("top")
            MainActor.assumeIsolated { print("inside") }
            DispatchQueue.main.async { MainActor.assumeIsolated { print("block") } }
            print("end")
            """)) == ["top inside end block"])
    }

    /// Off the main actor the process dies (swiftc: SIGILL in dispatch_assert_queue, nothing after).
    @Test func assumeIsolatedOffTheMainActorKillsTheProcess() throws {
        let exploration = try explore("""
            print("top")
            DispatchQueue.global().async {
                print("before")
                MainActor.assumeIsolated { print("inside") }
                print("after")
            }
            """)
        #expect(outcomeSet(exploration) == ["top before deadlock"])
        guard let ending = exploration.reports.first?.deadlock, case .preconditionFailed(_, .assumeIsolated, _, let span) = ending else {
            Issue.record("\(String(describing: exploration.reports.first?.deadlock))")
            return
        }
        #expect(span.line == 4)
        let words = Narrator(program: exploration.program).words(for: ending)
        #expect(words.contains("MainActor.assumeIsolated runs on worker"), "\(words)")
        #expect(words.contains("off the main actor"), "\(words)")
    }

    @Test func assumeIsolatedIsUnavailableFromAsyncCode() {
        let message = "static method 'assumeIsolated' is unavailable from asynchronous contexts"
        expectDiagnostics("Task {\n    1️⃣MainActor.assumeIsolated { print(1) }\n}", ["1️⃣": message])
        expectDiagnostics("func f() async { }\nawait f()\n1️⃣MainActor.assumeIsolated { print(1) }", ["1️⃣": message])
        expectDiagnostics("DispatchQueue.main.async {\n    1️⃣dispatchPrecondition(condition: .assumeIsolated(.main))\n}",
                          ["1️⃣": "write dispatchPrecondition(condition: .onQueue(q))"])
    }

    /// sc2-13's `Task.sleep(until: .now + d, clock: .continuous)` and the clock's own sleep are
    /// `Task.sleep(for: d)` (TaskSleepDuration.swift: `sleep(for:)` is `sleep(until: .now + d, clock: .continuous)`).
    @Test func clockSleepsAreSleepsOfTheirDuration() throws {
        #expect(try outcomeSet(explore("""
            Task {
                try await Task.sleep(until: .now + .milliseconds(30), clock: .continuous)
                print("c")
            }
            Task {
                try await ContinuousClock().sleep(for: .milliseconds(20))
                print("b")
            }
            Task {
                try await Task.sleep(for: .milliseconds(10), tolerance: .milliseconds(1))
                print("a")
            }
            """)) == ["a b c"])
        expectDiagnostics("Task {\n    try await 1️⃣Task.sleep(until: .now + .seconds(1))\n}", ["1️⃣": "missing argument for parameter 'clock' in call"])
    }

    /// Blocking calls swiftc refuses in async code in Swift 6 mode (measured with swiftc 6.3;
    /// in Swift 5 mode they are warnings, and the model answers).
    @Test func blockingCallsAreUnavailableFromAsyncCode() throws {
        expectDiagnostics("Task {\n    Thread.1️⃣sleep(forTimeInterval: 0.01)\n    print(1)\n}",
                          ["1️⃣": "class method 'sleep' is unavailable from asynchronous contexts"])
        expectDiagnostics("let l = NSLock()\nfunc f() async {\n    l.1️⃣lock()\n    l.2️⃣unlock()\n}", [
            "1️⃣": "instance method 'lock' is unavailable from asynchronous contexts; Use async-safe scoped locking instead",
            "2️⃣": "instance method 'unlock' is unavailable from asynchronous contexts",
        ])
        expectDiagnostics("let l = NSRecursiveLock()\nfunc f() async { }\nawait f()\nl.1️⃣lock()\nl.2️⃣unlock()", [
            "1️⃣": "instance method 'lock' is unavailable", "2️⃣": "instance method 'unlock' is unavailable",
        ])
        expectDiagnostics("Task {\n    print(Thread.1️⃣current.2️⃣isMainThread)\n}", [
            "1️⃣": "class property 'current' is unavailable from asynchronous contexts",
            "2️⃣": "property 'isMainThread' is unavailable from asynchronous contexts",
        ])
        // Synchronous code, and calls that stay available, still answer.
        #expect(try outcomeSet(explore("""
            let l = NSLock()
            l.lock()
            Thread.sleep(forTimeInterval: 0.01)
            l.unlock()
            Task {
                sleep(0)
                l.withLock { print("t") }
            }
            """)) == ["t"])
        // A plain computed property's getter is synchronous, whoever reads it: swiftc 6.3 compiles
        // `lock()` there (verify: 1 of 1 in 30 runs), and only `get async` would refuse it.
        #expect(try outcomeSet(explore("""
            final class Counter: @unchecked Sendable {
                private let lock = NSLock()
                private var value = 0
                func increment() {
                    lock.lock()
                    defer { lock.unlock() }
                    value += 1
                }
                var current: Int {
                    lock.lock()
                    defer { lock.unlock() }
                    return value
                }
            }
            let counter = Counter()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { counter.increment() } }
            }
            print(counter.current)
            """)) == ["3"])
        let swift5 = SnippetCompiler.compile("Task {\n    Thread.sleep(forTimeInterval: 0.01)\n    print(1)\n}", mode: LanguageMode(swiftVersion: 5))
        guard case .success = swift5 else {
            Issue.record("Swift 5 mode only warns: \(swift5)")
            return
        }
    }

    /// An actor's methods calling each other (`g()`, `self.g()`, `await self.bump()`) and reading
    /// `self.count`: on the executor the caller holds. swiftc, 200 runs: both outcomes.
    @Test func anActorsMethodsCallEachOtherOnItsExecutor() throws {
        #expect(try outcomeSet(explore("""
            actor Counter {
                var count = 0
                func increment() {
                    self.count += 1
                    report("inc \\(self.count)")
                }
                func report(_ s: String) { print(s) }
                func summary() async -> Int {
                    increment()
                    await self.bump()
                    return self.count
                }
                func bump() async { count += 10 }
            }
            let c = Counter()
            Task { await c.increment() }
            print(await c.summary())
            """)) == ["inc 1 11 inc 12", "inc 1 inc 12 11"])
        expectDiagnostics("actor A {\n    func f() { DispatchQueue.global().async { self.1️⃣g() } }\n    func g() { }\n}\nlet a = A()\nawait a.f()",
                          ["1️⃣": "call to actor-isolated instance method 'g()' in a synchronous nonisolated context"])
        expectDiagnostics("actor A {\n    func f() { 1️⃣g() }\n    func g() async { }\n}\nlet a = A()\nawait a.f()",
                          ["1️⃣": "expression is 'async' but is not marked with 'await'"])
        expectDiagnostics("actor A {\n    func f() { g() }\n    func g() { 1️⃣f() }\n}\nlet a = A()\nawait a.f()",
                          ["1️⃣": "recursion is outside the supported subset"])
    }

    /// `Task { [n] in }`, `Task { @MainActor [m = n + 1] in }`, `Task { @Sendable in }`: the
    /// capture list copies where the task is made; `@Sendable` keeps the context's isolation
    /// (swiftc: Thread.isMainThread true in such a task made at the top level).
    @Test func aTasksClosureMayListItsCaptures() throws {
        #expect(try outcomeSet(explore("""
            var n = 1
            Task { [n] in print("copy \\(n)") }
            Task { @MainActor [m = n + 1] in print("m \\(m)") }
            Task { @Sendable in print("sendable") }
            n = 5
            print("n \\(n)")
            """)) == ["n 5 copy 1 m 2 sendable"])
        expectDiagnostics("Task { 1️⃣(x: Int) in print(x) }", ["1️⃣": "a Task's closure takes no parameters here"])
        expectDiagnostics("let n = 1\nTask { [1️⃣weak n] in print(1) }", ["1️⃣": "'weak' captures are outside the supported subset"])
    }

    /// `await c.n` reads another instance's property on its executor (a hop there and back);
    /// `await print("n", c.n)` awaits its argument; a `let` is read without a hop. The task made
    /// first gets the main actor when the top level first hops away, so its `inc()` reaches the
    /// actor before the second read (swiftc: 200 of 200 runs "0", "c 1 1").
    @Test func anActorsPropertyIsReadWithAwait() throws {
        #expect(try outcomeSet(explore("""
            actor C {
                let name = "c"
                var n = 0
                func inc() { n += 1 }
            }
            let c = C()
            Task { await c.inc() }
            print(await c.n)
            let v = await c.n
            await print(c.name, v, c.n)
            """)) == ["0 c 1 1"])
    }

    /// `let v = await MainActor.run { 40 }`: the closure's value (one expression, or `return`).
    /// The way in gives the main actor up, so a main-actor task made before prints first
    /// (swiftc, 200 of 200 runs).
    @Test func mainActorRunGivesItsClosuresValue() throws {
        #expect(try outcomeSet(explore("""
            Task { @MainActor in print("task") }
            let v = await MainActor.run { 40 }
            let w = await MainActor.run {
                print("inside")
                return v + 2
            }
            print(v, w)
            """)) == ["task inside 40 42"])
    }
}
