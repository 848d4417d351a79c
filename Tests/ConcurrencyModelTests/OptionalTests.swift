import ConcurrencyModel
import Testing

/// Optionals of the subset's plain values: `nil`, `??`, `if let`, `guard let`, `print(o)`,
/// `try?` as a value. Each snippet was checked with `gcdquiz verify` (swiftc) when the tests were
/// written; how `print` shows an optional (`Optional(3)`, `Optional("x\"y")`, `nil`) was
/// measured with swiftc, not recalled.
@Suite struct OptionalTests {
    /// A GCD snippet, which the live interpreter runs too (verify: 1 of 1 in 20 runs; run: 5 of 5).
    @Test func optionalsPrintUnwrapAndFallBackAsSwiftDoes() throws {
        #expect(try outcomeSet(explore("""
            var cached: Int? = nil
            var name: String?
            let group = DispatchGroup()
            concurrentQueue.async(group: group) {
                cached = 42
            }
            group.wait()
            print(cached)
            print(name)
            print("value: \\(cached ?? 0), name: \\(name ?? "none")")
            if let value = cached {
                print("got", value)
            } else {
                print("empty")
            }
            if let name {
                print("name", name)
            } else if cached != nil {
                print("no name, cached", cached == 42)
            }
            func describe(_ n: Int) -> String {
                var found: Int? = nil
                if n > 1 { found = n * 2 }
                guard let doubled = found else { return "small" }
                return "doubled \\(doubled)"
            }
            print(describe(1), describe(3))
            debugPrint(name, cached)
            name = "x"
            print(name)
            """)) == [#"Optional(42) nil value: 42, name: none got 42 no name, cached true small doubled 6 nil Optional(42) Optional("x")"#])
    }

    /// An actor's optional properties (one without a value starts as nil), a function returning
    /// an optional (verify: 1 of 1 in 100 runs).
    @Test func anActorKeepsOptionalProperties() throws {
        #expect(try outcomeSet(explore("""
            actor Cache {
                var value: Int?
                var label: String? = "start"
                func store(_ v: Int) { value = v }
                func read() -> Int? { value }
                func clear() { label = nil }
            }
            func lookup(_ n: Int) -> String? {
                if n > 0 { return "found \\(n)" }
                return nil
            }
            let cache = Cache()
            Task {
                await cache.store(7)
            }
            Task {
                let v = await cache.read()
                print("read", v ?? -1)
                if let v { print("has", v) }
            }
            print(lookup(1) ?? "none", lookup(0) ?? "none")
            print(lookup(2))
            """)) == [#"found 1 none Optional("found 2") read 7 has 7"#])
    }

    /// `try?` as a value is nil when the call throws; `try!` is the value (verify: 1 of 1 in 50).
    @Test func tryAsAValue() throws {
        #expect(try outcomeSet(explore("""
            enum Failure: Error { case bad }
            func compute(_ n: Int) async throws -> Int {
                if n < 0 { throw Failure.bad }
                return n * 10
            }
            let t = Task { try await compute(4) }
            let u = Task { try await compute(-1) }
            let a = try? await t.value
            let b = try? await u.value
            print(a, b)
            print(a ?? 0, b ?? 0)
            let c = try! await compute(2)
            print(c)
            """)) == ["Optional(40) nil 40 0 20"])
    }

    @Test func forcedTryOfAThrowCrashes() throws {
        let exploration = try explore("""
            enum Failure: Error { case bad }
            func compute(_ n: Int) throws -> Int {
                if n < 0 { throw Failure.bad }
                return n
            }
            let a = try? compute(-1)
            print(a)
            let b = try! compute(-1)
            print(b)
            """)
        #expect(outcomeSet(exploration) == ["nil deadlock"])
    }

    /// Misuse, in swiftc's words where swiftc rejects it (each checked with `swiftc -typecheck`).
    @Test func misuseIsADiagnosticAtItsPlace() {
        expectDiagnostics("var o: Int? = 3\nprint(o 1️⃣+ 1)", ["1️⃣": "value of optional type 'Int?' must be unwrapped to a value of type 'Int'"])
        expectDiagnostics("var o: Int? = 3\nif o 1️⃣> 2 { }", ["1️⃣": "value of optional type 'Int?' must be unwrapped to a value of type 'Int'"])
        expectDiagnostics("let n = 1️⃣nil", ["1️⃣": "'nil' requires a contextual type"])
        expectDiagnostics("var o: Int? = 3\nlet s: String = o 1️⃣?? \"a\"", ["1️⃣": "binary operator '??' cannot be applied to operands of type 'Int?' and 'String'"])
        expectDiagnostics("if let z = 1️⃣5 { print(z) }", ["1️⃣": "initializer for conditional binding must have Optional type, not 'Int'"])
        expectDiagnostics("var o: Int? = 3\nif let x = o, x > 2, 1️⃣let y = o { print(x, y) }", ["1️⃣": "bind optionals before the other conditions here"])
        expectDiagnostics("var o: 1️⃣[Int]? = nil", ["1️⃣": "an optional '[Int]?' is outside the supported subset"])
    }
}
