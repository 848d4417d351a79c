import Dispatch
import Foundation
import Generator
import LiveRun
import Quiz
import Testing

/// Generated code is real Swift: a sample type-checks with swiftc, the prelude in front, as
/// every bank puzzle does.
@Suite struct CompilerAgreementTests {
    @Test func tenGeneratedPuzzlesTypeCheckWithThePrelude() throws {
        // Every fifth puzzle of the sample, fresh ones and variants alike.
        let puzzles = Array(stride(from: 0, to: GeneratorTests.sample.count, by: 20).map { GeneratorTests.sample[$0] }.prefix(10))
        #expect(puzzles.count == 10)
        let results = Results(count: puzzles.count)
        // Two at a time: swiftc is the slow part, and the machine has two cores.
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for index in stride(from: lane, to: puzzles.count, by: 2) {
                results.set(index, Result { try CompiledSnippet.typeCheck(puzzles[index].question.code ?? "") })
            }
        }
        for (puzzle, result) in zip(puzzles, results.all) {
            let checked = try result.get()
            #expect(checked.succeeded, "\(puzzle.question.id) does not type-check:\n\(puzzle.question.code ?? "")\n\(checked.output)")
        }
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Result<(succeeded: Bool, output: String), Error>?]

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Result<(succeeded: Bool, output: String), Error>) {
        lock.withLock { values[index] = value }
    }

    var all: [Result<(succeeded: Bool, output: String), Error>] {
        lock.withLock { values.map { $0! } }
    }
}
