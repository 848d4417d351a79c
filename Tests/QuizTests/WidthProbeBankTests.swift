@testable import ConcurrencyModel
import Quiz
import Testing

/// Over the whole bank: the width `WidthProbe` sees is one the widest machine's search sees too
/// (every state the walk passes is one the search reaches), so a machine it calls needed is
/// needed.
@Suite struct WidthProbeBankTests {
    @Test(arguments: GoldenAnswerTests.puzzles.map(\.id))
    func probeSeesNoWidthTheSearchDoesNot(_ id: String) throws {
        let question = try #require(BankTests.bank.question(id: id))
        let program = try BankTests.bank.program(of: question).get()
        let exploration = Explorer().explore(program, for: Machine(cores: nil))
        for (machine, answer) in exploration.answers where machine.cores == nil {
            let graph = answer.graph
            let probe = WidthProbe.width(of: program, on: machine)
            #expect(probe <= max(graph.maxBusyWorkers, graph.maxPerformIterations), "\(machine)")
        }
    }
}
