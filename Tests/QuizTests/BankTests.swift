import ConcurrencyModel
import Foundation
import LiveRun
import Quiz
import Testing

/// The repository's own bank: every question loads, validates, is fully explorable, and compiles
/// as real Swift with the prelude in front.
@Suite struct BankTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let bank = BankLoader.load(paths: [root.appendingPathComponent("Questions").path])

    @Test func everyQuestionLoadsAndValidates() {
        #expect(Self.bank.problems.isEmpty, "\(Self.bank.problems)")
        #expect(BankValidator.validate(Self.bank).isEmpty)
        #expect(Self.bank.questions.count >= 8)
    }

    @Test func loadingKeepsEachPuzzlesProgram() throws {
        let question = try #require(Self.bank.question(id: "serial-async-async"))
        #expect(try Self.bank.program(of: question).get() == question.program().get())
        var edited = question
        edited.code = "print(1)"
        #expect(try Self.bank.program(of: edited).get() == edited.program().get())
    }

    @Test func slidePuzzleAnswersAreComputed() throws {
        let expected: [String: Int] = [
            "serial-sync-sync": 1, "serial-async-async": 5, "serial-sync-in-async": 3, "serial-async-in-sync": 2,
            "concurrent-sync-sync": 1, "concurrent-async-async": 8, "concurrent-sync-in-async": 4, "concurrent-async-in-sync": 3,
        ]
        for (id, count) in expected {
            let question = try #require(Self.bank.question(id: id))
            let exploration = Explorer().explore(try question.program().get())
            #expect(exploration.outcomes.count == count, "\(id)")
        }
    }

    @Test(arguments: bank.questions.filter { $0.kind.hasCode }.map(\.id))
    func typeChecksAsRealSwiftWithThePrelude(_ id: String) throws {
        let question = try #require(Self.bank.question(id: id))
        let result = try CompiledSnippet.typeCheck(question.code ?? "")
        #expect(result.succeeded, "\(id) does not type-check with the prelude:\n\(result.output)")
    }
}

@Suite struct SwiftCompilerCheckTests {
    /// The type-check above must be able to fail, or it proves nothing.
    @Test func aSnippetThatIsNotSwiftFailsTheTypeCheck() throws {
        let result = try CompiledSnippet.typeCheck("serialQueue.sync { print(undefinedName) }\n")
        #expect(!result.succeeded)
        #expect(result.output.contains("undefinedName"))
    }
}
