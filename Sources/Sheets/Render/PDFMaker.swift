import Foundation

/// Makes PDFs from the sheet's HTML with WeasyPrint (Debian's `weasyprint`), which implements the
/// CSS paged media the style sheet uses (running header and footer, page counters).
///
/// All documents are rendered in one WeasyPrint process through its Python API (its start-up
/// costs about as much as rendering a variant), and the all-variants PDFs are put together from
/// the per-variant pages, so that every variant's pages say "Page n of m" of its own. Should the
/// API not be importable, each HTML file is converted by the `weasyprint` command instead.
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

    /// One PDF made of the pages of others, in order.
    public struct Combination: Sendable {
        public var pdf: URL
        public var parts: [URL]
        /// The HTML holding every part, converted instead when the pages cannot be combined.
        public var html: URL
    }

    public func make(_ jobs: [Job], combining combinations: [Combination]) throws(SheetError) {
        if let python = interpreter(), (try? runAPI(python, jobs, combinations)) == true {
            return
        }
        for job in jobs + combinations.map({ Job(html: $0.html, pdf: $0.pdf) }) {
            let result = run(executable, ["--quiet", job.html.path, job.pdf.path])
            guard result.status == 0 else {
                throw .internalFailure("weasyprint could not convert \(job.html.lastPathComponent): \(result.errors.prefix(1500))")
            }
        }
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

    private func runAPI(_ python: [String], _ jobs: [Job], _ combinations: [Combination]) throws -> Bool {
        let request: [String: Any] = [
            "documents": jobs.map { ["html": $0.html.path, "pdf": $0.pdf.path] },
            "combined": combinations.map { ["pdf": $0.pdf.path, "parts": $0.parts.map(\.path)] },
        ]
        let input = try JSONSerialization.data(withJSONObject: request)
        let result = run(URL(fileURLWithPath: python[0]), Array(python.dropFirst()) + ["-c", Self.script], input: input)
        return result.status == 0
    }

    /// Renders each document once, writes it, then writes each combination from the rendered
    /// pages (WeasyPrint's documented way to join documents).
    static let script = """
        import json, sys
        import weasyprint
        request = json.load(sys.stdin)
        rendered = {}
        for job in request["documents"]:
            document = weasyprint.HTML(filename=job["html"]).render()
            document.write_pdf(job["pdf"])
            rendered[job["pdf"]] = document
        for combined in request["combined"]:
            parts = [rendered[part] for part in combined["parts"]]
            pages = [page for part in parts for page in part.pages]
            parts[0].copy(pages).write_pdf(combined["pdf"])
        """

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
