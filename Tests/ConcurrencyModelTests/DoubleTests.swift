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

    /// Outside puzzle sc2-10 (forums 72854) as written: functions returning TimeInterval, `return 1`
    /// among them (verify: 2 of 2 outcomes on 2 cores in 200 runs, ok).
    @Test func sc2_10FunctionsReturningTimeInterval() throws {
        #expect(try outcomeSet(explore("""
            func awaitOne() async -> TimeInterval {
                do {
                    print("start one")
                    try await Task.sleep(for: .milliseconds(100))
                    print("finish One")
                    return 0.01
                } catch {
                    print("error one")
                    return 0.01
                }
            }

            func awaitTwo() async -> TimeInterval {
                do {
                    print("start Two")
                    try await Task.sleep(for: .milliseconds(300))
                    print("finish Two")
                    return 1
                } catch {
                    print("error Two")
                    return 1
                }
            }

            func mainFunc() async -> TimeInterval {
                async let sec1 = awaitOne()
                async let sec2 = awaitTwo()
                let s1 = await sec1
                return 1
            }

            Task.detached {
                let a = await mainFunc()
            }
            """)) == ["start Two start one finish One error Two", "start one start Two finish One error Two"])
    }

    @Test func misuseIsADiagnosticAtItsPlace() {
        expectDiagnostics("let d = 2.5\nprint(d 1️⃣% 2.0)", ["1️⃣": "'%' is unavailable: For floating point numbers use truncatingRemainder instead"])
        expectDiagnostics("let d = 2.5\nlet n = 1\nprint(d 1️⃣+ n)", ["1️⃣": "binary operator '+' cannot be applied to operands of type 'Double' and 'Int'"])
    }
}
