import Foundation

/// Writes a planned sheet into a folder in the chosen format, all files or none: the sheets, keys
/// and notes, the plan `grade` reads (`sheet-plan.json`), and with a roster `roster-map.csv`.
public enum SheetWriter {
    /// What was written.
    public struct Written: Sendable {
        public var files: [URL]
        /// Files of an earlier run that this one removed (`--force`).
        public var removed: [String] = []
    }

    public struct Options: Sendable {
        public var format: SheetFormat
        public var paper: Paper
        /// Printed on both sides: the books pad each variant to an even number of pages.
        public var duplex = true
        /// Remove the files of an earlier run this one would leave beside its own (`--force`).
        public var removeEarlierFiles = false

        public init(format: SheetFormat, paper: Paper, duplex: Bool = true, removeEarlierFiles: Bool = false) {
            self.format = format
            self.paper = paper
            self.duplex = duplex
            self.removeEarlierFiles = removeEarlierFiles
        }
    }

    /// - Parameter pdfMaker: WeasyPrint (needed for `.pdf`: without it nothing is written).
    public static func write(_ sheet: Sheet, options: Options, to folder: URL, pdfMaker: PDFMaker?) throws(SheetError) -> Written {
        let format = options.format
        if format == .pdf && pdfMaker == nil {
            throw .badInput("no PDF: WeasyPrint is not installed; \(PDFMaker.installHint), or choose --format html")
        }
        let names = fileNames(sheet, format: format)
        let earlier = earlierFiles(in: folder, writing: names, format: format)
        if !earlier.isEmpty && !options.removeEarlierFiles {
            let shown = earlier.prefix(6).joined(separator: ", ") + (earlier.count > 6 ? " and \(earlier.count - 6) more" : "")
            throw .badInput("'\(folder.path)' holds \(earlier.count) file\(earlier.count == 1 ? "" : "s") of an earlier run that this one would leave beside its own, to be mistaken for them: \(shown); choose another --output, remove them, or --force to remove them")
        }
        let textFormat: SheetRenderer.TextFormat = format == .md ? .md : .html
        let files = SheetRenderer(format: textFormat, paper: options.paper, duplex: options.duplex).render(sheet)
        let output = try StagedOutput(target: folder)
        do {
            for file in files + classFiles(sheet) { try output.write(file) }
            if format == .pdf, let pdfMaker {
                let pdf = { (name: String) in output.url(for: name + ".pdf") }
                let html = { (name: String) in output.url(for: name + ".html") }
                // Each variant's sheet (or key) is a document of its book and a part of its own; the
                // notes end the keys' book and are a part of their own.
                let titles = SheetRenderer.titles(sheet)
                let books = SheetRenderer.books(sheet).map { documents, all in
                    PDFMaker.Book(documents: documents.map(html), combined: pdf(all), title: titles[all] ?? sheet.title, combinedHTML: html(all),
                                  parts: documents.enumerated().map { index, name in
                                      PDFMaker.Part(pdf: pdf(name), title: titles[name] ?? sheet.title, html: html(name), documents: [index])
                                  }, padsToEven: options.duplex)
                }
                try pdfMaker.make(books)
            }
            let removed = options.removeEarlierFiles ? earlier : []
            return Written(files: try output.commit(names, removing: removed), removed: removed)
        } catch {
            output.discard()
            throw error
        }
    }

    /// The files a sheet writes into its folder, in order.
    public static func fileNames(_ sheet: Sheet, format: SheetFormat) -> [String] {
        SheetRenderer.fileNames(sheet).map { $0 + "." + format.rawValue } + classFiles(sheet).map(\.name)
    }

    /// What `grade` reads: the plan, and with a roster who has which variant.
    static func classFiles(_ sheet: Sheet) -> [OutputFile] {
        var files = [OutputFile(name: SheetPlanFile.fileName, contents: SheetPlanFile(sheet).encoded())]
        if sheet.hasRoster { files.append(OutputFile(name: rosterMapName, contents: Data(Roster.map(sheet).utf8))) }
        return files
    }

    public static let rosterMapName = "roster-map.csv"

    /// The files in `folder` named as a sheet of this format names its files (`sheet-07.pdf`,
    /// `keys.pdf`, `roster-map.csv`…) that a run writing `names` would not replace: an earlier,
    /// larger run's, or one with a roster. Sorted by name.
    public static func earlierFiles(in folder: URL, writing names: [String], format: SheetFormat) -> [String] {
        guard let present = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        let writing = Set(names)
        let ext = "." + format.rawValue
        return present.filter { name in
            guard !writing.contains(name) else { return false }
            if name == rosterMapName { return true }
            guard name.hasSuffix(ext) else { return false }
            let stem = String(name.dropLast(ext.count))
            if ["sheets", "keys", "notes"].contains(stem) { return true }
            for prefix in ["sheet-", "key-"] where stem.hasPrefix(prefix) {
                let number = stem.dropFirst(prefix.count)
                if !number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber) { return true }
            }
            return false
        }.sorted()
    }
}
