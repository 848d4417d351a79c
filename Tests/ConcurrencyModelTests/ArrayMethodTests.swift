import ConcurrencyModel
import Testing

/// The standard library's array and String methods that interview snippets use on what tasks
/// give back: `sorted()` (a task group's results come in any order; sorted, one answer),
/// `sorted(by: >)`, `reversed()` as an array, `contains`, `min()`/`max()`, `sort()` in place,
/// `uppercased()`. Each answer is the model's, checked with `gcdquiz verify --runs 50` (swiftc)
/// when the test was written: the figures are in the comments.
@Suite struct ArrayMethodTests {
    /// `results`: a task group's three values (10, 20, 30) in the order the children finished.
    static let groupResults = """
        let results = await withTaskGroup(of: Int.self) { group in
            for i in 1...3 { group.addTask { i * 10 } }
            var collected: [Int] = []
            for await value in group { collected.append(value) }
            return collected
        }

        """

    /// A task group's values arrive in any order; sorted, they print one way (verify: 1 of 1
    /// on 2 cores in 50 runs).
    @Test func aTaskGroupsResultsSorted() throws {
        #expect(try outcomeSet(explore(Self.groupResults + """
            print(results.sorted())
            """)) == ["[10, 20, 30]"])
    }

    /// Unsorted, the same results print in every order the children can finish in; what does
    /// not depend on the order (`min`, `max`, `contains`) is the same in each (verify: 1 of 4 on
    /// 2 cores in 50 runs, none outside the model).
    @Test func orderFreeQuestionsOfUnsortedResults() throws {
        let outcomes = try outcomeSet(explore(Self.groupResults + """
            print(results)
            print(results.min() ?? 0, results.max() ?? 0, results.contains(20))
            print(results.first == results.sorted().first)
            """))
        #expect(outcomes == [
            "[10, 20, 30] 10 30 true true", "[10, 30, 20] 10 30 true true",
            "[20, 10, 30] 10 30 true false", "[20, 30, 10] 10 30 true false",
            "[30, 10, 20] 10 30 true false", "[30, 20, 10] 10 30 true false",
        ])
    }

    /// Children that give Strings (`name.uppercased()`, the closure's one expression returned),
    /// sorted and joined, and `contains` (verify: 1 of 1 on 2 cores in 50 runs).
    @Test func stringsFromAGroupSortedJoinedAndSearched() throws {
        #expect(try outcomeSet(explore("""
            let names = ["b", "a", "c"]
            let results = await withTaskGroup(of: String.self) { group in
                for name in names { group.addTask { name.uppercased() } }
                var collected: [String] = []
                for await value in group { collected.append(value) }
                return collected
            }
            print(results.sorted().joined(separator: ","))
            print(results.contains("A"), results.contains("a"))
            """)) == ["A,B,C true false"])
    }

    /// An actor sorts its own array in place (`items.sort(by: >)`) after children added to it
    /// in any order (verify: 1 of 1 on 2 cores in 50 runs).
    @Test func anActorSortsItsArrayInPlace() throws {
        #expect(try outcomeSet(explore("""
            actor Log {
                var items: [Int] = []
                func add(_ x: Int) { items.append(x) }
                func sortedItems() -> [Int] {
                    items.sort(by: >)
                    return items
                }
            }
            let log = Log()
            await withTaskGroup(of: Void.self) { group in
                for i in [3, 1, 2] { group.addTask { await log.add(i) } }
            }
            print(await log.items.count, await log.sortedItems())
            """)) == ["3 [3, 2, 1]"])
    }

    /// Every spelling of the two orders, of Ints, Strings and Doubles, as swiftc prints them
    /// (verify: 1 of 1 in 50 runs).
    @Test func sortOrders() throws {
        #expect(try outcomeSet(explore("""
            let xs = [3, 1, 2, 3]
            print(xs.sorted(), xs.sorted(by: <))
            print(xs.sorted(by: >), xs.sorted { $0 > $1 }, xs.sorted { a, b in a < b }, xs.sorted(by: { $1 < $0 }))
            print(["bob", "Al", "cy"].sorted())
            print([2.5, -1.0, 0.0].sorted(by: >))
            """)) == ["[1, 2, 3, 3] [1, 2, 3, 3] [3, 3, 2, 1] [3, 3, 2, 1] [1, 2, 3, 3] [3, 3, 2, 1] [\"Al\", \"bob\", \"cy\"] [2.5, 0.0, -1.0]"])
    }

    /// `reversed()` walked or made into an array, of an array and of ranges (constant bounds, or
    /// a variable's: made by a loop); `reverse()` in place (verify: 1 of 1 in 50 runs).
    @Test func reversedAsAnArray() throws {
        #expect(try outcomeSet(explore("""
            var xs = [3, 1, 2]
            print(Array(xs.reversed()))
            for x in xs.reversed() { print(x) }
            var n = 3
            for i in (0..<n).reversed() { print("i\\(i)") }
            print(Array(1...n), Array((1...3).reversed()), xs.reversed().map { $0 * 10 })
            xs.reverse()
            print(xs)
            """)) == ["[2, 1, 3] 2 1 3 i2 i1 i0 [1, 2, 3] [3, 2, 1] [20, 10, 30] [2, 1, 3]"])
    }

    /// `first`, `last`, `min()`, `max()` are optionals: printed as `Optional(3)`, nil for an
    /// empty array; `??` and `if let` unwrap them (verify: 1 of 1 in 50 runs).
    @Test func optionalEndsAndExtremes() throws {
        #expect(try outcomeSet(explore("""
            let xs = [3, 1, 2]
            let none: [Int] = []
            print(xs.first, xs.last, xs.min(), xs.max(), none.max())
            print(xs.isEmpty, none.isEmpty, none.min() ?? -1)
            if let m = xs.max() { print("max \\(m)") }
            """)) == ["Optional(3) Optional(2) Optional(1) Optional(3) nil false true -1 max 3"])
    }

    /// `results.max()!` and `first!` unwrap; of an empty array, the unwrap traps where it is
    /// (verify: 1 of 1 on 2 cores in 50 runs, the crash included).
    @Test func forceUnwrappedExtremes() throws {
        #expect(try outcomeSet(explore(Self.groupResults + """
            print(results.max()!, results.sorted().first!, results.min()! + 1)
            let none: [Int] = []
            print("before")
            print(none.first!)
            print("after")
            """)) == ["30 10 11 before deadlock"])
        expectDiagnostics("""
            let n = 3
            print(n1️⃣!)
            """, ["1️⃣": "cannot force unwrap value of non-optional type 'Int'"])
    }

    /// A String's case mappings are the standard library's full Unicode ones (`ß` becomes `SS`),
    /// and its `count` counts Characters (verify: 1 of 1 in 50 runs).
    @Test func stringCaseMappingsAndCount() throws {
        #expect(try outcomeSet(explore("""
            let word = "Straße"
            print(word.uppercased(), word.lowercased(), word.count, "héllo".count)
            print(["a", "b"].map { $0.uppercased() })
            """)) == ["STRASSE straße 6 5 [\"A\", \"B\"]"])
    }

    /// A sort whose order the model cannot take from `<` or `>` alone, `reversed()` printed as
    /// the `ReversedCollection` it is, `contains(where:)`, and sorting Bools are refused at
    /// their place.
    @Test func formsOutsideTheSubsetAreRefused() {
        expectDiagnostics("""
            let xs = [3, 1]
            print(xs.sorted 1️⃣{ $0 % 2 < $1 % 2 })
            print(xs.sorted(by: 2️⃣{ a, b in
                let x = a
                return x < b
            }))
            print(3️⃣xs.reversed())
            print(4️⃣xs.contains { $0 > 1 })
            print(5️⃣[true, false].sorted())
            """, [
                "1️⃣": "a sort here is sorted(), sorted(by: <), sorted(by: >) or sorted { $0 > $1 }",
                "2️⃣": "a sort here is sorted()",
                "3️⃣": "is a ReversedCollection",
                "4️⃣": "contains(where:) is outside the supported subset",
                "5️⃣": "sorting an array of 'Bool' is outside the supported subset",
            ])
    }
}
