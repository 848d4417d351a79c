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
        #expect(lines.contains { $0.hasPrefix("Source: seed 000") })
        for line in lines {
            #expect(line.count <= 80, "wider than the terminal: \(line)")
            let content = line.trimmingCharacters(in: .whitespaces)
            #expect(content.isEmpty || content.count > 3, "a short tail left alone on a line: '\(line)'")
        }
    }
}
