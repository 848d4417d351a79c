@testable import ConcurrencyModel
import Testing

/// Symmetry reduction over tasks (`MachineState.withInterchangeableTasksOrdered`): tasks a loop
/// makes from one statement are searched as interchangeable. Each snippet is checked against the
/// same tasks written out one statement each (different bodies, so nothing is swapped): the
/// outcomes and each machine's labels must be the same, with fewer states.
@Suite struct TaskSymmetryTests {
    /// Three children of one `addTask`, and the same three written out.
    static func children(_ body: String, setUp: String = "", after: String = "") -> (looped: String, writtenOut: String) {
        let child = "    group.addTask {\n" + body.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n") + "\n    }\n"
        let head = setUp + "await withTaskGroup(of: Void.self) { group in\n"
        let tail = after + "}\nprint(\"done\")\n"
        return (head + "for _ in 0..<3 {\n" + child + "}\n" + tail, head + child + child + child + tail)
    }

    static let counter = """
        actor Counter {
            var n = 0
            func bump() -> Int { n += 1; return n }
        }
        let c = Counter()

        """

    static let cases: [(name: String, looped: String, writtenOut: String)] = [
        { let c = children("print(\"a\")\nlet v = await c.bump()\nprint(\"b\\(v)\")", setUp: counter); return ("actor calls", c.looped, c.writtenOut) }(),
        { let c = children("""
            do {
                try await Task.sleep(nanoseconds: 1_000)
                print("slept")
            } catch {
                print("cancelled")
            }
            """, after: "group.cancelAll()\n"); return ("sleepers cancelled", c.looped, c.writtenOut) }(),
        ("detached tasks", counter + "for _ in 0..<3 {\n    Task.detached { print(\"t\"); print(await c.bump()) }\n}\n",
         counter + String(repeating: "Task.detached { print(\"t\"); print(await c.bump()) }\n", count: 3)),
    ]

    @Test(arguments: cases.indices)
    func interchangeableTasksKeepEveryOutcome(_ index: Int) throws {
        let (name, looped, writtenOut) = Self.cases[index]
        let reduced = try explore(looped)
        let full = try explore(writtenOut)
        #expect(reduced.isComplete && full.isComplete, "\(name)")
        #expect(outcomeSet(reduced) == outcomeSet(full), "\(name)")
        #expect(coreLabels(reduced) == coreLabels(full), "\(name)")
        if try SnippetCompiler.compile(looped).get().mayCancelTasks {
            // A cancellation wakes sleepers in the order of their numbers: nothing is swapped.
            #expect(reduced.statesExplored >= full.statesExplored, "\(name)")
        } else {
            #expect(reduced.statesExplored < full.statesExplored, "\(name): \(reduced.statesExplored) states against \(full.statesExplored)")
        }
    }

    /// The classic: many children bump an actor's counter. Three took 3,539 states before (four
    /// 37,046, five did not finish within the budget: about twelve times the states per child);
    /// now about half that (four: 13,629). swiftc prints `3` (verify).
    @Test func childrenBumpingOneCounterAreSearchedAsOne() throws {
        let exploration = try explore(Self.counter.replacingOccurrences(of: "-> Int { n += 1; return n }", with: "{ n += 1 }") + """
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask { await c.bump() }
                }
            }
            print(await c.n)
            """)
        #expect(exploration.isComplete)
        #expect(outcomeSet(exploration) == ["3"])
        #expect(exploration.statesExplored < 2_500)
    }
}
