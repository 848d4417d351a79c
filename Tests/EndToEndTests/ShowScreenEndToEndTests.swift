import Foundation
import Testing

/// `show` at an 80-column terminal: every line fits, and wrapping leaves no closing debris such
/// as "}`" alone on a line (a choice option holding code used to end that way).
@Suite struct ShowScreenEndToEndTests {
    @Test func aChoiceQuestionWithCodeInItsOptionsFitsEightyColumns() throws {
        let state = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let terminal = try PseudoTerminal(
            arguments: ["show", "ui-update-main-queue"], environment: DrillEndToEndTests.environment(state: state), size: (80, 24))
        #expect(terminal.waitForExit() == 0)
        // A terminal ends lines with "\r\n", one Character in Swift.
        let lines = terminal.screen.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        #expect(lines.contains { $0.contains(".userInteractive).async { imageView.image") })
        #expect(lines.contains { $0.hasPrefix("Source: Tatiana Kornilova") })
        for line in lines {
            #expect(line.count <= 80, "wider than the terminal: \(line)")
            let content = line.trimmingCharacters(in: .whitespaces)
            #expect(content.isEmpty || content.count > 3, "a short tail left alone on a line: '\(line)'")
        }
    }

    /// `show FILE.swift`, as the README's `show ID|FILE` says: the snippet's code and the
    /// question (not "no question with id"); a snippet outside the subset gets its diagnostic.
    @Test func aSnippetFileIsShownAsItsPuzzle() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("two.swift").path
        try "serialQueue.async {\n    print(1)\n}\nprint(2)\n".write(toFile: file, atomically: true, encoding: .utf8)
        let shown = try Binary.run(["show", file])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix(file + "\na snippet · trace · written against the prelude\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("4 │ print(2)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("What does it print?"))
        let bad = folder.appendingPathComponent("bad.swift").path
        try "foo()\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try Binary.run(["show", bad])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("\(bad):1:1: error: "), "\(refused.stderr)")
    }
}
