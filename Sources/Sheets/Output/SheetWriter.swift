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
            // Each variant's sheet (or key) is a document of the book and a part of its own.
            let books = [("sheet", "sheets"), ("key", "keys")].map { part, all in
                PDFMaker.Book(documents: sheet.variants.map { html("\(part)-\($0.id)") }, combined: pdf(all), combinedHTML: html(all),
                              parts: sheet.variants.enumerated().map { index, variant in
                                  PDFMaker.Part(pdf: pdf("\(part)-\(variant.id)"), html: html("\(part)-\(variant.id)"), documents: [index])
                              })
            }
            try pdfMaker.make(books)
            // In the order of the other formats: per variant its sheet and key, then the two books.
            let perVariant = sheet.variants.flatMap { variant in ["sheet-\(variant.id).pdf", "key-\(variant.id).pdf"] }
            let names = perVariant + ["sheets.pdf", "keys.pdf"]
            return Written(files: try output.commit(names))
        } catch {
            output.discard()
            throw error
        }
    }
}
