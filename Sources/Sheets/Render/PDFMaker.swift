import Foundation
import LiveRun

/// Makes PDFs from the sheet's HTML with WeasyPrint (Debian's `weasyprint`), which implements the
/// CSS paged media the style sheet uses (running header and footer, page counters).
///
/// WeasyPrint lays out about ten pages a second and every PDF it writes subsets its fonts anew
/// (half a second a file), so each book (every variant's sheets, or every key) is laid out once,
/// document by document, in one WeasyPrint process through its Python API, and written once as
/// the book's PDF; each part's PDF (a variant's sheet or key) is then cut from the book's pages by
/// qpdf, which copies pages without laying anything out. The books are made side by side, one
/// process each. Without qpdf, WeasyPrint writes every part itself (slower, same pages); should
/// the API not be importable, each HTML file is converted by the `weasyprint` command instead.
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
        /// The HTML holding every document, for the `weasyprint` command.
        public var combinedHTML: URL
        public var parts: [Part]
    }

    /// Makes every book's PDFs. With qpdf, each book is laid out in two halves of about the same
    /// size, each in a WeasyPrint process of its own (layout is most of the time, and a process
    /// uses one core), the halves side by side, and the book and its parts are put together from
    /// the halves' pages; the halves depend on the documents only, so the bytes do not depend on
    /// the machine. Without qpdf, each book is one process that writes every PDF itself.
    public func make(_ books: [Book]) throws(SheetError) {
        var byCommand = Array(books.indices)
        if let python = interpreter() {
            let chunks = books.indices.flatMap { index in self.chunks(of: books[index], book: index) }
            let pageCounts = PageCounts()
            DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
                if let counts = runAPI(python, chunks[index], books[chunks[index].book]) { pageCounts.set(counts, for: index) }
            }
            byCommand = []
            for (index, book) in books.enumerated() {
                let own = chunks.indices.filter { chunks[$0].book == index }
                let counts = own.compactMap { pageCounts[$0] }
                guard counts.count == own.count else {
                    byCommand.append(index)
                    continue
                }
                if let splitter, let failure = assemble(book, from: own.map { chunks[$0] }, pageCounts: counts, with: splitter) {
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

    /// Some of a book's documents, laid out by one process and written as one PDF.
    struct Chunk: Sendable {
        var book: Int
        var documents: Range<Int>
        var pdf: URL
    }

    /// The book in two halves of about the same size with qpdf to put them together, else whole.
    private func chunks(of book: Book, book index: Int) -> [Chunk] {
        guard splitter != nil, book.documents.count > 1 else {
            return [Chunk(book: index, documents: book.documents.indices, pdf: book.combined)]
        }
        let sizes = book.documents.map { (try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 1 }
        let middle = Self.balancedSplit(sizes)
        let stem = book.combined.deletingPathExtension().path
        return [0..<middle, middle..<book.documents.count].enumerated().map { half, documents in
            Chunk(book: index, documents: documents, pdf: URL(fileURLWithPath: "\(stem).half\(half + 1).pdf"))
        }
    }

    /// Where to cut documents of these sizes in two so that both halves are about as big (each
    /// half keeps at least one document).
    static func balancedSplit(_ sizes: [Int]) -> Int {
        let total = sizes.reduce(0, +)
        var sum = 0
        for (index, size) in sizes.enumerated().dropLast() {
            sum += size
            if 2 * sum >= total { return index + 1 }
        }
        return max(sizes.count - 1, 1)
    }

    /// The book's PDF and its parts, each made of pages of the halves: each document's pages, found
    /// from every document's page count. `--deterministic-id` keeps the same sheet the same bytes.
    private func assemble(_ book: Book, from chunks: [Chunk], pageCounts: [[Int]], with splitter: URL) -> String? {
        var pages: [(file: URL, range: ClosedRange<Int>)] = []
        for (chunk, counts) in zip(chunks, pageCounts) {
            pages += Self.pageRanges(counts).map { (chunk.pdf, $0) }
        }
        let outputs = chunks.count == 1 ? book.parts.map { ($0.pdf, $0.documents) }
            : [(book.combined, Array(book.documents.indices))] + book.parts.map { ($0.pdf, $0.documents) }
        for (pdf, documents) in outputs {
            var selection: [String] = []
            for document in documents {
                selection += [pages[document].file.path, "\(pages[document].range.lowerBound)-\(pages[document].range.upperBound)"]
            }
            let result = run(splitter, ["--empty", "--deterministic-id", "--pages"] + selection + ["--", pdf.path])
            // qpdf exits 3 when it succeeded with warnings.
            guard result.death == .exited(0) || result.death == .exited(3) else {
                return "qpdf could not put \(pdf.lastPathComponent) together: \(result.errors.prefix(1500))"
            }
        }
        return nil
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

    /// The chunk laid out and written by the script (without qpdf, the book's parts too); each
    /// document's page count, or nil when it failed.
    private func runAPI(_ python: [String], _ chunk: Chunk, _ book: Book) -> [Int]? {
        let request: [String: Any] = [
            "documents": book.documents[chunk.documents].map(\.path),
            "combined": chunk.pdf.path,
            "parts": splitter == nil ? book.parts.map { ["pdf": $0.pdf.path, "documents": $0.documents] } : [],
        ]
        guard let request = try? JSONSerialization.data(withJSONObject: request) else { return nil }
        let result = run(URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + ["-c", Self.script, String(decoding: request, as: UTF8.self)])
        guard result.death == .exited(0) else { return nil }
        let counts = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [Int]
        guard let counts, counts.count == chunk.documents.count, counts.allSatisfy({ $0 > 0 }) else { return nil }
        return counts
    }

    /// Renders each document once, writes all their pages as the book (WeasyPrint's documented
    /// way to join documents) and the parts asked for, and prints each document's page count.
    static let script = """
        import json, sys
        import weasyprint
        request = json.loads(sys.argv[1])
        rendered = [weasyprint.HTML(filename=path).render() for path in request["documents"]]
        def write(indices, pdf):
            pages = [page for index in indices for page in rendered[index].pages]
            rendered[indices[0]].copy(pages).write_pdf(pdf)
        write(range(len(rendered)), request["combined"])
        for part in request["parts"]:
            write(part["documents"], part["pdf"])
        json.dump([len(document.pages) for document in rendered], sys.stdout)
        """

    /// Each chunk's page counts, as the chunks finish.
    private final class PageCounts: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [Int: [Int]] = [:]

        func set(_ value: [Int], for chunk: Int) { lock.withLock { counts[chunk] = value } }
        subscript(chunk: Int) -> [Int]? { lock.withLock { counts[chunk] } }
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
