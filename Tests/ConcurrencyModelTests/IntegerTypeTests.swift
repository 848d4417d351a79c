import ConcurrencyModel
import Testing

/// Integer types besides Int (outside puzzle sc-02 and everyday code): values, conversions and
/// their traps, each measured with `gcdquiz verify` (swiftc, 30 runs) when the tests were written.
@Suite struct IntegerTypeTests {
    @Test func annotatedValuesConversionsAndArithmetic() throws {
        #expect(try outcomeSet(explore("""
            let w: UInt64 = 10
            var n: Int32 = 5
            n += 2
            let big = Int64(n) * 3
            print(w * 2, Int(w) - 20, n, big)
            """)) == ["20 -10 7 21"])
    }

    @Test func conversionsAndOverflowsTrapWithSwiftsWords() throws {
        let negative = try explore("let m = -3\nprint(\"a\")\nprint(UInt64(m))")
        #expect(outcomeSet(negative) == ["a deadlock"])
        #expect(negative.reports.first?.deadlock == .runtimeError(thread: .main, error: .conversionOverflow(-3, to: "UInt64"), at: SourceSpan(line: 3, column: 1)))
        // swiftc folds `1 - 2` of a UInt32 constant into a compile error; through a function it traps.
        let wrapped = try explore("""
            func shrink(_ v: UInt32, by d: UInt32) -> UInt32 {
                return v - d
            }
            print(shrink(5, by: 2))
            print(shrink(1, by: 2))
            """)
        #expect(outcomeSet(wrapped) == ["3 deadlock"])
        #expect(wrapped.reports.first?.deadlock == .runtimeError(thread: .main, error: .typedOverflow(.subtract, type: "UInt32"), at: SourceSpan(line: 2, column: 5)))
        #expect(try outcomeSet(explore("func wide(_ v: Int) -> Int32 {\n    return Int32(v)\n}\nprint(wide(7))\nprint(wide(5_000_000_000))")) == ["7 deadlock"])
    }

    /// sc-02: `Task.sleep(nanoseconds: w * 10_000_000)` with `w` a UInt64 (verify: 2 of 2 outcomes).
    @Test func computedTaskSleepInUInt64() throws {
        #expect(try outcomeSet(explore("""
            func work(_ name: String, _ w: UInt64) async -> Int {
                print("start", name)
                do {
                    try await Task.sleep(nanoseconds: w * 10_000_000)
                    print("end", name)
                } catch {
                    print("Error")
                }
                return Int(w)
            }
            Task {
                async let a = work("A", 10)
                async let b = work("B", 5)
                let sum = await (a + b)
                print(sum)
            }
            """)) == ["start A start B end B end A 15", "start B start A end B end A 15"])
    }

    @Test func misuseIsADiagnosticAtItsLine() {
        expectDiagnostics("let w: UInt64 = 1️⃣-1", ["1️⃣": "negative integer '-1' overflows when stored into unsigned type 'UInt64'"])
        expectDiagnostics("let w: Int32 = 1️⃣3_000_000_000", ["1️⃣": "integer literal '3000000000' overflows when stored into 'Int32'"])
        expectDiagnostics("let w: UInt64 = 1\nlet n = 2\nprint(w 1️⃣+ n)", ["1️⃣": "binary operator '+' cannot be applied to operands of type 'UInt64' and 'Int'"])
        expectDiagnostics("let n = 5\nTask {\n    try await Task.sleep(nanoseconds: 1️⃣n * 1_000)\n}", ["1️⃣": "cannot convert value of type 'Int' to expected argument type 'UInt64'"])
        expectDiagnostics("let w: 1️⃣Int8 = 1", ["1️⃣": "the type 'Int8' is outside the supported subset"])
    }
}
