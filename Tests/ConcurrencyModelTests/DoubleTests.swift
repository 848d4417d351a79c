import ConcurrencyModel
import Testing

/// Double and TimeInterval values: literals, arithmetic, comparisons, `Double(i)`, printed as
/// Swift prints them (the shortest text that reads back, which the same stdlib's description
/// gives: swiftc printed these exact lines).
@Suite struct DoubleTests {
    /// A GCD snippet (verify: 1 of 1 in 30 runs; swiftc -O printed the same five lines).
    @Test func doublesComputeAndPrintAsSwiftDoes() throws {
        #expect(try outcomeSet(explore("""
            let delay: TimeInterval = 0.2
            var total: Double = 0
            var ratio = 1.5
            let n = 3
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                print("late", delay * 2)
            }
            DispatchQueue.global().async {
                Thread.sleep(forTimeInterval: 0.1)
                total += 0.1
                total += 0.2
                print("total", total, total > 0.3, total == 0.3)
            }
            Thread.sleep(forTimeInterval: 0.3)
            ratio = ratio * Double(n) - 1
            print(ratio, Double(n) / 4, -ratio, 1 / 3.0, 2.5e-7, 1e16, Double(7))
            let half: Double? = 0.5
            print(half, half ?? 1)
            print("\\(ratio) and \\(TimeInterval(n))")
            """)) == ["total 0.30000000000000004 true false late 0.4 3.5 0.75 -3.5 0.3333333333333333 2.5e-07 1e+16 7.0 Optional(0.5) 0.5 3.5 and 3.0"])
    }

    @Test func misuseIsADiagnosticAtItsPlace() {
        expectDiagnostics("let d = 2.5\nprint(d 1️⃣% 2.0)", ["1️⃣": "'%' is unavailable: For floating point numbers use truncatingRemainder instead"])
        expectDiagnostics("let d = 2.5\nlet n = 1\nprint(d 1️⃣+ n)", ["1️⃣": "binary operator '+' cannot be applied to operands of type 'Double' and 'Int'"])
    }
}
