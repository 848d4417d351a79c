import ConcurrencyModel
import Testing

/// Swift outside the subset and syntax errors become problems at exact positions, never a crash.
@Suite struct DiagnosticTests {
    @Test func unsupportedConstructIsReportedAtItsPosition() {
        let found = problems("""
            serialQueue.async {
                print(1)
            }
            let timer = DispatchSource.makeSignalSource(signal: 2)
            """)
        #expect(found.count == 1)
        #expect(found.first?.location == SourceLocation(file: "t.swift", line: 4, column: 13))
        #expect(found.first?.message.contains("outside the supported subset") == true)
        #expect(found.first?.sourceLine == "let timer = DispatchSource.makeSignalSource(signal: 2)")
    }

    @Test func unsupportedStatementInsideAClosure() {
        let found = problems("""
            serialQueue.async {
                while let n = Optional(1) { print(n) }
            }
            """)
        #expect(found.map(\.location) == [SourceLocation(file: "t.swift", line: 2, column: 11)])
        #expect(found.first?.message.hasPrefix("a 'while' condition is a Bool here") == true)
    }

    /// Each iteration may run on a thread of its own, and the model answers for every machine
    /// up to one that wide: past 64 iterations the searches outgrew their budgets (an outside
    /// puzzle's 1,000 iterations took 11 GB in a minute), so the snippet is refused at the number.
    @Test func aWideConcurrentPerformIsRefusedAtItsIterations() {
        let found = problems("""
            DispatchQueue.concurrentPerform(iterations: 1000) { _ in
                print("x")
            }
            """)
        #expect(found.map(\.location) == [SourceLocation(file: "t.swift", line: 1, column: 45)])
        #expect(found.first?.message.contains("gcdquiz explores at most 64 iterations") == true)
    }

    @Test func syntaxErrorIsReportedAtItsPosition() {
        let found = problems("""
            serialQueue.async {
                print(1
            }
            """)
        #expect(!found.isEmpty)
        #expect(found.first?.location?.line == 2)
        #expect(found.first?.location?.column == 12)
        #expect(found.first?.message.contains("')'") == true)
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let found = problems("""
            unknownQueue.async { print(1) }
            serialQueue.async(target: 1) { print(2) }
            print(x)
            """)
        #expect(found.map { $0.location?.line } == [1, 2, 3])
        #expect(found[0].message == "cannot find queue 'unknownQueue' in scope")
        #expect(found[1].message.contains("'target:'"))
        #expect(found[1].location?.column == 19)
        #expect(found[2].location?.column == 7)
    }

    @Test func redeclaringAPreludeQueueIsAnError() {
        let found = problems(#"let serialQueue = DispatchQueue(label: "again")"#)
        #expect(found.first?.message.contains("the prelude already declares it") == true)
    }

    @Test func queueDeclarationsAreChecked() {
        #expect(problems(#"let q = DispatchQueue(label: "q", qos: .fast)"#).first?.message.contains("not a QoS class") == true)
        #expect(problems(#"let q = DispatchQueue(qos: .utility)"#).first?.message.contains("needs a label") == true)
        #expect(problems(#"let q = DispatchQueue(label: "q", attributes: .bogus)"#).first?.location?.column == 47)
        #expect(problems("var n: Float = 0.5").first?.message.contains("outside the supported subset") == true)
    }

    @Test func closuresWithParametersAreRejected() {
        let found = problems("serialQueue.async { x in print(1) }")
        #expect(found.first?.location?.column == 21)
        // No parameters, said or not, is what async takes.
        #expect(problems("serialQueue.async { () in print(1) }").isEmpty)
    }

    /// A Mutex is reached only through withLock: swiftc says "value of type 'Mutex<Int>' has no
    /// member 'lock'"; it needs `import Synchronization` ("cannot find 'Mutex' in scope"); and
    /// is no value of its own.
    @Test func aMutexIsUsedOnlyThroughWithLock() {
        let found = problems("""
            import Synchronization
            let m = Mutex(0)
            m.lock()
            m.withLock { value in
                return value
            }
            print(m)
            let lock = NSLock()
            lock.withLock { value in print(value) }
            """)
        #expect(found.map { $0.location?.line } == [3, 5, 7, 9])
        #expect(found[0].message.hasPrefix("value of type 'Mutex<Int>' has no member 'lock'"))
        #expect(found[1].message.contains("'return' inside withLock's closure"))
        #expect(found[2].message.contains("'m' cannot be used as a value"))
        #expect(found[3].message.contains("takes no parameters"))
        let unimported = problems("let m = Mutex(0)")
        #expect(unimported.first?.message.hasPrefix("cannot find 'Mutex' in scope") == true)
        #expect(unimported.first?.location?.column == 9)
    }
}
