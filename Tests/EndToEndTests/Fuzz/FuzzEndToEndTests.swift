import Foundation
import Quiz
import Testing

/// The bank's snippets, mutated (flipped bytes, tokens lost or doubled, two puzzles spliced, edge
/// numbers, deep nesting, odd characters and line endings, invalid UTF-8), thrown at the built
/// binary as a hostile user would (issue 11): whatever comes in, gcdquiz ends by itself, with 0, 1
/// or 2, and every diagnostic says where. The seed is fixed: a failure repeats on every run, and
/// its snippet is kept in `$TMPDIR/gcdquiz-fuzz-failures/` with the recipe that made it.
@Suite struct FuzzEndToEndTests {
    static let seed: UInt64 = 11
    /// Question files checked by one `validate` (one process start for many snippets).
    static let batchSize = 50
    static let validateBatches = 4
    /// Snippet files given to `solve`, `check` and `explain`, one process each.
    static let commandBatches = 4
    static let commandBatchSize = 25
    /// Small enough that a debug build finishes any snippet in seconds; a hang is far longer.
    static let stateBudget = "20000"
    static let timeout = 60.0

    static let mutants: [SnippetMutator.Mutant] = {
        let bank = BankLoader.load(paths: [Binary.packageRoot.appendingPathComponent("Questions").path], compilation: .onDemand)
        let seeds = bank.questions.compactMap { question in question.code.map { (name: question.id, code: $0) } }
        var mutator = SnippetMutator(seeds: seeds, seed: seed)
        return mutator.mutants(validateBatches * batchSize + commandBatches * commandBatchSize)
    }()

    @Test(arguments: 0..<validateBatches)
    func validateSurvivesMutatedQuestionFiles(batch: Int) throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mutants = Array(Self.mutants[batch * Self.batchSize..<(batch + 1) * Self.batchSize])
        for (index, mutant) in mutants.enumerated() {
            // Most as a double-quoted scalar, so the exact text reaches the compiler; some as a block, which odd line ends break.
            let yaml = Self.questionFile(id: mutant.name, code: mutant.text, asBlock: index % 4 == 3)
            try Data(yaml.utf8).write(to: folder.appendingPathComponent("\(mutant.name).yaml"))
        }
        let process = try SpawnedProcess(["validate", folder.path])
        let ending = process.finish(timeout: Self.timeout)
        let context = { "validate of \(mutants.first!.name)…\(mutants.last!.name): \(Self.keep(folder: folder, mutants))" }
        try Self.expectSound(ending, stderr: process.stderr, context: context)
    }

    @Test(arguments: 0..<commandBatches)
    func solveCheckAndExplainSurviveMutatedSnippets(batch: Int) throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = Self.validateBatches * Self.batchSize + batch * Self.commandBatchSize
        for (index, mutant) in Self.mutants[start..<start + Self.commandBatchSize].enumerated() {
            let file = folder.appendingPathComponent("\(mutant.name).swift")
            try Data(mutant.bytes).write(to: file)
            let budget = ["--max-states", Self.stateBudget]
            let arguments: [String]
            switch index % 4 {
            case 0: arguments = ["check", file.path, "deadlock"] + budget
            case 1: arguments = ["explain", file.path] + budget
            default: arguments = ["solve", file.path] + budget + (index % 8 == 2 ? ["--json"] : [])
            }
            let process = try SpawnedProcess(arguments)
            let ending = process.finish(timeout: Self.timeout)
            let context = { "gcdquiz \(arguments.dropFirst(2).joined(separator: " ")) on \(Self.keep(file: file, mutant))" }
            try Self.expectSound(ending, stderr: process.stderr, context: context)
        }
    }

    // MARK: What every run must do

    /// Ended by itself with 0, 1 or 2, and with exit 1, a position on every diagnostic.
    static func expectSound(_ ending: SpawnedProcess.Ending?, stderr: String, context: () -> String,
                            sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        guard let ending else {
            Issue.record("no end within \(Int(timeout)) s (killed): \(context())", sourceLocation: sourceLocation)
            return
        }
        guard case .exited(let code) = ending, (0...2).contains(code) else {
            Issue.record("\(ending): \(context())\n\(stderr.suffix(2000))", sourceLocation: sourceLocation)
            return
        }
        guard code == 1 else { return }
        let unplaced = unplacedDiagnosticLines(stderr)
        #expect(unplaced.isEmpty, "diagnostics without file:line:col: \(unplaced.prefix(3)) — \(context())", sourceLocation: sourceLocation)
        #expect(stderr.contains(": error: "), "exit 1 without an error: \(context())\n\(stderr.prefix(2000))", sourceLocation: sourceLocation)
    }

    /// Lines of standard error that are neither a `file:line:col: severity:` heading nor the
    /// quoted source line and caret that follow one.
    static func unplacedDiagnosticLines(_ stderr: String) -> [String] {
        // Only a line feed ends a line here: a quoted source line may hold a CR or U+2028.
        let lines = stderr.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let heading = #/^.+:\d+:\d+: (error|warning|note): /#
        var unplaced: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.firstMatch(of: heading) != nil {
                let caret = index + 2 < lines.count && lines[index + 2].trimmingCharacters(in: .whitespaces) == "^"
                index += caret ? 3 : 1
                continue
            }
            if !line.isEmpty { unplaced.append(line) }
            index += 1
        }
        return unplaced
    }

    // MARK: Files

    static func questionFile(id: String, code: String, asBlock: Bool) -> String {
        let header = """
            id: \(id)
            title: a mutated snippet
            kind: trace
            level: 1
            tags: [serial-queues]
            source: the fuzz test
            explanation: none

            """
        if asBlock {
            let indented = code.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
            return header + "code: |\n" + indented + "\n"
        }
        return header + "code: " + doubleQuoted(code) + "\n"
    }

    /// A YAML double-quoted scalar holding exactly `text`: every character YAML would fold or
    /// refuse is escaped.
    static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case " "..."~": quoted.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0xA0 || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator || scalar.properties.generalCategory == .spaceSeparator
                    || scalar.value >= 0xFFF0 {
                    quoted += scalar.value > 0xFFFF ? String(format: "\\U%08X", scalar.value) : String(format: "\\u%04X", scalar.value)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    /// Copies a failing run's input where it outlives the test; the message names it.
    static func keep(file: URL, _ mutant: SnippetMutator.Mutant) -> String {
        let kept = failures.appendingPathComponent(file.lastPathComponent)
        try? FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: kept)
        try? FileManager.default.copyItem(at: file, to: kept)
        return "\(kept.path) (\(mutant.recipe.joined(separator: "; ")))"
    }

    static func keep(folder: URL, _ mutants: [SnippetMutator.Mutant]) -> String {
        let kept = failures.appendingPathComponent(folder.lastPathComponent)
        try? FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(at: folder, to: kept)
        return kept.path
    }

    static let failures = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-fuzz-failures")
}
