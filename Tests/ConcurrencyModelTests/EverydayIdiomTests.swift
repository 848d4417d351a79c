import ConcurrencyModel
import Testing

/// Snippets as people write them (issue 10): pasted from a playground, with implicit members,
/// functions declared below their use. (Swift concurrency: SwiftConcurrencyTests.)
@Suite struct EverydayIdiomTests {
    @Test func implicitMemberQueuesAreAccepted() throws {
        #expect(try outcomeSet(explore("""
            let g = DispatchGroup()
            concurrentQueue.async(group: g, execute: { print(1) })
            g.notify(queue: .main) { print(2) }
            """)) == ["1 2"])
        #expect(try outcomeSet(explore("let g = DispatchGroup()\ng.notify(queue: .global(qos: .background)) { print(1) }")) == ["1"])
        #expect(try outcomeSet(explore("DispatchQueue.global(qos: .background).async { print(1) }")) == ["1"])
    }

    @Test func aWorkItemGoesIntoAGroup() throws {
        #expect(try outcomeSet(explore("""
            let g = DispatchGroup()
            let item = DispatchWorkItem { print("item") }
            concurrentQueue.async(group: g, execute: item)
            g.wait()
            print("after")
            """)) == ["item after"])
    }

    @Test func importsOfThePreludesModulesAreIgnored() throws {
        #expect(try outcomeSet(explore("import Foundation\nimport Dispatch\nprint(1)")) == ["1"])
        expectDiagnostics("1️⃣import UIKit\nprint(1)", ["1️⃣": "only 'import Foundation', 'import Dispatch' (the prelude imports both) and 'import Synchronization' can stand here"])
        // Synchronization brings Mutex, which the prelude leaves out.
        #expect(try outcomeSet(explore("import Synchronization\nprint(1)")) == ["1"])
    }

    @Test func aFunctionMayBeCalledAboveItsDeclaration() throws {
        #expect(try outcomeSet(explore("""
            work(1)
            serialQueue.async {
                work(2)
            }
            func work(_ n: Int) {
                print(n)
            }
            """)) == ["1 2"])
    }

    @Test func recursionIsRefusedEvenThroughAnotherFunction() {
        expectDiagnostics("func f() {\n    1️⃣f()\n}\nf()", ["1️⃣": "recursion is outside the supported subset"])
        expectDiagnostics("func f() {\n    g()\n}\nfunc g() {\n    1️⃣f()\n}\nf()", ["1️⃣": "recursion is outside the supported subset"])
    }

    /// Two spellings interview snippets use for what the subset already has (swiftc runs,
    /// `probe8/p1.swift` and `p2.swift`: verify ok).
    @Test func stringDescribingAndThreadCurrentIsMainThreadAreWhatTheyStandFor() throws {
        #expect(try outcomeSet(explore("let n = 3\nprint(String(describing: n))\nprint(\"[\\(String(describing: n + 1))]\")")) == ["3 [4]"])
        #expect(try outcomeSet(explore("""
            print("main \\(Thread.current.isMainThread)")
            DispatchQueue.global().async {
                print("global \\(Thread.current.isMainThread)")
            }
            """)) == ["main true global false"])
        // In async code Swift 6 refuses `Thread.current`, as before.
        expectDiagnostics("Task {\n    print(Thread.1️⃣current.2️⃣isMainThread)\n}", [
            "1️⃣": "class property 'current' is unavailable from asynchronous contexts",
            "2️⃣": "property 'isMainThread' is unavailable from asynchronous contexts",
        ])
    }

    @Test func misleadingDiagnosticsSayWhatToWriteInstead() {
        expectDiagnostics("1️⃣var work = { print(1) }", ["1️⃣": "a closure kept in a 'var' is outside the supported subset: keep it in a 'let'"])
        expectDiagnostics("var n = 1\nserialQueue.async(execute: 1️⃣n)", ["1️⃣": "'execute:' takes a closure { … } or a DispatchWorkItem declared in the snippet"])
    }
}
