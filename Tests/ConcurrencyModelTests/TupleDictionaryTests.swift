import ConcurrencyModel
import Testing

/// Tuples as a task group's values and dictionaries (outside puzzle sc-14), each measured with
/// `gcdquiz verify` (swiftc, 30 runs) when the tests were written.
@Suite struct TupleDictionaryTests {
    /// sc-14 (verify: 2 of 2 outcomes; swiftc printed the first 98 times in 100, the second 2).
    @Test func aGroupOfTuplesCollectedInADictionary() throws {
        #expect(try outcomeSet(explore("""
            func num1() async -> Int {
                try! await Task.sleep(for: .milliseconds(100))
                return 1
            }
            func num2() async -> Int {
                try! await Task.sleep(for: .milliseconds(200))
                return 2
            }
            let results = await withTaskGroup(of: (Int, Int).self) { group in
                var results: [Int: Int] = [:]
                group.addTask {
                    print("print No.1")
                    return (1, await num1())
                }
                group.addTask {
                    print("print No.2")
                    return (2, await num2())
                }
                for await (index, result) in group {
                    print("print No.3:", index)
                    results[index] = result
                }
                return results
            }
            print(results[1]!, results[2]!)
            """)) == ["print No.1 print No.2 print No.3: 1 print No.3: 2 1 2", "print No.2 print No.1 print No.3: 1 print No.3: 2 1 2"])
    }

    /// A GCD snippet with a dictionary, which the live interpreter runs too (verify: 30 of 30).
    @Test func aMissingKeyTrapsLikeSwift() throws {
        let exploration = try explore("""
            var scores: [String: Int] = [:]
            let g = DispatchGroup()
            serialQueue.async(group: g) { scores["a"] = 1 }
            serialQueue.async(group: g) { scores["b"] = 2; scores["a"] = 3 }
            g.wait()
            print(scores["a"]!, scores["b"]!)
            print(scores["c"]!)
            """)
        #expect(outcomeSet(exploration) == ["3 2 deadlock"])
        #expect(exploration.reports.first?.deadlock == .runtimeError(thread: .main, error: .unwrappedNil, at: SourceSpan(line: 7, column: 1)))
    }

    /// `d[key]` is an optional: nil where the key is missing (verify: ok in 20 runs), and an
    /// actor's `[:]` property, the classic reentrant cache (probe p31: both callers miss, as 50
    /// swiftc runs of 50 showed).
    @Test func aLookupIsAnOptional() throws {
        #expect(try outcomeSet(explore("""
            var ages: [String: Int] = [:]
            ages["a"] = 1
            Task {
                if let a = ages["a"] {
                    print("a \\(a)")
                }
                print(ages["b"] ?? -1)
                ages["b"] = 2
                print(ages["b"] ?? -1)
                print(ages["b"])
            }
            """)) == ["a 1 -1 2 Optional(2)"])
        #expect(try outcomeSet(explore("""
            actor Store {
                var cache: [Int: String] = [:]
                func value(for key: Int) async -> String {
                    if let cached = cache[key] { return cached }
                    print("miss \\(key)")
                    try? await Task.sleep(nanoseconds: 50_000_000)
                    let v = "v\\(key)"
                    cache[key] = v
                    return v
                }
            }
            let store = Store()
            async let a = store.value(for: 1)
            async let b = store.value(for: 1)
            print(await a, await b)
            """)) == ["miss 1 miss 1 v1 v1"])
    }

    /// `d.count` counts the entries; a group's body may write its type (`group -> Int in`):
    /// probes c1 and p21 (verify ok in 50 runs: the cancelled slow child never prints).
    @Test func aDictionaryCountsItsEntriesAndAGroupBodyMayNameItsType() throws {
        #expect(try outcomeSet(explore("""
            var d: [String: Int] = [:]
            d["a"] = 1
            d["b"] = 2
            d["a"] = 3
            print(d.count)
            """)) == ["2"])
        #expect(try outcomeSet(explore("""
            let total = try await withThrowingTaskGroup(of: Int.self) { group -> Int in
                group.addTask {
                    try await Task.sleep(nanoseconds: 50_000_000)
                    throw CancellationError()
                }
                group.addTask {
                    try await Task.sleep(nanoseconds: 500_000_000)
                    print("slow done")
                    return 1
                }
                var sum = 0
                do {
                    for try await v in group { sum += v }
                } catch {
                    print("caught")
                    group.cancelAll()
                }
                return sum
            }
            print("sum \\(total)")
            """)) == ["caught sum 0"])
    }

    /// `first`, `last` (optionals) and `isEmpty` (verify ok in 5 runs).
    @Test func aListsEndsAreOptionals() throws {
        #expect(try outcomeSet(explore("""
            var xs: [Int] = []
            print(xs.first ?? -1, xs.isEmpty)
            xs.append(4)
            xs.append(5)
            print(xs.first ?? 0, xs.last ?? 0, xs.isEmpty)
            if let l = xs.last { print("last \\(l)") }
            print(xs.first)
            let s = ""
            print(s.isEmpty)
            Task { }
            """)) == ["-1 true 4 5 false last 5 Optional(4) true"])
    }

    /// An array literal of computed values: `await [a, b]` of async lets (probe p04: verify ok).
    @Test func anArrayLiteralOfComputedValues() throws {
        #expect(try outcomeSet(explore("""
            func f(_ n: Int) async -> Int { n }
            async let a = f(1)
            async let b = f(2)
            let r = await [a, b]
            let x = 3
            print(r, [x, x + 1, 7])
            """)) == ["[1, 2] [3, 4, 7]"])
        expectDiagnostics("let x = 1\nlet r = [x, 1️⃣\"a\"]", ["1️⃣": "heterogeneous collection literal"])
    }

    @Test func misuseIsADiagnosticAtItsLine() {
        // The type in `of: T.self` is reported where it is written (it was 1:1).
        expectDiagnostics("let r = await withTaskGroup(of: (Int, 1️⃣Float).self) { group in 0 }", ["1️⃣": "the type 'Float' is outside the supported subset"])
        expectDiagnostics("var d: [Int: Int] = [:]\nprint(1️⃣d)", ["1️⃣": "printing a tuple or a dictionary is outside the supported subset"])
        expectDiagnostics("var d: [Int: Int] = [:]\nlet v = d[1️⃣\"a\"]", ["1️⃣": "cannot convert value of type 'String' to expected argument type 'Int'"])
        expectDiagnostics("var d: [Int: Int] = [:]\nd[1] = 1️⃣\"a\"", ["1️⃣": "cannot assign value of type 'String' to subscript of type 'Int'"])
        expectDiagnostics("let d = 1️⃣[:]", ["1️⃣": "empty collection literal requires an explicit type"])
    }
}
