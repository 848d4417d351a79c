@testable import LiveRun
import ConcurrencyModel
import Testing

/// The switch between the interpreter and the compiled harness, and what the harness changes in
/// a snippet: two calls at the start of each unstructured task's body, on the same line.
struct HarnessProgramTests {
    @Test func swiftConcurrencyGoesCompiledAndGCDStaysInterpreted() {
        #expect(LiveRoute.route(for: "Task { print(1) }\n") == .compiled)
        #expect(LiveRoute.route(for: "actor A {}\n") == .compiled)
        #expect(LiveRoute.route(for: "func f() async {}\n") == .compiled)
        #expect(LiveRoute.route(for: "let s = AsyncStream<Int> { $0.finish() }\n") == .compiled)
        #expect(LiveRoute.route(for: "serialQueue.async { print(1) }\nprint(\"Task\")\n") == .interpreter)
        #expect(LanguageMode.defaultMode(for: "Task {}\n").swiftcArguments == ["-swift-version", "6"])
        #expect(LanguageMode.defaultMode(for: "print(1)\n").swiftcArguments == ["-swift-version", "5"])
    }

    @Test func taskBodiesCountThemselvesOnTheirOwnLines() {
        let source = HarnessProgram.mainSource(for: """
            Task { print("T") }
            let t = Task.detached(priority: .high) { () -> Int in
                Task { @MainActor in print("inner") }
                return 1
            }
            serialQueue.async { print("not a task") }

            """)
        #expect(source.contains("""
            Task { _gqTaskStarted(); defer { _gqTaskEnded() }; return print("T") }
            let t = Task.detached(priority: .high) { () -> Int in _gqTaskStarted(); defer { _gqTaskEnded() };
                Task { @MainActor in _gqTaskStarted(); defer { _gqTaskEnded() }; return print("inner") }
                return 1
            }
            serialQueue.async { print("not a task") }
            """))
        #expect(source.contains("#sourceLocation(file: \"snippet.swift\", line: 1)\nTask {"))
        // No top-level await: the main thread serves the main queue on its run loop.
        #expect(source.hasSuffix("_gqTopLevelEnded()\n_gqServeMainQueue()\n"))
    }

    @Test func topLevelCodeThatAwaitsSuspendsForGoodAtItsEnd() {
        #expect(HarnessProgram.mainSource(for: "await Task.yield()\n").hasSuffix("_gqTopLevelEnded()\nawait _gqServeForever()\n"))
        #expect(HarnessProgram.mainSource(for: "async let x = 1\n").hasSuffix("await _gqServeForever()\n"))
        // An await inside a task's closure or a function is not the top-level code's.
        #expect(HarnessProgram.mainSource(for: "func f() async { await Task.yield() }\nTask { await f() }\n")
            .hasSuffix("_gqServeMainQueue()\n"))
    }
}
