import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Quiz
import Testing
@testable import Sheets

@Suite struct HTMLTests {
    /// Every HTML file is well-formed XML (XHTML-compatible), so a parser finds every element
    /// closed and every value escaped.
    @Test(arguments: [TraceForm.write, .select])
    func everyHTMLFileParses(_ form: TraceForm) throws {
        for file in SheetRenderer(format: .html, paper: .letter).render(try Fixtures.sheet(form: form)) {
            let parser = XMLParser(data: file.contents)
            #expect(parser.parse(), "\(file.name): \(parser.parserError.map { "\($0)" } ?? "")")
        }
    }

    @Test func everythingFromTheQuestionIsEscaped() throws {
        var question = Fixtures.specialCharacters
        question.title = "<script>alert(1)</script> & more"
        question.explanation = "a <b>bold</b> claim & `x < y`"
        let sheet = try SheetPlanner(title: "<t>", seed: 1, variantCount: 1, traceForm: .select)
            .plan([question], answers: AnswerBook(bank: nil))
        let files = SheetRenderer(format: .html, paper: .a4).render(sheet)
        for file in files {
            let html = Fixtures.text(file)
            #expect(!html.contains("<script>"))
            #expect(!html.contains("<b>"))
            #expect(XMLParser(data: file.contents).parse(), "\(file.name)")
        }
        #expect(Fixtures.text(files[1]).contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"), "the key's title")
        let notes = Fixtures.text(try #require(files.last))
        #expect(notes.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
        #expect(notes.contains("<code>x &lt; y</code>"))
        #expect(notes.contains("main: {~:}") && notes.contains("&lt;b&gt;&amp;"))
    }

    @Test func eachPageCarriesTheTitleVariantSeedNameLineAndPageNumbers() throws {
        let sheet = try Fixtures.sheet(variants: 2)
        let files = SheetRenderer(format: .html, paper: .letter).render(sheet)
        let first = Fixtures.text(files[0])
        #expect(first.contains("size: letter;"))
        #expect(first.contains("counter(page)") && first.contains("counter(pages)"))
        #expect(first.contains("string-set: variant-line") && first.contains("Variant 1 of 2 · seed 42"))
        #expect(first.contains("Name: ____"))
        #expect(first.contains("let serialQueue = DispatchQueue(label: &quot;serialQueue&quot;)"))
        #expect(!first.contains("Source:"), "a sheet shows the source")
        #expect(!Fixtures.text(files[1]).contains("Source:"), "a key repeats what its notes say")
        #expect(Fixtures.text(try #require(files.last)).contains("Source:"))
        let all = Fixtures.text(files[4])
        #expect(all.components(separatedBy: "<section class=\"variant sheet\"").count == 3)
    }
}
