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
            var jobs: [PDFMaker.Job] = []
            for variant in sheet.variants {
                jobs.append(PDFMaker.Job(html: html("sheet-\(variant.id)"), pdf: pdf("sheet-\(variant.id)")))
                jobs.append(PDFMaker.Job(html: html("key-\(variant.id)"), pdf: pdf("key-\(variant.id)")))
            }
            let combinations = [
                PDFMaker.Combination(pdf: pdf("sheets"), parts: sheet.variants.map { pdf("sheet-\($0.id)") }, html: html("sheets")),
                PDFMaker.Combination(pdf: pdf("keys"), parts: sheet.variants.map { pdf("key-\($0.id)") }, html: html("keys")),
            ]
            try pdfMaker.make(jobs, combining: combinations)
            let names = (jobs.map(\.pdf) + combinations.map(\.pdf)).map(\.lastPathComponent)
            return Written(files: try output.commit(names))
        } catch {
            output.discard()
            throw error
        }
    }
}
