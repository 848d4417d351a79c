import Foundation
import LiveRun

/// Makes PDFs from the sheet's HTML with WeasyPrint (Debian's `weasyprint`), which implements the
/// CSS paged media the style sheet uses (running header and footer, page counters).
///
/// WeasyPrint lays out about ten pages a second and every PDF it writes subsets its fonts anew
/// (half a second a file), so every document (a variant's sheet or key, the notes) is laid out
/// once, through WeasyPrint's Python API, by a few processes side by side that each write their
/// chunk of the documents as one PDF; each book (every variant's sheet; every key and the notes)
/// and each part (a variant's sheet or key, the notes) is then put together from the chunks'
/// pages by qpdf, which copies pages without laying anything out. Without qpdf, one WeasyPrint
/// process per book writes the book and its parts itself (slower, same pages); should the API not
/// be importable, each HTML file is converted by the `weasyprint` command instead.
public struct PDFMaker: Sendable {
    /// The `weasyprint` executable found on the PATH.
    public var executable: URL
    /// qpdf, which cuts the parts from a book's PDF, when installed.
    public var splitter: URL?

    /// How to get WeasyPrint, for the message shown when it is missing.
    public static let installHint = "install WeasyPrint to make PDFs (Debian/Ubuntu: sudo apt-get install weasyprint; elsewhere: pip install weasyprint)"

    /// WeasyPrint (and qpdf when it is there) if WeasyPrint is installed, else nil.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> PDFMaker? {
        guard let executable = findExecutable("weasyprint", environment: environment) else { return nil }
        return PDFMaker(executable: executable, splitter: findExecutable("qpdf", environment: environment))
    }

    private static func findExecutable(_ name: String, environment: [String: String]) -> URL? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// A PDF made of some of a book's documents, in order.
    public struct Part: Sendable {
        public var pdf: URL
        /// Its document title, which qpdf does not carry over from the pages.
        public var title: String
        /// The whole part as one HTML file, for the `weasyprint` command.
        public var html: URL
        /// Indices into the book's documents.
        public var documents: [Int]
    }

    /// HTML documents laid out once each, written as one PDF of all their pages in order (every
    /// variant's sheets, or every key), and the parts cut from it. Each document numbers its own
    /// pages ("Page n of m"), so a part made of one document is numbered as if made alone.
    public struct Book: Sendable {
        public var documents: [URL]
        public var combined: URL
        /// The combined PDF's document title (WeasyPrint would give it the first document's).
        public var title: String
        /// The HTML holding every document, for the `weasyprint` command.
        public var combinedHTML: URL
        public var parts: [Part]
        /// For printing on both sides: in the combined PDF a blank page follows each document of
        /// an odd number of pages, so that the next starts on a sheet of its own.
        public var padsToEven = false
    }

    /// Makes every book's PDFs. With qpdf, the documents of all books are laid out in a few
    /// chunks of about the same size, each chunk in a WeasyPrint process of its own (layout is
    /// most of the time, and a process uses one core), side by side; each book and its parts are
    /// then put together from the chunks' pages. The chunks depend on the documents only, so the
    /// bytes do not depend on the machine. Without qpdf, each book is one process that writes
    /// every PDF itself.
    public func make(_ books: [Book]) throws(SheetError) {
        var byCommand = Array(books.indices)
        if let python = interpreter() {
            let chunks = self.chunks(of: books)
            let laidOut = LaidOutChunks()
            DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
                if let documents = runAPI(python, chunks[index], books) { laidOut.set(documents, for: index) }
            }
            var pages: [DocumentRef: PlacedDocument] = [:]
            for (index, chunk) in chunks.enumerated() {
                guard let documents = laidOut[index] else { continue }
                for (reference, (document, range)) in zip(chunk.documents, zip(documents, Self.pageRanges(documents.map(\.pageCount)))) {
                    pages[reference] = PlacedDocument(file: chunk.pdf, range: range, document: document)
                }
            }
            byCommand = []
            let blank = chunks.first.map { Self.blankPage(beside: $0.pdf) }
            for (index, book) in books.enumerated() {
                let located = book.documents.indices.compactMap { pages[DocumentRef(book: index, document: $0)] }
                guard located.count == book.documents.count else {
                    byCommand.append(index)
                    continue
                }
                if let splitter, let failure = assemble(book, from: located, blank: blank, with: splitter) {
                    throw .internalFailure(failure)
                }
            }
        }
        // What the API could not make, the command converts file by file.
        let failures = Failures()
        let leftOver = byCommand
        DispatchQueue.concurrentPerform(iterations: leftOver.count) { index in
            if let failure = convertFileByFile(books[leftOver[index]]) { failures.add(failure) }
        }
        if let failure = failures.first { throw .internalFailure(failure) }
    }

    /// One document of one book.
    struct DocumentRef: Hashable, Sendable {
        var book: Int
        var document: Int
    }

    /// A document laid out: the PDF of its chunk, where its pages are there, and its bookmarks.
    struct PlacedDocument: Sendable {
        var file: URL
        var range: ClosedRange<Int>
        var document: LaidOutDocument
    }

    /// Documents laid out by one process and written as one PDF.
    struct Chunk: Sendable {
        var documents: [DocumentRef]
        var pdf: URL
    }

    /// How many processes lay out the books side by side: two per core, so that a chunk that
    /// lays out slower than its size says does not leave a core idle, at most eight.
    static var processCount: Int { min(8, 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// With qpdf, every book's documents in order, in `processCount` runs of about the same size
    /// (scratch PDFs beside the first book's); without, each book whole, written by its process
    /// as the book's PDF.
    private func chunks(of books: [Book]) -> [Chunk] {
        guard splitter != nil, let first = books.first else {
            return books.indices.map { book in
                Chunk(documents: books[book].documents.indices.map { DocumentRef(book: book, document: $0) }, pdf: books[book].combined)
            }
        }
        let documents = books.indices.flatMap { book in books[book].documents.indices.map { DocumentRef(book: book, document: $0) } }
        let sizes = documents.map { Self.layoutSize(of: books[$0.book].documents[$0.document]) }
        let folder = first.combined.deletingLastPathComponent()
        return Self.balancedRuns(sizes, count: Self.processCount).enumerated().map { index, run in
            Chunk(documents: Array(documents[run]), pdf: folder.appendingPathComponent(".chunk-\(index + 1).pdf"))
        }
    }

    /// How much a document has to lay out, for balancing the chunks: the size of its body (every
    /// document carries the same style sheet, which costs next to nothing to lay out).
    static func layoutSize(of document: URL) -> Int {
        guard let data = try? Data(contentsOf: document) else { return 1 }
        let body = data.firstRange(of: Data("<body".utf8))?.lowerBound ?? data.startIndex
        return max(1, data.endIndex - body)
    }

    /// Cuts documents of these sizes, in order, into `count` runs (fewer when there are fewer
    /// documents) of about the same total size, none empty.
    static func balancedRuns(_ sizes: [Int], count: Int) -> [Range<Int>] {
        let count = min(count, sizes.count)
        guard count > 1 else { return sizes.isEmpty ? [] : [0..<sizes.count] }
        let total = sizes.reduce(0, +)
        var runs: [Range<Int>] = []
        var start = 0
        var sum = 0
        for (index, size) in sizes.enumerated() where runs.count < count - 1 {
            sum += size
            // Close the run when it holds its share, or when each document left must be a run.
            let documentsLeft = sizes.count - index - 1
            let runsLeft = count - runs.count - 1
            if sum * count >= total * (runs.count + 1) || documentsLeft == runsLeft {
                runs.append(start..<(index + 1))
                start = index + 1
            }
        }
        runs.append(start..<sizes.count)
        return runs
    }

    /// The book's PDF and its parts, each made of the chunks' pages of its documents, then given
    /// its title and the bookmarks WeasyPrint would have written. `--deterministic-id` keeps the
    /// same sheet the same bytes.
    private func assemble(_ book: Book, from pages: [PlacedDocument], blank: URL?, with splitter: URL) -> String? {
        let outputs = [(book.combined, Array(book.documents.indices), book.title, book.padsToEven)]
            + book.parts.map { ($0.pdf, $0.documents, $0.title, false) }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: outputs.count) { index in
            let (pdf, documents, title, pads) = outputs[index]
            var selection: [String] = []
            var bookmarks: [PDFBookmark] = []
            var pagesBefore = 0
            for document in documents {
                let placed = pages[document]
                selection += [placed.file.path, "\(placed.range.lowerBound)-\(placed.range.upperBound)"]
                bookmarks += placed.document.bookmarks.map { bookmark in
                    var moved = bookmark
                    moved.page += pagesBefore
                    return moved
                }
                pagesBefore += placed.range.count
                if pads, let blank, placed.range.count % 2 == 1 {
                    selection += [blank.path, "1"]
                    pagesBefore += 1
                }
            }
            let result = run(splitter, ["--empty", "--deterministic-id", "--pages"] + selection + ["--", pdf.path])
            // qpdf exits 3 when it succeeded with warnings.
            guard result.death == .exited(0) || result.death == .exited(3) else {
                failures.add("qpdf could not put \(pdf.lastPathComponent) together: \(result.errors.prefix(1500))")
                return
            }
            addOutline(PDFOutline(title: title, bookmarks: bookmarks), to: pdf, with: splitter)
        }
        return failures.first
    }

    /// Gives a PDF qpdf put together its title and bookmarks. A qpdf too old for JSON (before 11)
    /// leaves the PDF as it was: complete, only without them.
    private func addOutline(_ outline: PDFOutline, to pdf: URL, with splitter: URL) {
        let inspected = run(splitter, ["--json=2", "--json-key=qpdf", "--json-key=pages", pdf.path])
        guard inspected.death == .exited(0) || inspected.death == .exited(3),
              let update = outline.update(forQPDFJSON: Data(inspected.output.utf8)) else { return }
        let updateFile = pdf.deletingPathExtension().appendingPathExtension("outline.json")
        defer { try? FileManager.default.removeItem(at: updateFile) }
        guard (try? update.write(to: updateFile)) != nil else { return }
        _ = run(splitter, ["--update-from-json=\(updateFile.path)", "--deterministic-id", "--replace-input", pdf.path])
    }

    /// The one blank page the first chunk's process writes, of its first page's size: what a
    /// book is padded with.
    static func blankPage(beside chunk: URL) -> URL {
        chunk.deletingLastPathComponent().appendingPathComponent(".blank.pdf")
    }

    /// Where each document's pages are in the PDF of its chunk, numbered from 1.
    static func pageRanges(_ pageCounts: [Int]) -> [ClosedRange<Int>] {
        var first = 1
        return pageCounts.map { count in
            defer { first += count }
            return first...(first + count - 1)
        }
    }

    /// The book file by file through the `weasyprint` command; a failure in words.
    private func convertFileByFile(_ book: Book) -> String? {
        for (html, pdf) in book.parts.map({ ($0.html, $0.pdf) }) + [(book.combinedHTML, book.combined)] {
            let result = run(executable, ["--quiet", html.path, pdf.path])
            guard result.death == .exited(0) else {
                return "weasyprint could not convert \(html.lastPathComponent): \(result.errors.prefix(1500))"
            }
        }
        return nil
    }

    /// The Python that runs `weasyprint`, from the script's first line.
    private func interpreter() -> [String]? {
        guard let handle = try? FileHandle(forReadingFrom: executable) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 256), as: UTF8.self)
        guard head.hasPrefix("#!"), let line = head.split(separator: "\n").first else { return nil }
        let words = line.dropFirst(2).split(separator: " ").map(String.init)
        return words.isEmpty ? nil : words
    }

    /// The chunk laid out and written by the script (without qpdf, its book's parts too); each
    /// document's pages, title and bookmarks, or nil when it failed.
    private func runAPI(_ python: [String], _ chunk: Chunk, _ books: [Book]) -> [LaidOutDocument]? {
        let book = chunk.documents.first.map { books[$0.book] }
        let parts = splitter == nil ? book?.parts ?? [] : []
        // With qpdf, the first chunk also writes the blank page the books are padded with;
        // without, each process pads its book itself.
        let isFirst = chunk.documents.first == DocumentRef(book: 0, document: 0)
        let request: [String: Any] = [
            "documents": chunk.documents.map { books[$0.book].documents[$0.document].path },
            "combined": chunk.pdf.path,
            // Without qpdf the script writes the book itself, under the book's title.
            "combinedTitle": splitter == nil ? book?.title ?? "" : "",
            "parts": parts.map { ["pdf": $0.pdf.path, "documents": $0.documents] },
            "blank": splitter != nil && isFirst ? Self.blankPage(beside: chunk.pdf).path : "",
            "padCombined": splitter == nil && book?.padsToEven == true,
        ]
        guard let request = try? JSONSerialization.data(withJSONObject: request) else { return nil }
        let result = run(URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + ["-c", Self.script, String(decoding: request, as: UTF8.self)])
        guard result.death == .exited(0) else { return nil }
        let entries = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [[String: Any]]
        let documents = entries?.compactMap(Self.laidOutDocument)
        guard let documents, documents.count == chunk.documents.count, documents.allSatisfy({ $0.pageCount > 0 }) else { return nil }
        return documents
    }

    /// One document as the script reports it: `{"pages", "bookmarks": [[page, level, label, x,
    /// y]]}`.
    static func laidOutDocument(_ entry: [String: Any]) -> LaidOutDocument? {
        guard let pages = entry["pages"] as? Int, let bookmarks = entry["bookmarks"] as? [[Any]] else { return nil }
        return LaidOutDocument(pageCount: pages, bookmarks: bookmarks.compactMap { fields in
            guard fields.count == 5, let page = fields[0] as? Int, let level = fields[1] as? Int, let label = fields[2] as? String,
                  let x = (fields[3] as? NSNumber)?.doubleValue, let y = (fields[4] as? NSNumber)?.doubleValue else { return nil }
            return PDFBookmark(page: page, level: level, label: label, x: x, y: y)
        })
    }

    /// Renders each document once, writes all their pages as the book (WeasyPrint's documented
    /// way to join documents) and the parts asked for, and prints each document's page count
    /// and bookmarks (in PDF points from the page's bottom left, as WeasyPrint writes them:
    /// 0.75 point a CSS pixel).
    static let script = """
        import copy, gc, json, sys
        # Layout makes millions of small objects and keeps nearly all of them (every document is
        # held until written), so the cycle collector's passes only cost time (about a tenth of
        # it); the process ends after its chunk.
        gc.disable()
        import re
        import weasyprint
        from weasyprint.text.fonts import FontConfiguration
        request = json.loads(sys.argv[1])
        # Every sheet (or key) carries the same style sheet: parsed once, with one font
        # configuration for all, a document costs 6 ms before its layout instead of 30.
        fonts = FontConfiguration()
        styles = {}
        def render(path):
            with open(path, encoding="utf-8") as file:
                text = file.read()
            style = re.search(r"<style>(.*?)</style>", text, re.S)
            if style is None:
                return weasyprint.HTML(filename=path).render(font_config=fonts)
            if style.group(1) not in styles:
                styles[style.group(1)] = weasyprint.CSS(string=style.group(1), font_config=fonts)
            bare = text[:style.start()] + text[style.end():]
            return weasyprint.HTML(string=bare, base_url=path).render(stylesheets=[styles[style.group(1)]], font_config=fonts)
        rendered = [render(path) for path in request["documents"]]
        blank = []
        def blank_page():
            # An empty page of the first page's size, to pad a document to an even count.
            if not blank:
                first = rendered[0].pages[0]
                style = "@page { size: %.3fpx %.3fpx; margin: 0 }" % (first.width, first.height)
                blank.append(weasyprint.HTML(string="<style>%s</style>" % style).render(font_config=fonts))
            return blank[0]
        if request["blank"]:
            blank_page().write_pdf(request["blank"])
        def write(indices, pdf, title="", pad=False):
            pages = []
            for index in indices:
                pages += rendered[index].pages
                if pad and len(rendered[index].pages) % 2 == 1:
                    pages += blank_page().pages[:1]
            joined = rendered[indices[0]].copy(pages)
            if title:
                joined.metadata = copy.copy(joined.metadata)
                joined.metadata.title = title
            joined.write_pdf(pdf)
        write(range(len(rendered)), request["combined"], request["combinedTitle"], request["padCombined"])
        for part in request["parts"]:
            write(part["documents"], part["pdf"])
        def bookmarks(document):
            return [[number, level, label, 0.75 * x, 0.75 * (page.height - y)]
                    for number, page in enumerate(document.pages)
                    for level, label, (x, y), state in page.bookmarks]
        json.dump([{"pages": len(document.pages), "bookmarks": bookmarks(document)} for document in rendered], sys.stdout)
        """

    /// Each chunk's documents, as the chunks finish.
    private final class LaidOutChunks: @unchecked Sendable {
        private let lock = NSLock()
        private var documents: [Int: [LaidOutDocument]] = [:]

        func set(_ value: [LaidOutDocument], for chunk: Int) { lock.withLock { documents[chunk] = value } }
        subscript(chunk: Int) -> [LaidOutDocument]? { lock.withLock { documents[chunk] } }
    }

    /// The first failure of books made side by side.
    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []

        func add(_ message: String) { lock.withLock { messages.append(message) } }
        var first: String? { lock.withLock { messages.first } }
    }

    /// Runs a program to its end through LiveRun's process runner; one that cannot start reads
    /// as a failed run with the reason as its errors. fontTools, which subsets the fonts
    /// WeasyPrint embeds, stamps each subset with the time unless SOURCE_DATE_EPOCH
    /// (reproducible-builds.org) is set: without it no two PDFs of the same sheet would be the
    /// same bytes.
    private func run(_ executable: URL, _ arguments: [String]) -> (death: Ending.Death?, output: String, errors: String) {
        let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] ?? "0"
        do {
            let result = try ProcessRun.execute(executable.path, arguments, environment: ["SOURCE_DATE_EPOCH": epoch])
            return (result.death, result.stdout, result.stderr)
        } catch {
            return (nil, "", "\(error)")
        }
    }
}
