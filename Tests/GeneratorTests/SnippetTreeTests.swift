import ConcurrencyModel
@testable import Generator
import Quiz
import Testing

/// The tree the generator edits: read from the bank's code, printed back in the bank's layout,
/// edited by the numbered replacements every change uses.
@Suite struct SnippetTreeTests {
    static let traceQuestions = Fixtures.bank.questions.filter { $0.kind == .trace }

    @Test func everyBankPuzzleReadsAndPrintsBackAsWritten() throws {
        var differ: [String] = []
        for question in Self.traceQuestions {
            let code = try #require(question.code)
            let tree = try #require(SnippetTreeReader.read(code), "\(question.id) does not parse")
            if tree.source != code { differ.append(question.id) }
        }
        #expect(differ.isEmpty, "printed differently from the bank: \(differ)")
    }

    @Test func dispatchesAndPrintsBecomeNodesAndTheRestIsKeptAsWritten() throws {
        let tree = try #require(SnippetTreeReader.read("""
            let g = DispatchGroup() // a comment
            concurrentQueue.async(group: g, flags: .barrier) { print("a") }
            for i in 1...2 {
                serialQueue.sync {
                    print(i)
                }
            }
            print(1)
            """))
        #expect(tree.statements.count == 4)
        #expect(tree.statements[0] == .line("let g = DispatchGroup()"))
        #expect(tree.statements[1] == .dispatch(Dispatch(queue: "concurrentQueue", mode: .async, barrier: true, group: "g", body: [.print(.text("a"))])))
        #expect(tree.statements[3] == .print(.number(1)))
        #expect(tree.dispatches.map(\.queue) == ["concurrentQueue", "serialQueue"])
        #expect(tree.labels == [.text("a"), .number(1)])
        #expect(tree.declaredNames == ["g"])
        #expect(tree.source == """
            let g = DispatchGroup()
            concurrentQueue.async(group: g, flags: .barrier) {
                print("a")
            }
            for i in 1...2 {
                serialQueue.sync {
                    print(i)
                }
            }
            print(1)

            """)
    }

    @Test func codeThatDoesNotParseIsNotRead() {
        #expect(SnippetTreeReader.read("serialQueue.async {\n print(1)\n") == nil)
    }

    @Test func theCanonicalSourceIgnoresLabelNamesButNotStructure() throws {
        let numbers = try #require(SnippetTreeReader.read("serialQueue.async {\n    print(1)\n}\nprint(2)\n"))
        let words = try #require(SnippetTreeReader.read("serialQueue.async {\n    print(\"red\")\n}\nprint(\"blue\")\n"))
        let swapped = try #require(SnippetTreeReader.read("serialQueue.async {\n    print(2)\n}\nprint(1)\n"))
        let other = try #require(SnippetTreeReader.read("concurrentQueue.async {\n    print(1)\n}\nprint(2)\n"))
        #expect(numbers.canonicalSource == words.canonicalSource)
        #expect(numbers.canonicalSource == swapped.canonicalSource)
        #expect(numbers.canonicalSource != other.canonicalSource)
    }

    @Test func renamingKeepsRepeatedLabelsTogether() throws {
        let tree = try #require(SnippetTreeReader.read("print(1)\nserialQueue.async {\n    print(2)\n    print(1)\n}\n"))
        var random = SeededRandom(seed: 4)
        let renamed = LabelScheme.colours.apply(to: tree, random: &random)
        #expect(renamed.labels.count == 3)
        #expect(renamed.labels[0] == renamed.labels[2])
        #expect(renamed.labels[0] != renamed.labels[1])
        #expect(renamed.labels.allSatisfy { LabelScheme.colourWords.contains($0.printed) })
    }
}
