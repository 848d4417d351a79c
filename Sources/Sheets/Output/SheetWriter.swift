import Foundation

/// Writes a planned sheet into a folder in the chosen format, all files or none.
public enum SheetWriter {
    /// What was written.
    public struct Written: Sendable {
        public var files: [URL]
        /// True when PDFs were asked for but WeasyPrint is missing: the HTML was written instead.
        public var pdfUnavailable = false
    }

    /// - Parameter pdfMaker: WeasyPrint, when installed (only used for `.pdf`).
    public static func write(_ sheet: Sheet, format: SheetFormat, paper: Paper, to folder: URL,
                             pdfMaker: PDFMaker?) throws(SheetError) -> Written {
        let textFormat: SheetRenderer.TextFormat = format == .md ? .md : .html
        let files = SheetRenderer(format: textFormat, paper: paper).render(sheet)
        let output = try StagedOutput(target: folder)
        do {
            for file in files { try output.write(file) }
            guard format == .pdf else {
                return Written(files: try output.commit(files.map(\.name)))
            }
            guard let pdfMaker else {
                return Written(files: try output.commit(files.map(\.name)), pdfUnavailable: true)
            }
            let pdf = { (name: String) in output.url(for: name + ".pdf") }
            let html = { (name: String) in output.url(for: name + ".html") }
            // Each variant's sheet (or key) is a document of its book and a part of its own; the
            // notes end the keys' book and are a part of their own.
            let titles = SheetRenderer.titles(sheet)
            let books = SheetRenderer.books(sheet).map { documents, all in
                PDFMaker.Book(documents: documents.map(html), combined: pdf(all), title: titles[all] ?? sheet.title, combinedHTML: html(all),
                              parts: documents.enumerated().map { index, name in
                                  PDFMaker.Part(pdf: pdf(name), title: titles[name] ?? sheet.title, html: html(name), documents: [index])
                              })
            }
            try pdfMaker.make(books)
            return Written(files: try output.commit(SheetRenderer.fileNames(sheet).map { $0 + ".pdf" }))
        } catch {
            output.discard()
            throw error
        }
    }
}
