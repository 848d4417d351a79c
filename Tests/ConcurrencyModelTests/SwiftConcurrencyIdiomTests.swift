import ConcurrencyModel
import Testing

/// Swift-concurrency spellings outside puzzles write (issue 24's refusals: sc-03, sc-10, sc-13),
/// each expectation measured with swiftc in Swift 6 mode (`gcdquiz verify`, 30 runs).
@Suite struct SwiftConcurrencyIdiomTests {
    /// A completion handler and its async wrapper of the same name (Hacking with Swift's
    /// continuation example, from an outside survey, with `@Sendable` as Swift 6 asks): the
    /// closure passed runs where the handler is called; the overload is chosen by labels and
    /// `await`. verify ok: 1 of 1 outcome (20 runs); the two-call variant 3 of its 6 (30 runs;
    /// the others need the main thread to lag the workers).
    /// A closure for a closure parameter may name its parameters `$0`, `$1` (probe c3: verify ok).
    @Test func aClosureArgumentMayUseNumberedParameters() throws {
        #expect(try outcomeSet(explore("""
            func legacy(_ completion: @escaping @Sendable (Int) -> Void) {
                serialQueue.async { completion(1) }
            }
            let v = await withCheckedContinuation { c in
                legacy { c.resume(returning: $0) }
            }
            print(v)
            """)) == ["1"])
    }

    @Test func aCompletionHandlerIsWrappedInAContinuation() throws {
        #expect(try outcomeSet(explore("""
            func fetchLatestNews(completion: @escaping @Sendable ([String]) -> Void) {
                DispatchQueue.main.async {
                    completion(["Swift 5.5 release", "Apple acquires Apollo"])
                }
            }
            func fetchLatestNews() async -> [String] {
                await withCheckedContinuation { continuation in
                    fetchLatestNews { items in
                        continuation.resume(returning: items)
                    }
                }
            }
            func printNews() async {
                let items = await fetchLatestNews()
                for item in items {
                    print(item)
                }
            }
            await printNews()
            """)) == ["Swift 5.5 release Apple acquires Apollo"])
        #expect(try outcomeSet(explore("""
            func loadUser(id: Int, completion: @escaping @Sendable (String) -> Void) {
                DispatchQueue.global().async {
                    print("loading \\(id)")
                    completion("user\\(id)")
                }
            }
            func loadUser(id: Int) async -> String {
                await withCheckedContinuation { continuation in
                    loadUser(id: id) { name in
                        continuation.resume(returning: name)
                    }
                }
            }
            loadUser(id: 1) { name in print("callback", name) }
            let u = await loadUser(id: 2)
            print("async", u)
            """)).count == 6)
        expectDiagnostics("""
            func run(_ body: @escaping @Sendable () -> Void) { body() }
            func f() {
                let n = 0
                run 1️⃣{ print(n) }
            }
            f()
            """, ["1️⃣": "names its writer's local 'n'"])
        expectDiagnostics("func run(_ body: 1️⃣@escaping () async throws -> Void) {}", ["1️⃣": "returns nothing and does not throw"])
        // swiftc, compiling (its SIL pass; `-typecheck` passes it): "sending 'completion' risks
        // causing data races" where the handler is not @Sendable (the example as published).
        expectDiagnostics("""
            func f(completion: @escaping () -> Void) {
                DispatchQueue.main.async {
                    1️⃣completion()
                }
            }
            f { print("x") }
            await Task.yield()
            """, ["1️⃣": "sending 'completion' risks causing data races"])
    }

    /// Static functions of an enum used as a namespace or of a struct: `API.fetch(3)` (swiftc:
    /// `fetched 1 fetched 3 item 40 done!`, verify ok, 20 runs); other static members are refused.
    @Test func staticFunctionsAreCalledThroughTheirType() throws {
        #expect(try outcomeSet(explore("""
            enum API {
                static func fetch(_ id: Int) async -> Int {
                    try? await Task.sleep(nanoseconds: UInt64(id) * 1_000_000)
                    print("fetched \\(id)")
                    return id * 10
                }
                static func label(_ n: Int) -> String { "item \\(n)" }
            }
            struct Formatter {
                static func shout(_ s: String) -> String { s + "!" }
            }
            async let a = API.fetch(3)
            async let b = API.fetch(1)
            let total = await a + b
            print(API.label(total), Formatter.shout("done"))
            """)) == ["fetched 1 fetched 3 item 40 done!"])
        expectDiagnostics("struct S {\n    1️⃣static var n = 0\n}", ["1️⃣": "static members other than functions"])
    }

    @Test func anInlineTaskIsAwaitedWhereItStands() throws {
        #expect(try outcomeSet(explore("""
            func first() async -> String {
                try? await Task.sleep(nanoseconds: 3_000_000)
                return "first"
            }
            func second() async -> String {
                try? await Task.sleep(nanoseconds: 5_000_000)
                return "second"
            }
            Task {
                let n = await Task {
                    print("inner")
                    return 7
                }.value
                print("got \\(n)")
                async let a = first()
                async let b = second()
                let (x, y) = await (a, b)
                print(x, y)
            }
            """)) == ["inner got 7 first second"])
        expectDiagnostics("let n = 1\nTask {\n    let (a, b) = await (1️⃣n, n)\n}", ["1️⃣": "'n' is not an async let or task with a value"])
    }

    @Test func defaultArgumentsFillWhatACallLeavesOut() throws {
        #expect(try outcomeSet(explore("""
            func greet(_ name: String = "world", times: Int = 1) async {
                for _ in 0..<times { print("hello \\(name)") }
            }
            Task {
                await greet()
                await greet("you", times: 2)
                await greet(times: 2)
            }
            print("main")
            """)) == ["main hello world hello you hello you hello world hello world"])
        expectDiagnostics("func f(_ b: Bool = 1️⃣Thread.isMainThread) { print(b) }", ["1️⃣": "a default value is a constant here"])
        expectDiagnostics("func f(_ n: Int = 1) { print(n) }\n1️⃣f(m: 2)", ["1️⃣": "call 'f(_:)' with its parameters' labels, in order"])
    }

    /// `assert` is compiled out by `swiftc -O` (how live runs and verify build): its failing
    /// condition in the detached task changes nothing.
    @Test func assertIsCompiledOutAndTaskInitMakesATask() throws {
        #expect(try outcomeSet(explore("""
            @MainActor
            func work() async {
                assert(Thread.isMainThread)
                _ = await Task.detached {
                    assert(Thread.isMainThread)
                    print("detached")
                }.result
                print("after")
            }
            Task.init {
                await work()
            }
            print("main")
            """)) == ["main detached after"])
        expectDiagnostics("assert(1️⃣1)", ["1️⃣": "cannot convert value of type 'Int' to expected argument type 'Bool'"])
    }

    /// A synchronous `@MainActor` function, or a method of a `@MainActor` class, runs on its
    /// caller's thread, which is on the main actor; a task made in it inherits the main actor
    /// (swiftc, Swift 6 mode: `true` in 10 of 10 runs, where the model once said `false`).
    @Test func aMainActorSynchronousFunctionPassesTheMainActorOn() throws {
        #expect(try outcomeSet(explore("""
            @MainActor
            func f() {
                Task { print(Thread.isMainThread) }
            }
            f()
            """, on: Machine(platform: .linux))) == ["true"])
        #expect(try outcomeSet(explore("""
            @MainActor
            class ViewModel {
                var count = 0
                func update() {
                    count += 1
                    Task { print("task", Thread.isMainThread, self.count) }
                    print("update", Thread.isMainThread)
                }
            }
            let model = ViewModel()
            model.update()
            Task.detached { print("detached", Thread.isMainThread) }
            """, on: Machine(platform: .linux))) == ["update true detached false task true 1", "update true task true 1 detached false"])
        // An instance made for one call, as interview pages write it.
        #expect(try outcomeSet(explore("""
            @MainActor
            class MyViewModel {
                func updateUI() {
                    Task { print(Thread.isMainThread) }
                }
            }
            MyViewModel().updateUI()
            """, on: Machine(platform: .linux))) == ["true"])
        expectDiagnostics("""
            @MainActor
            func f() { print(1) }
            Task.detached { 1️⃣f() }
            """, ["1️⃣": "call to main actor-isolated function 'f' in a synchronous nonisolated context"])
    }

    /// One `await` over an expression of async lets, and a sleep of arithmetic of literals or a
    /// UInt64 conversion (swiftc, Swift 6 mode: `15 20` in 10 of 10 runs).
    @Test func oneAwaitCoversAnExpressionOfAsyncLets() throws {
        #expect(try outcomeSet(explore("""
            func a() async -> Int {
                try? await Task.sleep(nanoseconds: 2 * 1_000_000)
                return 10
            }
            func b() async -> Int {
                try? await Task.sleep(nanoseconds: UInt64(1_000_000))
                return 5
            }
            Task(priority: .high) {
                async let x = a()
                async let y = b()
                let sum = await (x + y)
                print(sum)
                print(await x * 2)
            }
            """)) == ["15 20"])
        expectDiagnostics("Task {\n    try? await Task.sleep(nanoseconds: 9_000_000_000_000_000_000 1️⃣* 2)\n}", ["1️⃣": "results in an overflow"])
    }
}

/// `MainActor.assertIsolated()` / `MainActor.preconditionIsolated()`: the main-actor check
/// without a body. swiftc 6.3, `-Onone` and `-O` alike: the process dies at the check off the
/// main actor (`verify --runs 200`: the one outcome each time).
@Suite struct MainActorIsolationCheckTests {
    /// Outside snippet sc3-16's four functions as top-level functions: the plain async one
    /// leaves the main actor in Swift 6 mode and its check kills the process.
    @Test func aPlainAsyncFunctionFailsTheCheck() throws {
        let exploration = try explore("""
            @MainActor
            func isolatedAndSync() {
                MainActor.assertIsolated()
                print(1)
            }
            @MainActor
            func isolatedAndAsync() async {
                MainActor.assertIsolated()
                print(2)
            }
            func nonisolatedAndSync() {
                MainActor.assertIsolated()
                print(3)
            }
            func nonisolatedAndAsync() async {
                MainActor.assertIsolated()
                print(4)
            }
            Task { @MainActor in
                MainActor.assertIsolated()
                isolatedAndSync()
                await isolatedAndAsync()
                nonisolatedAndSync()
                await nonisolatedAndAsync()
            }
            """)
        #expect(outcomeSet(exploration) == ["1 2 3 deadlock"])
        #expect(exploration.reports.first?.deadlock.map { exploration.narrator.words(for: $0) }?
            .contains("crash at line 16: MainActor.assertIsolated() runs on worker 1, off the main actor") == true)
    }

    /// From a detached task the check fails; on the main queue it holds.
    @Test func offAndOnTheMainActor() throws {
        #expect(try outcomeSet(explore("""
            print("a")
            MainActor.preconditionIsolated()
            print("b")
            await Task.detached {
                print("c")
                MainActor.preconditionIsolated("not on main")
                print("d")
            }.value
            print("e")
            """)) == ["a b c deadlock"])
        #expect(try outcomeSet(explore("""
            DispatchQueue.main.async {
                MainActor.assertIsolated()
                print("m")
            }
            """)) == ["m"])
    }
}

/// An `async` closure parameter (`_ op: @escaping @Sendable () async -> Void`) called with
/// `await op()`, in the function or in a `Task { await op() }` it makes. swiftc 6.3, Swift 6
/// mode: the closure literal runs off the main thread (Thread.isMainThread false, even for a
/// non-Sendable closure written on the main actor), so it leaves its caller's actor as a plain
/// async function does. Each snippet: `gcdquiz verify --runs 200` ok.
@Suite struct AsyncClosureParameterTests {
    /// Outside snippet sc3-11 with `@Sendable` added: the main thread blocks in group.wait()
    /// while the task runs the closure on the global executor. verify: "Count: 2" 200 of 200.
    @Test func aSendableAsyncClosureRunByATask() throws {
        #expect(try outcomeSet(explore("""
            func runAsync(_ operation: @escaping @Sendable () async -> Void) {
                let group = DispatchGroup()
                group.enter()
                Task {
                    await operation()
                    group.leave()
                }
                group.wait()
            }
            actor Counter {
                private var value = 0
                func increment() { value += 1 }
                func current() -> Int { return value }
            }
            let counter = Counter()
            runAsync {
                await counter.increment()
                await counter.increment()
                let value = await counter.current()
                print("Count: \\(value)")
            }
            """)) == ["Count: 2"])
    }

    /// Awaited in place from the main actor: it hops to the global executor and back, so a
    /// main-queue block may print before, inside or after it (verify saw 2 of the 3).
    @Test func awaitedInPlaceLeavesTheMainActor() throws {
        #expect(try outcomeSet(explore("""
            func later(_ label: String, _ op: @Sendable () async -> Void) async {
                await op()
                print("done", label)
            }
            DispatchQueue.main.async {
                print("M")
            }
            await later("x") {
                print("in x")
            }
            """)) == ["M in x done x", "in x M done x", "in x done x M"])
    }

    /// Without `@Sendable`, handing it to a Task is Swift 6's region error (swiftc: "passing
    /// closure as a 'sending' parameter risks causing data races", at the Task); outside
    /// snippet sc3-11 as written.
    @Test func aNonSendableClosureSentToATaskIsRefused() {
        expectDiagnostics("""
            func run(_ operation: @escaping () async -> Void) {
                1️⃣Task {
                    await operation()
                }
            }
            run {
                print("x")
            }
            """, ["1️⃣": "passing closure as a 'sending' parameter risks causing data races"])
        expectDiagnostics("""
            func run(_ operation: @Sendable () async -> Void) async {
                1️⃣operation()
            }
            await run {
                print("x")
            }
            """, ["1️⃣": "expression is 'async' but is not marked with 'await'"])
        // Written in main-actor code (not top-level code), a non-Sendable async closure is
        // isolated there: swiftc 6.3 refuses handing it to a nonisolated function, at the callee.
        expectDiagnostics("""
            func measure(_ op: () async -> Void) async {
                await op()
            }
            Task { @MainActor in
                await 1️⃣measure {
                    print("inside")
                }
            }
            """, ["1️⃣": "sending value of non-Sendable type '() async -> ()' risks causing data races"])
    }

    /// Written in top-level code, a non-Sendable async closure compiles and runs off the main
    /// thread (swiftc 6.3: Thread.isMainThread false inside; verify ok, 200 runs).
    @Test func aNonSendableClosureFromTopLevelCodeRunsOffTheMainActor() throws {
        #expect(try outcomeSet(explore("""
            func measure(_ op: () async -> Void) async {
                print("start", Thread.isMainThread)
                await op()
                print("end", Thread.isMainThread)
            }
            await measure {
                print("inside", Thread.isMainThread)
            }
            """)) == ["start false inside false end false"])
    }

    /// An actor's method returning an optional, awaited in `if let`, `guard let` and on the left
    /// of `??` (one `await` covering the expression): each call runs just before its statement,
    /// as in Swift (verify: 1 of 1 in 30 runs).
    @Test func awaitedOptionalsInBindingsAndCoalescing() throws {
        #expect(try outcomeSet(explore("""
            actor Cache {
                private var store: [String: Int] = [:]
                func value(for key: String) -> Int? { store[key] }
                func set(_ v: Int, for key: String) { store[key] = v }
            }
            let cache = Cache()
            await cache.set(1, for: "a")
            if let v = await cache.value(for: "a") { print("hit \\(v)") }
            func check() async {
                guard let w = await cache.value(for: "a") else { return }
                print("guard \\(w)")
            }
            await check()
            let x = await cache.value(for: "b") ?? -1
            print(x)
            print(await cache.value(for: "b") ?? -2)
            """)) == ["hit 1 guard 1 -1 -2"])
    }

    /// `nonisolated(unsafe) var` is off the main actor: detached tasks may touch it (swiftc 6.3
    /// compiles it), and they race (verify: 1 of 2 in 100 runs).
    @Test func nonisolatedUnsafeGlobalsRace() throws {
        let exploration = try explore("""
            nonisolated(unsafe) var shared = 0
            Task.detached { shared += 1 }
            Task.detached { shared += 1 }
            try await Task.sleep(nanoseconds: 10_000_000)
            print(shared)
            """)
        #expect(outcomeSet(exploration) == ["1", "2"])
        #expect(!exploration.races.isEmpty)
    }
}
