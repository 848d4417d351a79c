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
            Task { [_gqTask = _gqTaskCreated()] in _gqTaskStarted(_gqTask); defer { _gqTaskEnded() }; return print("T") }
            let t = Task.detached(priority: .high) { [_gqTask = _gqTaskCreated()] () -> Int in _gqTaskStarted(_gqTask); defer { _gqTaskEnded() };
                Task { @MainActor [_gqTask = _gqTaskCreated()] in _gqTaskStarted(_gqTask); defer { _gqTaskEnded() }; return print("inner") }
                return 1
            }
            serialQueue.async { print("not a task") }
            """))
        #expect(source.contains("#sourceLocation(file: \"snippet.swift\", line: 1)\nTask {"))
        // No top-level await: the main thread serves the main queue on its run loop.
        #expect(source.hasSuffix("_gqTopLevelEnded()\n_gqServeMainQueue()\n"))
    }

    @Test func aTaskIsCountedWhereItsClosureIsMadeWhateverItsCaptureList() {
        let source = HarnessProgram.mainSource(for: """
            Task { [x] in print(x) }
            Task { [] in print(1) }
            Task(priority: .low, operation: { @MainActor () async in print(2) })

            """)
        #expect(source.contains("""
            Task { [_gqTask = _gqTaskCreated(), x] in _gqTaskStarted(_gqTask); defer { _gqTaskEnded() }; return print(x) }
            Task { [_gqTask = _gqTaskCreated()] in _gqTaskStarted(_gqTask); defer { _gqTaskEnded() }; return print(1) }
            Task(priority: .low, operation: { @MainActor [_gqTask = _gqTaskCreated()] () async in _gqTaskStarted(_gqTask); defer { _gqTaskEnded() }; return print(2) })
            """))
    }

    /// Only where tasks alone run the snippet's code after the top-level code does a run end with
    /// the last task, without the monitor's looks at the threads.
    @Test func aRunEndsWithItsLastTaskOnlyWhereNothingElseCanRunCode() throws {
        func ends(_ code: String) throws -> Bool {
            let program = try SnippetCompiler.compile(code, mode: LanguageMode(swiftVersion: 6)).get()
            return HarnessProgram.endsWithLastTask(code: code, program: program)
        }
        #expect(try ends("Task { print(1) }\nTask.detached { print(2) }\nprint(3)\n"))
        #expect(try ends("let s = DispatchSemaphore(value: 0)\nTask { s.signal() }\ns.wait()\nprint(1)\n"))
        #expect(try ends("func f() async -> Int { 1 }\nTask { async let x = f(); print(await x) }\n"))
        #expect(try !ends("Task { print(1) }\nDispatchQueue.main.async { print(2) }\n"))
        #expect(try !ends("let g = DispatchGroup()\ng.enter()\nTask { g.leave() }\ng.notify(queue: .main) { print(1) }\n"))
        #expect(try !ends("func f() async -> Int { 1 }\nasync let x = f()\nprint(2)\n"))
        #expect(!HarnessProgram.endsWithLastTask(code: "Task { print(1) }\n", program: nil))
        // Made where the harness cannot count it, or printing after its last task: the syntax says no
        // whatever the program (here one with nothing outside tasks).
        let plain = try SnippetCompiler.compile("print(1)\n").get()
        #expect(!HarnessProgram.endsWithLastTask(code: "let work: @Sendable () async -> Void = { print(1) }\nTask(operation: work)\n",
                                                 program: plain))
        #expect(!HarnessProgram.endsWithLastTask(code: "let make = Task<Void, Never>.init\n", program: plain))
        #expect(!HarnessProgram.endsWithLastTask(code: "final class A { deinit { print(1) } }\n", program: plain))
    }

    @Test func topLevelCodeThatAwaitsSuspendsForGoodAtItsEnd() {
        #expect(HarnessProgram.mainSource(for: "await Task.yield()\n").hasSuffix("_gqTopLevelEnded()\nawait _gqServeForever()\n"))
        #expect(HarnessProgram.mainSource(for: "async let x = 1\n").hasSuffix("await _gqServeForever()\n"))
        // An await inside a task's closure or a function is not the top-level code's.
        #expect(HarnessProgram.mainSource(for: "func f() async { await Task.yield() }\nTask { await f() }\n")
            .hasSuffix("_gqServeMainQueue()\n"))
    }
}

/// The snippet's types the fork server asks the runtime about before it forks (`SnippetTypes`).
struct SnippetTypesTests {
    @Test func theTopLevelTypesAndTheirNestedOnesAreNamed() {
        let source = HarnessProgram.mainSource(for: """
            enum LoadError: Error { case notFound }
            struct Box<T> { struct Inner {} }
            struct Token: ~Copyable {}
            @MainActor final class Model { enum State { case idle } }
            private actor Counter {}
            protocol Shape {}
            @available(*, unavailable) struct Gone {}
            func f() { struct Local {} }
            print(1)

            """)
        #expect(source.contains("func _gqSnippetTypes() -> [Any.Type] { [LoadError.self, Model.self, Model.State.self, Counter.self] }\n_gqTopLevelEnded()\n"))
    }

    @Test func aSnippetWithoutTypesNamesNone() {
        #expect(HarnessProgram.mainSource(for: "print(1)\n").contains("func _gqSnippetTypes() -> [Any.Type] { [] }\n"))
    }
}
