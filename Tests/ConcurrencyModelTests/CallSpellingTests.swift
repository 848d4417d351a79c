import ConcurrencyModel
import Testing

/// Spellings of calls that outside interview snippets use (notes/outside2: sc2-16):
/// `MainActor.run(body: f)` and `await A().foo()`. Each pinned outcome set is the one `gcdquiz verify` found swiftc
/// (Swift 6 mode, Linux, 2 CPUs, 200 runs) to print, every outcome seen.
@Suite struct CallSpellingTests {
    /// sc2-16: two tasks made on an actor, each hopping to the main actor through
    /// `MainActor.run(body:)` with a function: either may get there first.
    static let runWithFunctions = """
        @MainActor func mustBeExecutedFirst() { print("first") }
        @MainActor func mustBeExecutedSecond() { print("second") }

        actor A {
            func foo() {
                Task {
                    await MainActor.run(body: mustBeExecutedFirst)
                }
                Task {
                    await MainActor.run(body: mustBeExecutedSecond)
                }
            }
        }

        await A().foo()
        """

    @Test func mainActorRunTakesAFunctionOfTheSnippet() throws {
        #expect(try outcomeSet(explore(Self.runWithFunctions)) == ["first second", "second first"])
        #expect(try outcomeSet(explore("""
            @MainActor func three() -> Int { 3 }
            func hello() { print("hello") }
            let v = await MainActor.run(body: three)
            await MainActor.run(body: hello)
            print(v)
            """)) == ["hello 3"])
    }

    @Test func mainActorRunRefusesWhatSwiftcRefuses() {
        expectDiagnostics("func f() async { }\nawait MainActor.run(body: 1️⃣f)",
                          ["1️⃣": "cannot pass function of type '@Sendable () async -> ()' to parameter expecting synchronous function type"])
        expectDiagnostics("func f(_ x: Int) { }\nawait MainActor.run(body: 1️⃣f)",
                          ["1️⃣": "cannot convert value of type '@Sendable (Int) -> ()' to expected argument type"])
        expectDiagnostics("let n = 1\nawait 1️⃣MainActor.run(body: n)", ["1️⃣": "write MainActor.run { … }"])
    }

    /// `await A().foo()`: the instance is made for the call, and the call hops to it.
    @Test func anActorMadeInPlaceTakesTheCall() throws {
        #expect(try outcomeSet(explore("""
            actor A {
                var n = 1
                func next() -> Int { n + 1 }
                func show() { print("show \\(n)") }
            }
            await A().show()
            print(await A().next())
            """)) == ["show 1 2"])
        expectDiagnostics("actor A { func foo() { } }\nawait A().1️⃣bar()", ["1️⃣": "value of type 'A' has no member 'bar'"])
    }
}
