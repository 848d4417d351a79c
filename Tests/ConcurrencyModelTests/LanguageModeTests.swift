import ConcurrencyModel
import Testing

/// The language mode an answer is for: NonisolatedNonsendingByDefault (SE-0461) runs a plain
/// `async` function on its caller's actor. swiftc 6.3, Swift 6 mode, 100 runs each on 2 cores:
/// with the feature "w end other" in every run; without it "w other end" and "other w end".
@Suite struct LanguageModeTests {
    static let snippet = """
        func work(_ tag: String) async { print(tag) }
        Task { print("other") }
        await work("w")
        print("end")
        """

    static let nonsending = LanguageMode(swiftVersion: 6, upcomingFeatures: [LanguageMode.nonisolatedNonsendingByDefault])

    @Test func theFeatureKeepsAPlainAsyncFunctionOnTheCallersActor() throws {
        let plain = try SnippetCompiler.compile(Self.snippet).get()
        #expect(plain.dependsOnNonsendingDefault)
        #expect(outcomeSet(Explorer().explore(plain)) == ["w other end", "other w end"])
        let withFeature = try SnippetCompiler.compile(Self.snippet, mode: Self.nonsending).get()
        #expect(withFeature.mode == Self.nonsending)
        #expect(outcomeSet(Explorer().explore(withFeature)) == ["w end other"])
        // @concurrent keeps the old behaviour under the feature.
        let concurrent = try SnippetCompiler.compile("@concurrent " + Self.snippet, mode: Self.nonsending).get()
        #expect(!concurrent.dependsOnNonsendingDefault)
        #expect(outcomeSet(Explorer().explore(concurrent)) == ["w other end", "other w end"])
    }

    /// A task made in a nonsending function's body inherits no actor: the function is on its
    /// caller's actor only dynamically. With the feature, swiftc: `child parent` in 50 of 300
    /// runs of an outside survey's repro (the model had only `parent child`); `run --mode`, 300
    /// runs: both outcomes seen.
    @Test func aTaskMadeInANonsendingFunctionIsNotOnItsCallersActor() throws {
        let source = """
            func test() async {
                Task { print("child") }
                print("parent")
            }
            await test()
            """
        let withFeature = try SnippetCompiler.compile(source, mode: Self.nonsending).get()
        #expect(outcomeSet(Explorer().explore(withFeature)) == ["child parent", "parent child"])
    }

    /// A nonisolated async method of a struct or class runs on its caller's actor too: an outside
    /// Swift 6.2 demo (sc3-16) says "1 2 3 4" under the feature; swiftc with
    /// `-enable-upcoming-feature NonisolatedNonsendingByDefault`, 3 of 3 runs: `1 2 3 4`; without
    /// it the method runs off the main actor and `MainActor.assertIsolated()` crashes.
    @Test func theFeatureKeepsAPlainAsyncMethodOnTheCallersActor() throws {
        let source = """
            struct Demo {
                func plain() async {
                    MainActor.assertIsolated()
                    print("on main")
                }
            }
            let demo = Demo()
            await demo.plain()
            """
        let withFeature = try SnippetCompiler.compile(source, mode: Self.nonsending).get()
        #expect(outcomeSet(Explorer().explore(withFeature)) == ["on main"])
        let plain = try SnippetCompiler.compile(source).get()
        #expect(plain.dependsOnNonsendingDefault)
        let crashes = Explorer().explore(plain)
        #expect(crashes.outcomes.count == 1 && crashes.outcomes.allSatisfy { $0.end == .deadlock && $0.lines.isEmpty })
    }

    @Test func modesAreReadAsWritten() {
        #expect(LanguageMode(parsing: "6") == LanguageMode(swiftVersion: 6))
        #expect(LanguageMode(parsing: "Swift 5") == LanguageMode(swiftVersion: 5))
        #expect(LanguageMode(parsing: "6 + NonisolatedNonsendingByDefault") == Self.nonsending)
        #expect(LanguageMode(parsing: "\(Self.nonsending)") == Self.nonsending, "its description reads back")
        for bad in ["", "7", "6 +", "6 + Unknown", "6 + NonisolatedNonsendingByDefault + NonisolatedNonsendingByDefault", "six"] {
            #expect(LanguageMode(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func whatTheModelCannotAnswerIsRefusedAtItsPlace() {
        expectDiagnostics("1️⃣@MainActor nonisolated(nonsending) func f() async {}", ["1️⃣": "cannot be combined with '@MainActor'"])
        expectDiagnostics("""
            actor A {
                nonisolated(nonsending) func 1️⃣f() async {}
            }
            let a = A()
            await a.f()
            """, ["1️⃣": "outside the supported subset"])
    }
}
