import ConcurrencyModel
import Testing
@testable import LiveRun

/// How many fork servers a compiled snippet gets when the user says nothing: two a core for one
/// that keeps no time (its runs wait half their wall time), one alone for a short sleeper (its
/// runs must not be held by a neighbour), and what the user says always wins.
@Suite struct CompiledOptionsTests {
    static func program(_ code: String) throws -> Program {
        try SnippetCompiler.compile(code).get()
    }

    @Test func aSnippetThatKeepsNoTimeGetsTwoServersACore() throws {
        let code = "Task { print(\"T\") }\nprint(\"main\")\n"
        let options = LiveRunner.compiledOptions(LiveRunner.Options(runs: 10), code: code, program: try Self.program(code), cores: 2)
        #expect(options.processes == 4)
        #expect(options.lateAfterMicroseconds == nil)
    }

    @Test func aShortSleeperRunsAloneAndTheUserWins() throws {
        let code = "Task {\n    try? await Task.sleep(nanoseconds: 1_000_000)\n    print(\"T\")\n}\nprint(\"main\")\n"
        let options = LiveRunner.compiledOptions(LiveRunner.Options(runs: 10), code: code, program: try Self.program(code), cores: 2)
        #expect(options.processes == 1)
        #expect(options.lateAfterMicroseconds != nil)
        var given = LiveRunner.Options(runs: 10)
        given.processes = 3
        #expect(LiveRunner.compiledOptions(given, code: "print(1)\nTask { }\n", program: nil, cores: 2).processes == 3)
    }
}
