import ConcurrencyModel
import Testing

/// Input that used to crash or fool the model (issue 11): each becomes a diagnostic at its place
/// or the behaviour a Swift program has, never a trap of gcdquiz and never a printed `?`.
@Suite struct RobustnessTests {
    @Test(arguments: ["\u{FEFF}", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{01}", "\u{7F}", "\u{200B}", "\u{A0}"])
    func invisibleCharactersInCodeAreDiagnosed(_ character: String) {
        expectDiagnostics("var x = 0\nx 1️⃣\(character)= 1\nprint(x)", ["1️⃣": "an invisible character"])
    }

    @Test func invisibleCharactersInCommentsAreFineAndInStringsSwiftsOwnError() throws {
        #expect(try outcomeSet(explore("// \u{0C} a form feed\nprint(1)")) == ["1"])
        expectDiagnostics("print(\"a1️⃣\u{0C}b\")", ["1️⃣": "unprintable ASCII character"])
    }

    @Test func aLeadingByteOrderMarkIsIgnored() throws {
        #expect(try outcomeSet(explore("\u{FEFF}print(1)")) == ["1"])
    }

    @Test func deepBracketsAreRefusedBeforeParsing() {
        let deep = "print(" + String(repeating: "[", count: 1000) + "1" + String(repeating: "]", count: 1000) + ")"
        let found = problems(deep)
        #expect(found.map(\.location?.column) == [7 + 8, 7 + 63])  // print( opens the first level
        #expect(found.allSatisfy { $0.message.contains("nested more than") })
    }

    @Test func nineNestedArraysAreRefusedEightAreRead() throws {
        expectDiagnostics("print(" + String(repeating: "[", count: 8) + "1️⃣[1" + String(repeating: "]", count: 9) + ")", ["1️⃣": "brackets are nested more than 8 deep"])
        #expect(try outcomeSet(explore("print(" + String(repeating: "[", count: 8) + "1" + String(repeating: "]", count: 8) + ")")) == ["[[[[[[[[1]]]]]]]]"])
    }

    @Test func aHugeExpressionIsRefusedNotFolded() {
        expectDiagnostics("print(1️⃣" + Array(repeating: "1", count: 5000).joined(separator: " + ") + ")", ["1️⃣": "more than 100 operators"])
    }

    @Test func aHugeSnippetIsRefused() {
        let found = problems(String(repeating: "print(1)\n", count: 20_000))
        #expect(found.first?.message.contains("gcdquiz reads snippets of up to 100 KB") == true)
    }

    @Test func aLoneCarriageReturnEndsALine() {
        let found = problems("print(1)\rprint(x)")
        #expect(found.first?.location?.line == 2)
        #expect(found.first?.sourceLine == "print(x)")
    }

    // MARK: Arithmetic as Swift does it

    @Test func constantOverflowAndDivisionByZeroDoNotCompile() {
        expectDiagnostics("print(9223372036854775807 1️⃣+ 1)", ["1️⃣": "arithmetic operation '9223372036854775807 + 1' (on type 'Int') results in an overflow"])
        expectDiagnostics("print(5 1️⃣/ 0)", ["1️⃣": "division by zero"])
        expectDiagnostics("print((-9223372036854775807 - 1) 1️⃣/ -1)", ["1️⃣": "results in an overflow"])
        expectDiagnostics("print(Int.min 1️⃣% -1)", ["1️⃣": "results in an overflow"])
        expectDiagnostics("print(1️⃣-Int.min)", ["1️⃣": "results in an overflow"])
    }

    @Test func overflowAtRunTimeTrapsAndNothingPrintsAfterIt() throws {
        let exploration = try explore("""
            var x = Int.max
            print(1)
            x += 1
            print(x)
            """)
        #expect(exploration.outcomes == [Outcome(lines: ["1"], end: .deadlock)])
        let reason = try #require(exploration.reports.first?.deadlock)
        guard case .runtimeError(_, .overflow(.add), let span) = reason else {
            Issue.record("\(reason)")
            return
        }
        #expect(span.line == 3)
        #expect(exploration.narrator.words(for: reason).contains("arithmetic overflow"))
    }

    @Test func divisionByAVariableZeroTraps() throws {
        let exploration = try explore("var x = 0\nprint(5 / x)")
        #expect(exploration.outcomes == [Outcome(lines: [], end: .deadlock)])
        #expect(exploration.reports.first?.deadlock.map(exploration.narrator.words(for:))?.contains("division by zero") == true)
        #expect(try outcomeSet(explore("var m = Int.min\nvar d = -1\nprint(m % d)")) == ["deadlock"])
    }

    @Test func aTrapOnAnotherThreadCutsEveryThreadShort() throws {
        // The trap is local to the worker, yet it kills main's print too: no reduction may hide that.
        let outcomes = try outcomeSet(explore("""
            concurrentQueue.async {
                let zero = 0
                print(1 / zero)
            }
            print("main")
            """))
        #expect(outcomes == ["deadlock", "main deadlock"])
    }

    @Test func aBackwardRangeTraps() throws {
        #expect(try outcomeSet(explore("print(0)\nfor i in 5...1 { print(i) }")) == ["0 deadlock"])
        #expect(try outcomeSet(explore("for i in 1..<1 { print(i) }\nprint(0)")) == ["0"])
    }

    @Test func andAndOrShortCircuit() throws {
        #expect(try outcomeSet(explore("var x = 0\nif x != 0 && 5 / x > 1 { print(1) } else { print(2) }")) == ["2"])
        #expect(try outcomeSet(explore("var x = 0\nif x == 0 || 5 / x > 1 { print(1) }")) == ["1"])
    }

    @Test func negativeLiteralsAtTheEdgeOfInt() throws {
        #expect(try outcomeSet(explore("print(-9223372036854775808)\nprint(Int.max)")) == ["-9223372036854775808 9223372036854775807"])
        expectDiagnostics("print(1️⃣-9223372036854775809)", ["1️⃣": "overflows when stored into 'Int'"])
    }

    // MARK: Types as Swift checks them

    @Test func stringsConcatenateAndCompare() throws {
        #expect(try outcomeSet(explore("var s = \"a\"\ns += \"b\"\nprint(s + \"c\", \"a\" < \"b\", s.count)")) == ["abc true 2"])
        #expect(try outcomeSet(explore("var l = [1]\nl += [2]\nprint(l + [3])")) == ["[1, 2, 3]"])
    }

    @Test func typeErrorsAreDiagnosedWhereSwiftReportsThem() {
        expectDiagnostics(#"print(1 1️⃣+ "a")"#, ["1️⃣": "binary operator '+' cannot be applied to operands of type 'Int' and 'String'"])
        expectDiagnostics("var n = 1\nif 1️⃣n { print(1) }", ["1️⃣": "type 'Int' cannot be used as a boolean"])
        expectDiagnostics("var n = 1\n1️⃣n = \"a\"", ["1️⃣": "cannot assign value of type 'String' to type 'Int'"])
        expectDiagnostics("let n = 1\n1️⃣n += 1", ["1️⃣": "'n' is a 'let' constant"])
        expectDiagnostics("var n: String = 1️⃣1", ["1️⃣": "cannot convert value of type 'Int' to specified type 'String'"])
        expectDiagnostics("var l = 1️⃣[]", ["1️⃣": "empty collection literal requires an explicit type"])
        expectDiagnostics("var l = [1, 1️⃣\"a\"]", ["1️⃣": "heterogeneous collection literal"])
        expectDiagnostics("var l: [Int] = []\n1️⃣l.append(\"a\")", ["1️⃣": "cannot convert value of type 'String' to expected argument type 'Int'"])
        expectDiagnostics("print(1️⃣!1)", ["1️⃣": "unary operator '!' cannot be applied to an operand of type 'Int'"])
        expectDiagnostics("func f(_ n: Int) { print(n) }\nf(1️⃣\"a\")", ["1️⃣": "expected argument type 'Int'"])
        expectDiagnostics("var x = 1\nprint(x.1️⃣count)", ["1️⃣": "value of type 'Int' has no member 'count'"])
    }

    @Test func annotatedEmptyArraysWork() throws {
        #expect(try outcomeSet(explore("var l: [String] = []\nl.append(\"x\")\nprint(l, l.count)")) == [#"["x"] 1"#])
    }
}

/// Numbers at the edge of what the model's clock and counters hold.
@Suite struct EdgeNumberTests {
    @Test func hugeDelaysAreDiagnosed() {
        expectDiagnostics("sleep(1️⃣9223372036854775807)", ["1️⃣": "overflows when stored into 'UInt32'"])
        expectDiagnostics("Thread.sleep(forTimeInterval: 1️⃣1e300)", ["1️⃣": "a delay of more than 10000000000 seconds"])
        expectDiagnostics("serialQueue.asyncAfter(deadline: .now() + .seconds(1️⃣9223372036854775807)) { print(1) }", ["1️⃣": "a delay of more than"])
        expectDiagnostics("serialQueue.asyncAfter(deadline: .now() + 1️⃣1e300) { print(1) }", ["1️⃣": "a delay of more than"])
        expectDiagnostics("DispatchQueue.concurrentPerform(iterations: 1️⃣9223372036854775807) { _ in }", ["1️⃣": "at most 64 iterations"])
    }

    @Test func longSleepsAreFine() throws {
        #expect(try outcomeSet(explore("sleep(4294967295)\nprint(1)")) == ["1"])
    }

    @Test func signallingASemaphoreAtIntMaxCrashes() throws {
        let exploration = try explore("let s = DispatchSemaphore(value: 9223372036854775807)\nprint(1)\ns.signal()\nprint(2)")
        #expect(outcomeSet(exploration) == ["1 deadlock"])
        #expect(exploration.reports.first?.deadlock.map(exploration.narrator.words(for:))?.contains("Unbalanced call to dispatch_semaphore_signal()") == true)
    }
}

/// Found by the fuzz test (FuzzEndToEndTests): a message quoting code that spans lines printed
/// those lines, and `file:line:col: error:` no longer stood at the start of every diagnostic line.
@Suite struct OneLineDiagnosticTests {
    @Test func anExpressionSpanningLinesIsQuotedOnOneLine() {
        expectDiagnostics("""
            1️⃣OperationQueue.main.addOperation {
                print("op 2")
            }
            .main.async {
                print(1)
            }
            """, ["1️⃣": "'OperationQueue.main.addOperation { print(\"op 2\") } .main' is not a queue"])
    }

    @Test func swiftSyntaxsUnexpectedCodeIsQuotedOnOneLine() {
        let found = problems("concurrentQueue.async {\n    print(1) `\n    print(2)\n}\n")
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { !$0.message.contains(where: \.isNewline) }, "\(found)")
    }
}

/// Found by `make fuzz` (libFuzzer): a character swift-syntax cannot lex (U+FFFD, what a broken
/// byte decodes to) between a space and `=` made its diagnostics generator trap.
@Suite struct FixItGuardTests {
    @Test(arguments: ["\u{FFFD}", "\u{FFFD}\u{FFFD}\u{FFFD}", "\u{E000}"])
    func aStrayCharacterBeforeEqualsIsDiagnosed(_ stray: String) {
        expectDiagnostics("var x = 0\nx 1️⃣\(stray)= 1\nprint(x)", ["1️⃣": "stands before '='"])
        expectDiagnostics("let *g 1️⃣\(stray)= DispatchGroup()", ["1️⃣": "stands before '='"])
    }

    @Test func otherwiseUnequalSpacingIsSwiftSyntaxsOwnError() {
        expectDiagnostics("var x = 0\nx1️⃣= 1", ["1️⃣": "'=' must have consistent whitespace on both sides"])
    }
}

/// Snippets that used to run until killed or until memory ran out (issue 21): each is answered or
/// refused at once, with the place.
@Suite struct NeverHangTests {
    @Test func nestedInterpolationsAreRefusedBeforeParsing() throws {
        let deep = "print(" + String(repeating: "\"\\(", count: 2000) + "1" + String(repeating: ")\"", count: 2000) + ")"
        let found = problems(deep)
        // The interpolations first; deeper on, the parentheses they open pass their own limit.
        #expect(found.map { String($0.message.prefix(30)) } == ["string interpolations are nest", "parentheses, brackets and brac"])
        #expect(found.first?.message.contains("string interpolations are nested more than 8 deep") == true)
        #expect(found.first?.location?.column == 7 + 8 * 3 + 3)
        // Eight are read.
        let eight = "print(" + String(repeating: "\"\\(", count: 8) + "1" + String(repeating: ")\"", count: 8) + ")"
        #expect(try outcomeSet(explore(eight)) == ["1"])
    }

    @Test func anEmptyLoopIsOneStepWhateverItsCount() throws {
        // The reproducer of issue 21: before, an empty loop of Int.max iterations spun for ever.
        let exploration = try explore("""
            serialQueue.asyncAfter(deadline: .now() + 0.3) {
                print(3)
            }
            concurrentQueue.asyncAfter(deadline: .now() + 0.1) {
            for _ in 1...9223372036854775807 {
            }
                print(1)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
                print(2)
            }
            print(0)
            """)
        #expect(outcomeSet(exploration) == ["0 1 2 3"])
        // Its bounds are still checked: a backward range traps, as in Swift.
        #expect(try outcomeSet(explore("let n = 5\nfor _ in n...1 {\n}\nprint(1)")) == ["deadlock"])
    }

    @Test func aLoopTooLongToExploreIsRefusedAtItsPlace() {
        expectDiagnostics("for i in 1️⃣1...9223372036854775807 {\n    print(i)\n}", ["1️⃣": "this loop runs 9,223,372,036,854,775,807 times: gcdquiz explores at most 100,000 iterations"])
        expectDiagnostics("for i in 1...1000 {\n    for j in 1️⃣0..<1000 {\n        print(j)\n    }\n}",
                          ["1️⃣": "with the loops around it, its body runs 1,000,000 times"])
        expectDiagnostics("concurrentQueue.async {\n    for _ in 1️⃣0...100000 {\n        print(1)\n    }\n}", ["1️⃣": "this loop runs 100,001 times"])
    }

    @Test func aLoopWhoseBoundsAreKnownOnlyWhileRunningStopsTheSearchAtItsPlace() throws {
        let exploration = try explore("var n = 0\nn = 9223372036854775807\nfor i in 1...n {\n    print(i)\n}")
        let stop = try #require(exploration.stop)
        #expect(stop.span == SourceSpan(line: 3, column: 1))
        #expect(stop.description.contains("this loop runs 9,223,372,036,854,775,807 times"))
    }

    @Test func theTimeBudgetStopsALongSearch() throws {
        let program = try SnippetCompiler.compile((1...12).map { "DispatchQueue.global().async { print(\($0)); print(\($0)) }" }.joined(separator: "\n")).get()
        let clock = ContinuousClock()
        let start = clock.now
        let exploration = Explorer(timeBudget: 0.5).explore(program)
        #expect(clock.now - start < .seconds(5))
        #expect(exploration.stop == .timeBudget(0.5))
    }
}
