import Foundation

/// Makes PDFs from the sheet's HTML with WeasyPrint (Debian's `weasyprint`), which implements the
/// CSS paged media the style sheet uses (running header and footer, page counters).
///
/// The sheets and the keys are each rendered in one WeasyPrint process through its Python API
/// (its start-up costs about as much as rendering a variant), the two side by side, and the
/// all-variants PDFs are put together from the per-variant pages, so that every variant's pages
/// say "Page n of m" of its own. Should the API not be importable, each HTML file is converted by
/// the `weasyprint` command instead.
public struct PDFMaker: Sendable {
    /// The `weasyprint` executable found on the PATH.
    public var executable: URL

    /// How to get WeasyPrint, for the message shown when it is missing.
    public static let installHint = "install WeasyPrint to make PDFs (Debian/Ubuntu: sudo apt-get install weasyprint; elsewhere: pip install weasyprint)"

    /// WeasyPrint if it is installed, else nil.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> PDFMaker? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("weasyprint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return PDFMaker(executable: candidate)
            }
        }
        return nil
    }

    /// One PDF to make from one HTML file.
    public struct Job: Sendable {
        public var html: URL
        public var pdf: URL
    }

    /// PDFs made from HTML files, and one more made of all their pages in order (every variant's
    /// sheets, or every key).
    public struct Book: Sendable {
        public var parts: [Job]
        public var combined: URL
        /// The HTML holding every part, converted instead when the pages cannot be combined.
        public var combinedHTML: URL
    }

    /// Makes every book's PDFs, the books side by side in processes of their own (WeasyPrint's
    /// layout is most of the time, and it uses one core).
    public func make(_ books: [Book]) throws(SheetError) {
        let python = interpreter()
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: books.count) { index in
            if let failure = make(books[index], python: python) { failures.add(failure) }
        }
        if let failure = failures.first { throw .internalFailure(failure) }
    }

    /// One book through the Python API, or file by file through the command; a failure in words.
    private func make(_ book: Book, python: [String]?) -> String? {
        if let python, runAPI(python, book) { return nil }
        for job in book.parts + [Job(html: book.combinedHTML, pdf: book.combined)] {
            let result = run(executable, ["--quiet", job.html.path, job.pdf.path])
            guard result.status == 0 else {
                return "weasyprint could not convert \(job.html.lastPathComponent): \(result.errors.prefix(1500))"
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

    private func runAPI(_ python: [String], _ book: Book) -> Bool {
        let request: [String: Any] = [
            "documents": book.parts.map { ["html": $0.html.path, "pdf": $0.pdf.path] },
            "combined": book.combined.path,
        ]
        guard let input = try? JSONSerialization.data(withJSONObject: request) else { return false }
        let result = run(URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + ["-c", Self.script], input: input)
        return result.status == 0
    }

    /// Renders each document once and writes it, then writes the combination from the rendered
    /// pages (WeasyPrint's documented way to join documents).
    static let script = """
        import json, sys
        import weasyprint
        request = json.load(sys.stdin)
        rendered = []
        for job in request["documents"]:
            document = weasyprint.HTML(filename=job["html"]).render()
            document.write_pdf(job["pdf"])
            rendered.append(document)
        pages = [page for document in rendered for page in document.pages]
        rendered[0].copy(pages).write_pdf(request["combined"])
        """

    /// The first failure of books made side by side.
    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []

        func add(_ message: String) { lock.withLock { messages.append(message) } }
        var first: String? { lock.withLock { messages.first } }
    }

    private struct Result {
        var status: Int32
        var errors: String
    }

    private func run(_ executable: URL, _ arguments: [String], input: Data = Data()) -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // fontTools, which subsets the fonts WeasyPrint embeds, stamps each subset with the time
        // unless SOURCE_DATE_EPOCH (reproducible-builds.org) is set: without it no two PDFs of
        // the same sheet would be the same bytes.
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = environment["SOURCE_DATE_EPOCH"] ?? "0"
        process.environment = environment
        let stdin = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            return Result(status: -1, errors: "\(error)")
        }
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, errors: String(decoding: errors, as: UTF8.self))
    }
}
