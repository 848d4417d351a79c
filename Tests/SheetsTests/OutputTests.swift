import Foundation
import Quiz
import Testing
@testable import Sheets

@Suite struct OutputTests {
    @Test func filesAppearAllAtOnceOrNotAtAll() throws {
        let parent = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("out")
        let output = try StagedOutput(target: target)
        try output.write(OutputFile(name: "a.html", contents: Data("a".utf8)))
        #expect(!FileManager.default.fileExists(atPath: target.path), "the folder appears before the files are complete")
        output.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)

        let second = try StagedOutput(target: target)
        try second.write(OutputFile(name: "a.html", contents: Data("a".utf8)))
        try second.write(OutputFile(name: "scratch.tmp", contents: Data()))
        try second.commit(["a.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["a.html"])

        // Into an existing folder: files of the same name are replaced, others stay.
        try Data("keep".utf8).write(to: target.appendingPathComponent("notes.txt"))
        let third = try StagedOutput(target: target)
        try third.write(OutputFile(name: "a.html", contents: Data("b".utf8)))
        try third.commit(["a.html"])
        #expect(try String(contentsOf: target.appendingPathComponent("a.html"), encoding: .utf8) == "b")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == ["a.html", "notes.txt"])
    }

    @Test func anOutputThatCannotBeWrittenIsBadInput() throws {
        let parent = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let file = parent.appendingPathComponent("file.txt")
        try Data().write(to: file)
        for target in [file, file.appendingPathComponent("sub"), file.appendingPathComponent("sub/deeper")] {
            do {
                _ = try StagedOutput(target: target)
                Issue.record("\(target.path) was accepted")
            } catch {
                #expect(error.cause == .badInput)
            }
        }
        #expect(throws: SheetError.self) { try AtomicFile.write(Data(), to: parent) }
        #expect(throws: SheetError.self) { try AtomicFile.write(Data(), to: file.appendingPathComponent("x.gift")) }
    }

    /// Folders on the way to the output are created, as `mkdir -p` would, for sheets and exports alike.
    @Test func missingFoldersOnTheWayAreCreated() throws {
        let parent = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("a/b/out")
        let output = try StagedOutput(target: target)
        try output.write(OutputFile(name: "x.html", contents: Data("x".utf8)))
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("a").path), "a folder appeared before the files were complete")
        try output.commit(["x.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["x.html"])
        try AtomicFile.write(Data("g".utf8), to: parent.appendingPathComponent("c/d/x.gift"))
        #expect(try String(contentsOf: parent.appendingPathComponent("c/d/x.gift"), encoding: .utf8) == "g")
    }

    /// A staging folder whose process is gone (killed before it could clean up) is removed by the
    /// next run writing there; one of a live process is left alone.
    @Test func abandonedStagingFoldersAreRemoved() throws {
        let parent = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        // A process id no process has: beyond the kernel's largest.
        let dead = parent.appendingPathComponent(".gcdquiz-staging-4194999-deadbeef")
        let alive = parent.appendingPathComponent(".gcdquiz-staging-1-cafef00d")
        for folder in [dead, alive] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Data(count: 10).write(to: folder.appendingPathComponent("sheet-1.html"))
        }
        let output = try StagedOutput(target: parent.appendingPathComponent("out"))
        output.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == [alive.lastPathComponent])
    }

    /// Files an earlier, larger run left (sheet-11… of 30) stop a run into the same folder, which
    /// names them; `--force` removes them; other files are left alone.
    @Test func filesOfAnEarlierRunAreNamedOrRemoved() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try Fixtures.sheet(["serial-sync-in-async"], variants: 2)
        for name in ["sheet-3.html", "key-3.html", "sheet-3.pdf", "roster-map.csv", "mine.html", "sheet-x.html"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        do {
            _ = try SheetWriter.write(sheet, options: .init(format: .html, paper: .a4), to: folder, pdfMaker: nil)
            Issue.record("the earlier run's files were not noticed")
        } catch {
            #expect(error.cause == .badInput)
            #expect(error.message.contains("key-3.html, roster-map.csv, sheet-3.html"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("sheet-1.html").path))
        let written = try SheetWriter.write(sheet, options: .init(format: .html, paper: .a4, removeEarlierFiles: true), to: folder, pdfMaker: nil)
        #expect(written.removed == ["key-3.html", "roster-map.csv", "sheet-3.html"])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.contains("sheet-3.pdf") && left.contains("mine.html") && left.contains("sheet-x.html") && !left.contains("sheet-3.html"))
    }

    /// With WeasyPrint, `--format pdf` makes PDFs whose text holds the questions; every
    /// variant's pages say "Page n of m" of their own; the same sheet gives the same bytes.
    @Test(.enabled(if: PDFMaker.find() != nil, "WeasyPrint is not installed here (make deps installs it; CI has it)"))
    func pdfsHoldTheQuestions() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("pdf")
        let sheet = try Fixtures.sheet(["serial-sync-in-async", "barrier-purpose"], variants: 2)
        let written = try SheetWriter.write(sheet, options: .init(format: .pdf, paper: .a4), to: target, pdfMaker: PDFMaker.find())
        #expect(written.files.map(\.lastPathComponent) == ["sheet-1.pdf", "key-1.pdf", "sheet-2.pdf", "key-2.pdf", "sheets.pdf", "keys.pdf", "notes.pdf", "sheet-plan.json"])
        let sheetText = try Self.pdfText(target.appendingPathComponent("sheet-1.pdf"))
        #expect(sheetText.contains("sync inside async on the same serial queue"))
        #expect(sheetText.contains("What a barrier block does"))
        #expect(sheetText.contains("Variant 1 of 2 · seed 42"))
        #expect(sheetText.contains("Page 1 of"))
        let keyText = try Self.pdfText(target.appendingPathComponent("key-2.pdf"))
        #expect(keyText.contains("Every possible outcome (3)"))
        let notesText = try Self.pdfText(target.appendingPathComponent("notes.pdf"))
        #expect(notesText.contains("What a barrier block does") && notesText.contains("All 2 variants · seed 42"))
        let all = try Self.pdfText(target.appendingPathComponent("sheets.pdf"))
        #expect(all.contains("Variant 2 of 2"))
        #expect(all.components(separatedBy: "Page 1 of").count == 3, "each variant numbers its own pages")

        if let qpdf = PDFMaker.find()?.splitter {
            // Put together by qpdf, the book keeps WeasyPrint's bookmarks: a heading per key and
            // for the notes, a question under each.
            let outline = try Self.outline(target.appendingPathComponent("keys.pdf"), qpdf: qpdf)
            #expect(outline.map(\.title) == ["Key to variant 1", "Key to variant 2", "Answer notes"])
            #expect(outline.map(\.children) == [2, 2, 2])
        }

        let again = folder.appendingPathComponent("again")
        _ = try SheetWriter.write(sheet, options: .init(format: .pdf, paper: .a4), to: again, pdfMaker: PDFMaker.find())
        for file in written.files where file.pathExtension == "pdf" {
            let same = try Data(contentsOf: file) == Data(contentsOf: again.appendingPathComponent(file.lastPathComponent))
            #expect(same, "\(file.lastPathComponent) differs from one run to the next")
        }
    }

    /// Cut from the books by qpdf or written one by one by WeasyPrint, every part is the pages of
    /// its own variant, numbered "Page n of m" of that variant, and the books hold every part's
    /// pages in order.
    @Test(.enabled(if: PDFMaker.find() != nil, "WeasyPrint is not installed here (make deps installs it; CI has it)"))
    func partsAreTheirVariantsPagesWithOrWithoutQPDF() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try Fixtures.sheet(Fixtures.mixedIDs, variants: 3)
        guard let found = PDFMaker.find() else { return }
        var makers = [("without qpdf", PDFMaker(executable: found.executable, splitter: nil))]
        if found.splitter != nil { makers.append(("with qpdf", found)) }
        var texts: [[String]] = []
        for (name, maker) in makers {
            let target = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-"))
            let written = try SheetWriter.write(sheet, options: .init(format: .pdf, paper: .letter), to: target, pdfMaker: maker)
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == written.files.map(\.lastPathComponent).sorted(),
                    "\(name): scratch files were left behind")
            var pagesOfParts: [String: [String]] = [:]
            let pdfs = written.files.filter { $0.pathExtension == "pdf" }
            for file in pdfs {
                let pages = try Self.pdfText(file).split(separator: "\u{0C}", omittingEmptySubsequences: true).map(String.init)
                    .filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
                pagesOfParts[file.deletingPathExtension().lastPathComponent] = pages
            }
            for variant in sheet.variants {
                for part in ["sheet", "key"] {
                    let pages = pagesOfParts["\(part)-\(variant.id)"] ?? []
                    #expect(!pages.isEmpty, "\(name): \(part)-\(variant.id) has no pages")
                    for (index, page) in pages.enumerated() {
                        #expect(page.contains("Page \(index + 1) of \(pages.count)"), "\(name): \(part)-\(variant.id) page \(index + 1)")
                        #expect(page.contains("Variant \(variant.id) of 3"), "\(name): \(part)-\(variant.id) page \(index + 1)")
                    }
                }
            }
            #expect(pagesOfParts["sheets"] == sheet.variants.flatMap { pagesOfParts["sheet-\($0.id)"] ?? [] }, "\(name)")
            let notes = pagesOfParts["notes"] ?? []
            #expect(!notes.isEmpty, "\(name): the notes have no pages")
            for (index, page) in notes.enumerated() {
                #expect(page.contains("Page \(index + 1) of \(notes.count)") && page.contains("All 3 variants"), "\(name): notes page \(index + 1)")
            }
            #expect(pagesOfParts["keys"] == sheet.variants.flatMap { pagesOfParts["key-\($0.id)"] ?? [] } + notes, "\(name)")
            texts.append(pdfs.map { pagesOfParts[$0.deletingPathExtension().lastPathComponent]?.joined() ?? "" })
            // Each PDF has its HTML's title, whoever put it together.
            let titles = SheetRenderer.titles(sheet)
            let htmls = Dictionary(uniqueKeysWithValues: SheetRenderer(format: .html, paper: .letter).render(sheet).map { file in
                (file.name.replacingOccurrences(of: ".html", with: ""), Fixtures.text(file))
            })
            for file in pdfs {
                let name = file.deletingPathExtension().lastPathComponent
                let title = try #require(titles[name], "\(name)")
                let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;")
                #expect(htmls[name]?.contains("<title>\(escaped)</title>") == true, "\(name)")
                #expect(try Self.pdfTitle(file) == title, "\(name)")
            }
        }
        #expect(Set(texts).count == 1, "qpdf changed what the pages say")
    }

    /// Chinese text a snippet prints reaches the PDF in the Noto CJK font the style sheet names
    /// (`make deps` installs Debian's fonts-noto-cjk), instead of vanishing.
    @Test(.enabled(if: PDFMaker.find() != nil, "WeasyPrint is not installed here (make deps installs it; CI has it)"))
    func chineseTextIsInThePDF() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var question = Question(id: "chinese", kind: .trace, title: "打印中文：你好", level: 1, tags: ["serial-queues"], source: "tests",
                                explanation: "先打印「你好」，再打印「世界」。", code: "serialQueue.async {\n    print(\"世界\")\n}\nprint(\"你好\")\n", file: "chinese.yaml")
        question.prompt = nil
        let sheet = try SheetPlanner(title: "中文测验 Chinese quiz", seed: 1, variantCount: 1, traceForm: .select)
            .plan([question], answers: AnswerBook(bank: nil))
        let target = folder.appendingPathComponent("pdf")
        _ = try SheetWriter.write(sheet, options: .init(format: .pdf, paper: .a4), to: target, pdfMaker: PDFMaker.find())
        let text = try Self.pdfText(target.appendingPathComponent("sheet-1.pdf"))
        #expect(text.contains("中文测验") && text.contains("打印中文") && text.contains("你好") && text.contains("世界"))
        let keyText = try Self.pdfText(target.appendingPathComponent("notes.pdf"))
        #expect(keyText.contains("先打印"))
        let fonts = Process()
        fonts.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        fonts.arguments = ["pdffonts", target.appendingPathComponent("sheet-1.pdf").path]
        let pipe = Pipe()
        fonts.standardOutput = pipe
        try fonts.run()
        let list = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        fonts.waitUntilExit()
        #expect(list.contains("CJK"), "no CJK font embedded: \(list)")
    }

    /// Printed on both sides, every variant takes an even number of pages in the books, and
    /// each top-level bookmark names its variant.
    @Test(.enabled(if: PDFMaker.find()?.splitter != nil, "WeasyPrint and qpdf are not installed here (make deps installs them)"))
    func booksPadEachVariantToEvenPages() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try Fixtures.sheet(Fixtures.mixedIDs, variants: 3)
        let maker = try #require(PDFMaker.find())
        for duplex in [true, false] {
            let target = folder.appendingPathComponent(duplex ? "duplex" : "simplex")
            _ = try SheetWriter.write(sheet, options: .init(format: .pdf, paper: .a4, duplex: duplex), to: target, pdfMaker: maker)
            let pages = { (name: String) in try Self.pageCount(target.appendingPathComponent(name)) }
            let own = try sheet.variants.map { try pages("sheet-\($0.id).pdf") }
            let padded = own.map { duplex ? ($0 + 1) / 2 * 2 : $0 }.reduce(0, +)
            #expect(try pages("sheets.pdf") == padded, "\(duplex): \(own)")
            let outline = try Self.outline(target.appendingPathComponent("sheets.pdf"), qpdf: try #require(maker.splitter))
            #expect(outline.map(\.title) == ["Variant 1", "Variant 2", "Variant 3"])
        }
    }

    static func pageCount(_ pdf: URL) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pdfinfo", pdf.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    @Test func documentsAreCutInRunsOfAboutTheSameSize() {
        #expect(PDFMaker.balancedRuns([1, 1, 1, 1], count: 2) == [0..<2, 2..<4])
        #expect(PDFMaker.balancedRuns([10, 1, 1], count: 2) == [0..<1, 1..<3])
        #expect(PDFMaker.balancedRuns([1, 1, 10], count: 2) == [0..<2, 2..<3])
        #expect(PDFMaker.balancedRuns([1, 1, 10], count: 3) == [0..<1, 1..<2, 2..<3])
        #expect(PDFMaker.balancedRuns([5, 5], count: 4) == [0..<1, 1..<2], "more runs than documents")
        #expect(PDFMaker.balancedRuns([3, 3, 3, 3, 3, 3, 3, 3], count: 4) == [0..<2, 2..<4, 4..<6, 6..<8])
        #expect(PDFMaker.balancedRuns([7], count: 4) == [0..<1])
        #expect(PDFMaker.balancedRuns([], count: 4) == [])
        for count in 1...6 {
            let sizes = (0..<13).map { ($0 * 7) % 5 + 1 }
            let runs = PDFMaker.balancedRuns(sizes, count: count)
            #expect(runs.count == count && runs.allSatisfy { !$0.isEmpty })
            #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == sizes.count)
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        }
        #expect(PDFMaker.pageRanges([6, 5, 7]) == [1...6, 7...11, 12...18])
    }

    /// The top of a PDF's outline: each bookmark's title and how many bookmarks are right under it.
    static func outline(_ pdf: URL, qpdf: URL) throws -> [(title: String, children: Int)] {
        let process = Process()
        process.executableURL = qpdf
        process.arguments = ["--json=2", "--json-key=outlines", pdf.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((json?["outlines"] as? [[String: Any]]) ?? []).map { item in
            ((item["title"] as? String) ?? "", (item["kids"] as? [Any])?.count ?? 0)
        }
    }

    /// The document title `pdfinfo` reads, if any.
    static func pdfTitle(_ pdf: URL) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pdfinfo", "-enc", "UTF-8", pdf.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(separator: "\n").first { $0.hasPrefix("Title:") }.map { $0.dropFirst("Title:".count).trimmingCharacters(in: .whitespaces) }
    }

    static func pdfText(_ pdf: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pdftotext", "-layout", pdf.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "pdftotext failed (poppler-utils: make deps installs it)")
        return String(decoding: data, as: UTF8.self)
    }
}
