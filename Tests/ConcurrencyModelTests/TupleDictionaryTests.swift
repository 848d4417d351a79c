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

    @Test func misuseIsADiagnosticAtItsLine() {
        // The type in `of: T.self` is reported where it is written (it was 1:1).
        expectDiagnostics("let r = await withTaskGroup(of: (Int, 1️⃣Float).self) { group in 0 }", ["1️⃣": "the type 'Float' is outside the supported subset"])
        expectDiagnostics("var d: [Int: Int] = [:]\nprint(1️⃣d)", ["1️⃣": "printing a tuple or a dictionary is outside the supported subset"])
        expectDiagnostics("var d: [Int: Int] = [:]\nlet v = 1️⃣d[1]", ["1️⃣": "a dictionary's value is an optional"])
        expectDiagnostics("var d: [Int: Int] = [:]\nd[1] = 1️⃣\"a\"", ["1️⃣": "cannot assign value of type 'String' to subscript of type 'Int'"])
        expectDiagnostics("let d = 1️⃣[:]", ["1️⃣": "empty collection literal requires an explicit type"])
    }
}
