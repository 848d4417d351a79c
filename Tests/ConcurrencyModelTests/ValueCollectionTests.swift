import ConcurrencyModel
import Testing

/// Everyday Swift values that interview snippets about concurrency use: arrays of `Task` handles
/// (outside3/sc3-19), `map`/`filter`/`reduce`/`compactMap`, `joined(separator:)`, printed arrays
/// and dictionary literals. Each answer is the model's, checked with `gcdquiz verify` (swiftc,
/// 50 to 100 runs) when the tests were written: the figures are in the comments.
@Suite struct ValueCollectionTests {
    /// `tasks.append(Task { … })` in a loop, then `for t in tasks { await t.value }`: the
    /// main-actor tasks run in order, before "done" (verify: 1 of 1 in 50 runs).
    @Test func anArrayOfTasksAwaitedInALoop() throws {
        #expect(try outcomeSet(explore("""
            var tasks: [Task<Void, Never>] = []
            for i in 0..<3 {
                tasks.append(Task {
                    print("task \\(i)")
                })
            }
            for t in tasks {
                await t.value
            }
            print("done")
            """)) == ["task 0 task 1 task 2 done"])
    }

    /// `Task<Int, Never>` handles whose values are printed (verify: 1 of 1 in 100 runs).
    @Test func tasksGiveTheirValuesThroughTheArray() throws {
        #expect(try outcomeSet(explore("""
            var tasks: [Task<Int, Never>] = []
            for i in 1...3 {
                tasks.append(Task { i * 10 })
            }
            for t in tasks {
                let v = await t.value
                print(v)
            }
            """)) == ["10 20 30"])
    }

    /// In a nonisolated async function the tasks start on the global executor, in any order;
    /// `let t = Task { … }; tasks.append(t)` and `sum += v` (verify: 3 of 4 on 2 cores, 100 runs).
    @Test func nonisolatedTasksKeptThenSummed() throws {
        let exploration = try explore("""
            func work() async {
                var tasks: [Task<Int, Never>] = []
                for i in 1...3 {
                    let t = Task {
                        print("start \\(i)")
                        return i * i
                    }
                    tasks.append(t)
                }
                var sum = 0
                for t in tasks {
                    let v = await t.value
                    sum += v
                }
                print("sum \\(sum)")
            }
            await work()
            """)
        #expect(outcomeSet(exploration) == Set(["1 2 3", "1 3 2", "2 1 3", "2 3 1", "3 1 2", "3 2 1"].map { order in
            order.split(separator: " ").map { "start \($0)" }.joined(separator: " ") + " sum 14"
        }))
    }

    /// The forum's @MainActor case (outside3/sc3-19a with 4 tasks): in order, so nothing is out
    /// of order (verify: 1 of 1 in 50 runs); without @MainActor (3 tasks), the tasks race to the
    /// actor (verify: 1 of 4 outcomes on 2 cores seen in 100 runs, none outside the model).
    @Test func theForumsSequenceCheckerWithAndWithoutTheMainActor() throws {
        let checker = """
            actor SequenceChecker {
                var expectedNext: Int = 0
                func receive(_ value: Int) {
                    if value != expectedNext { print("out of order: \\(value)") }
                    expectedNext += 1
                }
            }
            let sink = SequenceChecker()
            """
        let send = """
            func send(quantity: Int) async {
                let range = 0..<quantity
                var tasks: [Task<Void, Never>] = []
                for i in range {
                    let t = Task {
                        await sink.receive(i)
                    }
                    tasks.append(t)
                }
                await Task {
                    for task in tasks {
                        _ = await task.value
                    }
                }.value
            }
            """
        #expect(try outcomeSet(explore(checker + "\n@MainActor\n" + send + "\nawait send(quantity: 4)\nprint(\"done\")")) == ["done"])
        let racing = try outcomeSet(explore(checker + "\n" + send + "\nawait send(quantity: 3)\nprint(\"done\")"))
        #expect(racing == ["done", "out of order: 1 out of order: 0 done", "out of order: 1 out of order: 2 out of order: 0 done",
                           "out of order: 2 out of order: 0 done", "out of order: 2 out of order: 0 out of order: 1 done",
                           "out of order: 2 out of order: 1 done"])
    }

    /// `await tasks[i].value`, on its own line and inside an expression one `await` covers, and
    /// kept tasks put in an array (verify: 1 of 1 in 50 runs each).
    @Test func anElementOfAnArrayOfTasksAwaited() throws {
        #expect(try outcomeSet(explore("""
            var tasks: [Task<Void, Never>] = []
            for i in 0..<2 {
                tasks.append(Task { print(i) })
            }
            for t in tasks { t.cancel() }
            await tasks[0].value
            print("ok")
            """)) == ["0 1 ok"])
        #expect(try outcomeSet(explore("""
            let t = Task { 5 }
            let u = Task { 6 }
            let s = await t.value + u.value
            print(s)
            var ts = [t, u]
            ts.append(Task { 7 })
            print(await ts[2].value * ts.count)
            """)) == ["11 21"])
    }

    /// `Task { () -> Int in … }`: the value's type written, kept or not (verify: 1 of 1 in 50
    /// runs each); a return of another type is swiftc's error.
    @Test func aTaskClosureThatWritesItsValueType() throws {
        #expect(try outcomeSet(explore("""
            let t = Task { () -> Int in
                print("work")
                return 42
            }
            print(await t.value)
            """)) == ["work 42"])
        #expect(try outcomeSet(explore("""
            Task { () -> Int in
                print("unkept")
                return 1
            }
            let t = Task { @MainActor () -> String in "s" }
            print(await t.value)
            """)) == ["unkept s"])
        expectDiagnostics("""
            let t = Task { () -> Int in
                return 1️⃣"x"
            }
            print(await t.value)
            """, ["1️⃣": "cannot convert return expression of type 'String' to return type 'Int'"])
    }

    /// `(0..<3).map { i in Task { … } }` and `[Task { … }, Task { … }]` make arrays of tasks
    /// (verify: 1 of 1 in 50 runs each).
    @Test func mapAndArrayLiteralsMakeTasks() throws {
        #expect(try outcomeSet(explore("""
            let tasks = (0..<3).map { i in
                Task { print("t\\(i)") }
            }
            for t in tasks { await t.value }
            print("end")
            """)) == ["t0 t1 t2 end"])
        #expect(try outcomeSet(explore("""
            let tasks = [Task { print("a") }, Task { print("b") }]
            for t in tasks { _ = await t.value }
            print(tasks.count)
            """)) == ["a b 2"])
    }

    /// A function's `(1...3).map { i in Task { … } }` runs where the function does: nonisolated,
    /// so the tasks race with the main actor's print (verify: 4 of 16 on 2 cores in 100 runs).
    @Test func tasksMadeByMapInANonisolatedFunction() throws {
        let outcomes = try outcomeSet(explore("""
            func start() -> [Task<Int, Never>] {
                (1...3).map { i in
                    Task {
                        print("run \\(i)")
                        return i * 2
                    }
                }
            }
            let tasks = start()
            let values = [10, 20].map { $0 + 1 }
            print(values)
            var total = 0
            for t in tasks { total += await t.value }
            print(total)
            """))
        #expect(outcomes.count == 24)
        #expect(outcomes.contains("[11, 21] run 1 run 2 run 3 12"))
        #expect(outcomes.contains("run 3 run 2 run 1 [11, 21] 12"))
    }

    /// map, filter, reduce (an operator or a closure), compactMap, chained, and arrays printed as
    /// Swift prints them (verify: 1 of 1 in 50 runs).
    @Test func sequenceOperationsWithClosures() throws {
        #expect(try outcomeSet(explore("""
            let doubled = (1...3).map { $0 * 2 }
            print(doubled)
            let names = ["a", "b"]
            print(names.map { "\\($0)!" })
            let evens = [1, 2, 3, 4].filter { $0 % 2 == 0 }
            print(evens)
            print([1, 2, 3].reduce(0, +))
            print((1...4).reduce(0) { $0 + $1 })
            var d: [Int: String] = [:]; d[1] = "x"; d[3] = "z"
            print([1, 2, 3].compactMap { d[$0] })
            print((1...5).filter { $0 % 2 == 1 }.map { n in n * n })
            print([3, 4].reduce(1, *))
            print(["a", "b"].reduce("") { acc, s in acc + s })
            """)) == [#"[2, 4, 6] ["a!", "b!"] [2, 4] 6 10 ["x", "z"] [1, 9, 25] 12 ab"#])
    }

    /// `Int(s)` of a String is an optional, nil where Swift's parser says so (a space, an empty
    /// text, past Int's range), so `compactMap { Int($0) }` keeps the numbers (verify: 1 of 1 in
    /// 20 runs).
    @Test func parsingIntsInACompactMap() throws {
        #expect(try outcomeSet(explore("""
            let raw = ["1", "x", "-3", "+4", " 5", "", "99999999999999999999"]
            print(raw.compactMap { Int($0) })
            let n = Int("12") ?? 0
            print(n, Int("q") ?? -1)
            if let v = Int(raw[0]) { print("got \\(v)") }
            print(Int("7"))
            """)) == ["[1, -3, 4] 12 -1 got 1 Optional(7)"])
    }

    /// A map whose closure calls a function that prints, on two blocks of a concurrent queue:
    /// each closure's prints interleave with the other block's, an element at a time (verify: 4 of
    /// 6 outcomes on 2 cores in 100 runs; the live interpreter too, 4 of 6 in 50).
    @Test func aMapThatCallsAFunctionInterleavesOnAConcurrentQueue() throws {
        #expect(try outcomeSet(explore("""
            func square(_ n: Int) -> Int {
                print("sq \\(n)")
                return n * n
            }
            let q = DispatchQueue(label: "w", attributes: .concurrent)
            var out: [Int] = []
            let lock = NSLock()
            let g = DispatchGroup()
            for k in 1...2 {
                q.async(group: g) {
                    let s = [k, k + 10].map { square($0) }.reduce(0, +)
                    lock.lock(); out.append(s); lock.unlock()
                }
            }
            g.wait()
            print(out.count, out.reduce(0) { $0 + $1 })
            """)) == ["sq 1 sq 11 sq 2 sq 12 2 270", "sq 1 sq 2 sq 11 sq 12 2 270", "sq 1 sq 2 sq 12 sq 11 2 270",
                        "sq 2 sq 1 sq 11 sq 12 2 270", "sq 2 sq 1 sq 12 sq 11 2 270", "sq 2 sq 12 sq 1 sq 11 2 270"])
    }

    /// joined(separator:), joined(), and arrays of strings printed quoted and escaped
    /// (verify: 1 of 1 in 50 runs).
    @Test func joinedAndPrintedArrays() throws {
        #expect(try outcomeSet(explore(#"""
            let items = ["apple", "pear", "fig"]
            print(items.joined(separator: ", "))
            print(items.joined())
            print(items)
            print([1, 2, 3])
            let quoted = ["a \"b\"", "c\\d"]
            print(quoted)
            var log: [String] = []
            let q = DispatchQueue(label: "q")
            let group = DispatchGroup()
            for i in 0..<3 {
                q.async(group: group) { log.append("w\(i)") }
            }
            group.wait()
            print(log.joined(separator: "-"))
            print(log.map { $0.count })
            print(items.filter { $0.count > 3 }.joined(separator: "+"))
            """#)) == [#"apple, pear, fig applepearfig ["apple", "pear", "fig"] [1, 2, 3] ["a \"b\"", "c\\d"] w0-w1-w2 [2, 2, 2] apple+pear"#])
    }

    /// An actor's methods of one expression that map, join and sum its properties (an implicit
    /// return), fed by tasks that `map` makes on the main actor, in order (verify: 1 of 1 in 100
    /// runs).
    @Test func anActorThatMapsJoinsAndSums() throws {
        #expect(try outcomeSet(explore("""
            actor Store {
                var items: [String] = []
                var prices = ["tea": 3, "cake": 5]
                func add(_ s: String) { items.append(s) }
                func summary() -> String { items.map { "\\($0)=\\(prices[$0] ?? 0)" }.joined(separator: ", ") }
                func total() -> Int { items.compactMap { prices[$0] }.reduce(0, +) }
            }
            let store = Store()
            let tasks = ["tea", "cake", "jam"].map { name in
                Task { await store.add(name) }
            }
            for t in tasks { await t.value }
            print(await store.total())
            let s = await store.summary()
            print(s)
            """)) == ["8 tea=3, cake=5, jam=0"])
    }

    /// A dictionary literal as a value and as an actor's property (verify: 1 of 1 in 100 runs).
    @Test func dictionaryLiterals() throws {
        #expect(try outcomeSet(explore("""
            var scores = ["ann": 3, "bob": 5]
            scores["cy"] = 1
            scores["ann"] = 4
            print(scores["ann"]!, scores["bob"] ?? 0, scores["zed"] ?? -1, scores.count)
            actor Cache {
                var names: [Int: String] = [1: "one", 2: "two"]
                func name(_ k: Int) -> String { names[k] ?? "?" }
                func set(_ k: Int, _ v: String) { names[k] = v }
            }
            let cache = Cache()
            Task { await cache.set(3, "three") }
            Task { print(await cache.name(3)) }
            print(await cache.name(1))
            """)) == ["4 5 -1 3 one three"])
    }

    /// What stays outside: each a diagnostic at its place, never a guess.
    @Test func refusals() {
        expectDiagnostics("""
            let tasks = [Task { print("a") }]
            print(1️⃣tasks)
            actor A { func f() -> Int { 1 } }
            let a = A()
            let xs = [1, 2].map { _ in 2️⃣await a.f() }
            let ys = [1, 2].map 3️⃣{ x in
                print(x)
                return x
            }
            let d = [1: "a", 4️⃣1: "b"]
            """, ["1️⃣": "printing a task", "2️⃣": "does not support concurrency", "3️⃣": "one expression",
                  "4️⃣": "duplicate keys"])
    }
}
