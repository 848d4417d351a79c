import Testing
@testable import Sheets

@Suite struct ProseTests {
    @Test func wrappedLinesJoinAndBackticksMarkCode() {
        let prose = Prose("Call `sync` on a\nserial queue.\n\nSecond paragraph.")
        #expect(prose.blocks == [
            .paragraph([.init(text: "Call ", isCode: false), .init(text: "sync", isCode: true), .init(text: " on a serial queue.", isCode: false)]),
            .paragraph([.init(text: "Second paragraph.", isCode: false)]),
        ])
    }

    @Test func aWrappedLineThatStartsWithANumberStaysInItsParagraph() {
        let prose = Prose("so 2 comes before 3, and 2 before\n4. The block printing 1 can run at any moment.")
        #expect(prose.blocks.count == 1)
        guard case .paragraph(let runs) = prose.blocks.first else {
            Issue.record("expected a paragraph")
            return
        }
        #expect(Prose.plain(runs) == "so 2 comes before 3, and 2 before 4. The block printing 1 can run at any moment.")
    }

    @Test func listsAndFencedCode() {
        let prose = Prose("Steps:\n1. enter\n2. leave,\n   then wait\n\n- one\n- two\n\n```\nlet x = 1\n    print(x)\n```\nAfter.")
        #expect(prose.blocks.count == 5)
        #expect(prose.blocks[1] == .numberedList([[.init(text: "enter", isCode: false)], [.init(text: "leave, then wait", isCode: false)]]))
        #expect(prose.blocks[2] == .bulletList([[.init(text: "one", isCode: false)], [.init(text: "two", isCode: false)]]))
        #expect(prose.blocks[3] == .code(["let x = 1", "    print(x)"]))
    }

    @Test func anUnpairedBacktickIsText() {
        #expect(Prose.runs("a ` b") == [.init(text: "a ` b", isCode: false)])
    }

    @Test func markdownTextEscapesMarkupAndCodeSpansGetALongEnoughFence() {
        #expect(MarkdownText().escapeText("a*b_c <d> [e] #f `g` \\") == "a\\*b\\_c \\<d\\> \\[e\\] \\#f \\`g\\` \\\\")
        let span = CodeSpan("a `b` c")
        #expect(span.fence == "``")
        #expect(CodeSpan("`x").pad == " ")
    }
}
