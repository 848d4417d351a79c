import ConcurrencyModel
import Testing

/// Everyday library values that outside interview snippets write around the concurrency
/// (`max`, `#function`, a range's `reduce`, a range kept in a variable, `String?` values): each
/// answered as swiftc runs it (the expectations were run with swiftc -swift-version 6, prelude
/// in front, and with `gcdquiz verify`), each misuse a diagnostic at its place.
@Suite struct LibraryValueTests {
    /// `max`/`min` (also `Swift.max`, as outside/sc-06 writes in an actor) compare as the
    /// library does: `max` keeps the right value when equal, `min` the left one, which shows
    /// with -0.0 (swiftc: `5 3 9 7 2.5 pear` `-0.0 0.0 0.0` 10; verify ok, 20 runs).
    @Test func maxAndMinCompareAsTheLibraryDoes() throws {
        #expect(try outcomeSet(explore("""
            var a = 3
            let b: UInt64 = 7
            let d = 2.5
            print(max(a, 5), min(a, 5), Swift.max(a, 1, 9, 4), min(b, 10), max(d, 1), max("pear", "apple"))
            print(max(0.0, -0.0), min(0.0, -0.0), max(-0.0, 0.0))
            DispatchQueue.global().async { a = max(a, 10); print(a) }
            sleep(1)
            """)) == ["5 3 9 7 2.5 pear -0.0 0.0 0.0 10"])
        #expect(try outcomeSet(explore("""
            actor Counter {
                var count = 0
                var maximum = 0
                func increment() { count += 1; maximum = Swift.max(count, maximum) }
                func decrement() { count -= 1 }
            }
            let counter = Counter()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await counter.increment() }
                group.addTask { await counter.decrement() }
            }
            print(await counter.maximum)
            """)) == ["0", "1"])
        // A function of the snippet's own named max is that function.
        #expect(try outcomeSet(explore("func max(_ a: Int, _ b: Int) -> Int { a + b }\nprint(max(1, 2))")) == ["3"])
        expectDiagnostics("print(max(1️⃣1, \"a\"))", ["1️⃣": "conflicting arguments to generic parameter 'T'"])
        expectDiagnostics("print(1️⃣max(1))", ["1️⃣": "write max(a, b)"])
    }
}

extension LibraryValueTests {
    /// `#function` is the enclosing declaration's name as swiftc spells it, through closures
    /// (swiftc: `fetch()` `load(id:) 1` … `p`, the main queue's block before or after `m(_:)`,
    /// which the top level awaits; verify ok, 2 of 2 outcomes in 20 runs), as outside/sc-08 prints it
    /// from a private async method.
    @Test func functionNameIsTheEnclosingDeclarations() throws {
        #expect(try outcomeSet(explore("""
            func fetch() async { print(#function) }
            func load(id: Int) { print("\\(#function) \\(id)") }
            func one(_ x: Int, and y: Int) { DispatchQueue.main.async { print(#function) } }
            actor A { func m(_ x: Int) async { print(#function) } }
            class C { init(x: Int) { print(#function) }; var p: String { #function } }
            await fetch(); load(id: 1); one(1, and: 2)
            let a = A(); await a.m(1)
            let c = C(x: 1); print(c.p)
            """)) == ["fetch() load(id:) 1 m(_:) one(_:and:) init(x:) p", "fetch() load(id:) 1 one(_:and:) m(_:) init(x:) p"])
        // At the top level it is the module's name (swiftc names the module after the file).
        expectDiagnostics("print(1️⃣#function)", ["1️⃣": "'#function' outside a function"])
    }
}

extension LibraryValueTests {
    /// `let range = 0..<quantity` then `for i in range` (outside3/sc3-19): the bounds are read
    /// where the `let` is; a range with its bounds the wrong way round traps there, before the
    /// loop (swiftc: `made 1 2 3 3`, then the crash at line 2 of the second call; verify ok,
    /// 20 runs).
    @Test func aRangeKeptInAConstantIsLoopedOver() throws {
        let exploration = try explore("""
            func send(quantity: Int) {
                let range = 0..<quantity
                print("made")
                var total = 0
                for i in range { total += i }
                let closed = 1...3
                for j in closed { print(j) }
                print(total)
            }
            send(quantity: 3)
            send(quantity: -1)
            """)
        #expect(outcomeSet(exploration) == ["made 1 2 3 3 deadlock"])
        #expect(exploration.outcomes.first?.lines.count == 5)
        expectDiagnostics("1️⃣var r = 0..<3\nfor i in r { print(i) }", ["1️⃣": "a range is kept in a 'let'"])
        expectDiagnostics("let r = 1️⃣0.5...2.5\nfor i in r { print(i) }", ["1️⃣": "ranges here are of Int"])
    }
}

extension LibraryValueTests {
    /// `(1...100000).reduce(0, +)` (outside3/sc3-07) is the sum; a partial sum out of Int's
    /// range traps as Swift's `+` does, even when the last one would fit, and a range the wrong
    /// way round traps where it is made (swiftc -O: `5000050000 50 -3 7`, then each crash;
    /// verify ok, 20 runs each).
    @Test func aRangesSumIsComputedAndOverflowTraps() throws {
        #expect(try outcomeSet(explore("""
            let a = (1...100000).reduce(0, +)
            let b = (0..<10).reduce(5, +)
            let c = (-3...2).reduce(0, +)
            let e = (5..<5).reduce(7, +)
            print(a, b, c, e)
            """)) == ["5000050000 50 -3 7"])
        #expect(try outcomeSet(explore("print(1)\nprint((1...4_294_967_297).reduce(0, +))")) == ["1 deadlock"])
        #expect(try outcomeSet(explore("print(1)\nprint((-9223372036854775807...(-9223372036854775806)).reduce(-1, +))")) == ["1 deadlock"])
        #expect(try outcomeSet(explore("print(1)\nprint((3...2).reduce(0, +))")) == ["1 deadlock"])
        expectDiagnostics("var n = 3\nprint(1️⃣(1...n).reduce(0, +))", ["1️⃣": "constant bounds and start"])
        expectDiagnostics("print(1️⃣(1...3).reduce(1, *))", ["1️⃣": "supported as a sum"])
    }
}

extension LibraryValueTests {
    /// `withTaskGroup(of: String?.self)` (outside3/sc3-06): a child may `return nil` before it
    /// returns a String, and the loop unwraps each value (swiftc: the seven orders; verify ok,
    /// 20 runs).
    @Test func aTaskGroupsChildrenMayGiveAnOptional() throws {
        #expect(try outcomeSet(explore("""
            func fetchData(from source: String) async -> String {
                try? await Task.sleep(nanoseconds: 20_000_000)
                return "Data from \\(source)"
            }
            await withTaskGroup(of: String?.self) { group in
                for source in ["A", "B"] {
                    group.addTask {
                        if Task.isCancelled { return nil }
                        return await fetchData(from: source)
                    }
                }
                group.cancelAll()
                for await result in group {
                    if let result = result { print("got \\(result)") } else { print("cancelled") }
                }
            }
            """)) == ["cancelled cancelled", "cancelled got Data from A", "cancelled got Data from B", "got Data from A cancelled",
                      "got Data from A got Data from B", "got Data from B cancelled", "got Data from B got Data from A"])
        expectDiagnostics("""
            await withTaskGroup(of: String?.self) { group in
                group.addTask { 1️⃣3 }
            }
            """, ["1️⃣": "to return type 'String?'"])
    }
}

extension LibraryValueTests {
    /// `var logs = [String]()` as an actor's property (outside2/sc2-03), and `[String]()` as a
    /// value anywhere (swiftc: `1 ["a"] [1]` … `1 ["c"] [1, 2, 1]`; verify ok, 20 runs).
    @Test func anEmptyArrayCallIsAnActorsProperty() throws {
        #expect(try outcomeSet(explore("""
            actor Logger {
                var logs = [String]()
                var ids: [Int] = []
                func add(_ s: String) { logs.append(s); ids.append(logs.count); print(logs.count, logs, ids) }
                func reset() { logs = [String]() }
            }
            let logger = Logger()
            await logger.add("a")
            await logger.add("b")
            await logger.reset()
            await logger.add("c")
            """)) == [#"1 ["a"] [1] 2 ["a", "b"] [1, 2] 1 ["c"] [1, 2, 1]"#])
        expectDiagnostics("actor A { var xs = [1️⃣Float]() }\nlet a = A()", ["1️⃣": "the type 'Float' is outside the supported subset"])
    }
}

extension LibraryValueTests {
    /// `list.first`, `list.last`: optionals of the element, nil when empty, as sc2-03's
    /// `logs.last ?? "No logs"` reads them (swiftc: `No logs` `b` `Optional(3) 4` `first 3`
    /// `nil true`; verify ok, 20 runs).
    @Test func anArraysEndsAreOptionals() throws {
        #expect(try outcomeSet(explore("""
            actor Logger {
                var logs = [String]()
                func add(_ s: String) { logs.append(s) }
                func latestLog() -> String { logs.last ?? "No logs" }
            }
            let logger = Logger()
            print(await logger.latestLog())
            await logger.add("a"); await logger.add("b")
            print(await logger.latestLog())
            let xs = [3, 4]
            print(xs.first, xs.last ?? 0)
            if let f = xs.first { print("first", f) }
            let empty = [Int]()
            print(empty.first, empty.last == nil)
            """)) == ["No logs b Optional(3) 4 first 3 nil true"])
    }

    /// `let r = await withThrowingTaskGroup(…)` without `try` when nothing can leave the body
    /// (outside3/sc3-08's shape: swiftc accepts it, the call rethrows; verify ok, 20 runs).
    @Test func aThrowingGroupWhoseBodyCannotThrowNeedsNoTry() throws {
        #expect(try outcomeSet(explore("""
            func run() async {
                let result = await withThrowingTaskGroup(of: String.self) { group in
                    group.addTask { "a" }
                    var collected = [String]()
                    do {
                        for try await value in group { collected.append(value) }
                    } catch {
                        print("caught")
                    }
                    return collected.count
                }
                print(result)
            }
            await run()
            """)) == ["1"])
    }
}

extension LibraryValueTests {
    /// A nonisolated method naming the actor's `var` is swiftc's error at the name
    /// (outside2/sc2-03, whose page's answer is "a compile-time error"; swiftc -swift-version 6
    /// says it at the same line and column).
    @Test func aNonisolatedMethodCannotReadTheActorsState() {
        expectDiagnostics("""
            actor Logger {
                var logs = [String]()
                nonisolated func latestLog() -> String {
                    1️⃣logs.last ?? "No logs"
                }
            }
            let logger = Logger()
            print(logger.latestLog())
            """, ["1️⃣": "actor-isolated property 'logs' can not be referenced from a nonisolated context"])
    }
}
