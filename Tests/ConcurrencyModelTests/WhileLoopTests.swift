import ConcurrencyModel
import Testing

/// `while` and `repeat` loops (outside puzzle sc-07 and everyday code), each outcome measured
/// with `gcdquiz verify` (swiftc, 30 runs) when the tests were written.
@Suite struct WhileLoopTests {
    @Test func whileAndRepeatWithBreakAndContinue() throws {
        // verify: 30 of 30 runs print these lines.
        #expect(try outcomeSet(explore("""
            var i = 0
            while i < 3 {
                i += 1
                if i == 2 { continue }
                print(i)
            }
            repeat {
                print("r", i)
                i -= 1
                if i == 1 { break }
            } while i > 0
            print("end", i)
            """)) == ["1 3 r 3 r 2 end 1"])
        // `repeat` runs its body once before the first test; `break` there skips the test.
        #expect(try outcomeSet(explore("var n = 5\nrepeat { print(n); break } while n < 3\nrepeat { print(\"once\") } while n < 3\nprint(\"end\")"))
            == ["5 once end"])
    }

    @Test func aWhileTrueLeftByReturnOrThrow() throws {
        #expect(try outcomeSet(explore("""
            func first(over limit: Int) -> Int {
                var n = 1
                while true {
                    n = n * 2
                    if n > limit { return n }
                }
            }
            print(first(over: 10))
            """)) == ["16"])
        #expect(try outcomeSet(explore("""
            enum Stop: Error { case now }
            func count() throws {
                var n = 0
                while true {
                    n += 1
                    if n == 3 { throw Stop.now }
                }
            }
            do { try count() } catch { print("caught") }
            """)) == ["caught"])
    }

    /// sc-07: a main-actor function spins until its task is cancelled, but the cancel comes from
    /// a main-queue block, which never runs while the main thread spins: swiftc's runs all time out.
    @Test func aSpinOnTheMainActorHangs() throws {
        let exploration = try explore("""
            let task = Task {
                do {
                    try await test()
                } catch {
                    print("caught")
                }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(1)) {
                task.cancel()
            }
            @MainActor
            func test() async throws {
                while true {
                    if Task.isCancelled {
                        print("cancelled..")
                        throw CancellationError()
                    }
                }
            }
            """)
        #expect(exploration.isComplete)
        #expect(outcomeSet(exploration) == ["deadlock"])
        let reason = try #require(exploration.reports.first?.deadlock)
        guard case .stuck(let facts) = reason else {
            Issue.record("not stuck: \(reason)")
            return
        }
        #expect(Narrator(program: exploration.program).words(for: facts).hasPrefix(
            "the main thread, and with it the main actor and the main queue, spins in the `while` loop at line 13 and is never given up"))
    }

    /// A busy wait for a flag another thread sets: time passes while the loop spins, so the timer
    /// fires (verify: 30 of 30 runs finish), and the flag is a data race.
    @Test func aBusyWaitEndsWhenAnotherThreadChangesTheFlag() throws {
        let exploration = try explore("""
            var done = false
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
                done = true
            }
            while !done { }
            print("done")
            """)
        #expect(outcomeSet(exploration) == ["done"])
        #expect(exploration.races.count == 1)
    }

    @Test func loopsThatNeverEndAreRefusedAtTheLoop() throws {
        let printing = try explore("print(\"a\")\nwhile true {\n    print(\"x\")\n}")
        #expect(printing.stop == .beyondLimits(.endlessOutput(SourceSpan(line: 2, column: 1))))
        let toggling = try explore("""
            func f() {
                var b = false
                while true { b = !b }
            }
            DispatchQueue.global().async { f() }
            print("a")
            """)
        #expect(toggling.stop == .beyondLimits(.endlessRun(SourceSpan(line: 3, column: 5))))
    }

    @Test func misuseIsADiagnosticAtItsLine() {
        expectDiagnostics("var n = 0\nwhile 1️⃣let m = Optional(n) { }", ["1️⃣": "a 'while' condition is a Bool here"])
        expectDiagnostics("var n = 0\nwhile 1️⃣n { }", ["1️⃣": "cannot be used as a boolean"])
        expectDiagnostics("func f() -> Bool { true }\nrepeat { } while 1️⃣f()", ["1️⃣": "a 'repeat' loop's condition that calls a function"])
        expectDiagnostics("var n = 0\nwhile n < 2 {\n    serialQueue.async { 1️⃣break }\n    n += 1\n}",
                          ["1️⃣": "'break' is supported in a 'for' loop over a range, a 'while' or a 'repeat' loop"])
        expectDiagnostics("var n = 0\nwhile n < 2 {\n    1️⃣let s = DispatchSemaphore(value: 0)\n    n += 1\n}", ["1️⃣": "DispatchSemaphore"])
    }
}
