import ConcurrencyModel
import Testing

/// The eight print-order puzzles of the slides (seed 004), with the sets issue #2 states.
@Suite struct SlidePuzzleTests {
    static let cases: [(name: String, code: String, expected: Set<String>)] = [
        ("1 serial sync sync",
         "serialQueue.sync {\n    print(1)\n}\nprint(2)\nserialQueue.sync {\n    print(3)\n}\nprint(4)\n",
         ["1 2 3 4"]),
        ("2 serial async async",
         "serialQueue.async {\n    print(1)\n}\nprint(2)\nserialQueue.async {\n    print(3)\n}\nprint(4)\n",
         ["1 2 3 4", "1 2 4 3", "2 1 3 4", "2 1 4 3", "2 4 1 3"]),
        ("3 serial sync inside async",
         "serialQueue.async {\n    print(1)\n    serialQueue.sync {\n        print(2)\n    }\n    print(3)\n}\nprint(4)\n",
         ["1 4 deadlock", "4 1 deadlock", "1 deadlock"]),
        ("4 serial async inside sync",
         "serialQueue.sync {\n    print(1)\n    serialQueue.async {\n        print(2)\n    }\n    print(3)\n}\nprint(4)\n",
         ["1 3 2 4", "1 3 4 2"]),
        ("5 concurrent sync sync",
         "concurrentQueue.sync {\n    print(1)\n}\nprint(2)\nconcurrentQueue.sync {\n    print(3)\n}\nprint(4)\n",
         ["1 2 3 4"]),
        ("6 concurrent async async",
         "concurrentQueue.async {\n    print(1)\n}\nprint(2)\nconcurrentQueue.async {\n    print(3)\n}\nprint(4)\n",
         ["1 2 3 4", "1 2 4 3", "2 1 3 4", "2 1 4 3", "2 3 1 4", "2 4 1 3", "2 3 4 1", "2 4 3 1"]),
        ("7 concurrent sync inside async",
         "concurrentQueue.async {\n    print(1)\n    concurrentQueue.sync {\n        print(2)\n    }\n    print(3)\n}\nprint(4)\n",
         ["1 2 3 4", "1 2 4 3", "1 4 2 3", "4 1 2 3"]),
        ("8 concurrent async inside sync",
         "concurrentQueue.sync {\n    print(1)\n    concurrentQueue.async {\n        print(2)\n    }\n    print(3)\n}\nprint(4)\n",
         ["1 2 3 4", "1 3 2 4", "1 3 4 2"]),
    ]

    @Test(arguments: cases.indices)
    func slidePuzzle(_ index: Int) throws {
        let puzzle = Self.cases[index]
        let exploration = try explore(puzzle.code)
        #expect(exploration.isComplete)
        #expect(outcomeSet(exploration) == puzzle.expected, "\(puzzle.name)")
    }

    @Test func everyOutcomeHasAWitnessEndingInIt() throws {
        for puzzle in Self.cases {
            let exploration = try explore(puzzle.code)
            for report in exploration.reports {
                let printed = report.witness.compactMap { step -> String? in
                    if case .printed(let text) = step.event { return text }
                    return nil
                }
                #expect(printed == report.outcome.lines, "\(puzzle.name): \(report.outcome)")
            }
        }
    }
}
