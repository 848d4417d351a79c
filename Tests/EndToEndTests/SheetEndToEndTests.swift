import Foundation
import Testing

@Suite struct SheetEndToEndTests {
    static let ids = "serial-sync-in-async,concurrent-async-async,barrier-purpose,async-operation-super-start"

    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test func theSameSeedWritesTheSameFiles() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var runs: [[String: Data]] = []
        for name in ["first", "second"] {
            let output = folder.appendingPathComponent(name)
            let result = try Binary.run(["sheet", "--ids", Self.ids, "--variants", "3", "--seed", "11", "--trace-as", "select",
                                         "--title", "Week 3", "--output", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("3 variants of 4 questions, seed 11"))
            runs.append(try Self.files(in: output))
        }
        #expect(runs[0].keys.sorted() == ["key-1.html", "key-2.html", "key-3.html", "keys.html", "notes.html", "sheet-1.html", "sheet-2.html", "sheet-3.html", "sheet-plan.json", "sheets.html"])
        #expect(runs[0] == runs[1])
        let sheet = String(decoding: runs[0]["sheet-2.html"] ?? Data(), as: UTF8.self)
        #expect(sheet.contains("Week 3") && sheet.contains("Variant 2 of 3 · seed 11"))
    }

    /// The key's outcomes are exactly what `solve --json` computes.
    @Test func theKeysOutcomesAreSolves() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let puzzles = ["serial-async-async", "concurrent-sync-in-async", "main-sync-from-main-thread"]
        let result = try Binary.run(["sheet", "--ids", puzzles.joined(separator: ","), "--format", "md", "--seed", "1", "--output", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let sections = try Self.keySections(folder.appendingPathComponent("key-1.md"))
        #expect(sections.count == puzzles.count)
        for (id, section) in zip(puzzles, sections) {
            #expect(Self.keyOutcomes(section) == (try Self.solvedOutcomes(id)), "\(id)")
        }
    }

    /// `--generated`: the same seed writes the same files, every variant asks its own code for each
    /// trace puzzle, and each key lists what `solve` computes for that variant's code.
    @Test func generatedVariantsHaveKeysThatAreSolves() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let puzzles = "group-misses-nested-async,concurrent-sync-in-async"
        var runs: [[String: Data]] = []
        for name in ["first", "second"] {
            let output = folder.appendingPathComponent(name)
            let result = try Binary.run(["sheet", "--generated", "--ids", puzzles, "--variants", "3", "--format", "md", "--seed", "4",
                                         "--output", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            runs.append(try Self.files(in: output))
        }
        #expect(runs[0] == runs[1])
        var codes: Set<String> = []
        let shared = try Self.keySections(folder.appendingPathComponent("first/notes.md"))
        #expect(shared.isEmpty, "a twin's note is in the shared notes")
        for variant in 1...3 {
            let key = try String(contentsOf: folder.appendingPathComponent("first/key-\(variant).md"), encoding: .utf8)
            let parts = key.components(separatedBy: "**Notes on the questions only this variant asks**")
            #expect(parts.count == 2, "variant \(variant)'s key has no notes of its own")
            let sections = Self.sections(parts[0])
            let notes = Self.sections(parts.last ?? "")
            #expect(sections.count == 2 && notes.count == 2)
            for section in sections {
                let noteNumber = try #require(Self.noteNumber(section))
                let note = try #require(notes.first { $0.hasPrefix("\(noteNumber). ") })
                let code = Self.code(note)
                codes.insert(code)
                let file = folder.appendingPathComponent("variant-\(variant)-\(codes.count).swift")
                try code.write(to: file, atomically: true, encoding: .utf8)
                let solved = try Self.solvedOutcomes(file.path)
                #expect(Self.keyOutcomes(section) == solved, "variant \(variant): \(code)")
                #expect(Self.keyOutcomes(note) == solved, "variant \(variant)'s note: \(code)")
            }
        }
        #expect(codes.count == 6, "two variants ask the same code")
    }

    /// The note a key section names ("· note 3" in its heading).
    static func noteNumber(_ section: String) -> Int? {
        let heading = section.prefix { $0 != "\n" }
        return heading.components(separatedBy: " · note ").last.flatMap { Int($0.components(separatedBy: " ")[0]) }
    }

    /// A key's sections, one per question.
    static func keySections(_ key: URL) throws -> [String] {
        sections(try String(contentsOf: key, encoding: .utf8))
    }

    /// A Markdown text's sections, each from its `## ` heading on.
    static func sections(_ text: String) -> [String] {
        Array(text.components(separatedBy: "\n## ").dropFirst())
    }

    /// The snippet a key section shows, without its line numbers.
    static func code(_ section: String) -> String {
        let block = section.components(separatedBy: "```\n")[1]
        return block.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { line in line.components(separatedBy: " │ ").dropFirst().joined(separator: " │ ") }
            .joined(separator: "\n") + "\n"
    }

    /// The outcomes a key section or a note lists, as "lines ending".
    static func keyOutcomes(_ section: String) -> Set<String> {
        let listed = section.components(separatedBy: "**Every possible outcome")[1].components(separatedBy: "\n\n**")[0]
        return Set(listed.split(separator: "\n").filter { $0.hasPrefix("- `") }.map { line in
            let parts = line.split(separator: "`")
            let ending = parts[2].split(separator: "*")[1]
            return String(parts[1]) + " " + ending
        })
    }

    /// What `solve --json` computes for a puzzle id or a snippet file, as "lines ending".
    static func solvedOutcomes(_ puzzle: String) throws -> Set<String> {
        let solved = try Binary.run(["solve", puzzle, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(solved.stdout.utf8)) as? [String: Any]
        return Set(((object?["outcomes"] as? [[String: Any]]) ?? []).map { outcome in
            let lines = (outcome["lines"] as? [String]) ?? []
            return (lines.isEmpty ? "(nothing)" : lines.joined(separator: " ")) + " " + ((outcome["end"] as? String) ?? "")
        })
    }

    @Test func badInputSaysWhatIsWrongAndWritesNothing() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out")
        let file = folder.appendingPathComponent("file.txt")
        try Data().write(to: file)
        let cases: [([String], String)] = [
            (["sheet", "--tag", "async-operations", "--kind", "trace", "--output", output.path], "no question matches"),
            (["sheet", "--tag", "no-such-topic", "--output", output.path], "no topic 'no-such-topic'"),
            (["sheet", "--tag", "serial-queues", "--count", "999", "--output", output.path], "--count 999 asks for more questions than match"),
            (["sheet", "--ids", "serial-async-async,nope", "--output", output.path], "no question with id 'nope'"),
            (["sheet", "--ids", "serial-async-async", "--output", file.appendingPathComponent("sub").path], "cannot create"),
            (["sheet", "--ids", "serial-async-async", "--output", file.path], "is a file, not a folder"),
            (["sheet", "--format", "docx", "--output", output.path], "docx"),
            (["export", "--format", "pdf"], "pdf"),
            (["sheet", "--count", "-1", "--output", output.path], "--count must be at least 1"),
            (["sheet", "--ids", "serial-async-async,serial-async-async", "--output", output.path], "named twice"),
            (["sheet", "--variants", "3", "--roster", file.path, "--output", output.path], "no students"),
            (["export", "--format", "gift", "--output", folder.path], "is a folder"),
        ]
        for (arguments, message) in cases {
            let result = try Binary.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.status)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.txt"], "something was left behind")
    }

    /// Asked for PDFs without WeasyPrint, a run writes nothing and says how to install it (exit 1).
    @Test func withoutWeasyPrintPDFSaysHowToInstallItAndWritesNothing() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out")
        let result = try Binary.run(["sheet", "--ids", "serial-async-async", "--format", "pdf", "--seed", "1", "--output", output.path],
                                    environment: ["PATH": "/nonexistent"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("apt-get install weasyprint") && result.stderr.contains("--format html"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// `export --output` creates the folders on the way, as `sheet --output` does.
    @Test func exportCreatesTheFoldersOnTheWay() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("no/such/dir/x.gift")
        let result = try Binary.run(["export", "--format", "gift", "--ids", "serial-async-async", "--output", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("$CATEGORY: gcdquiz"))
    }

    /// Ctrl-C (SIGINT), SIGTERM or SIGHUP while PDFs are made: the staging folder goes with the
    /// process, and so do its WeasyPrint processes; nothing is left in the output's folder.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/weasyprint"), "WeasyPrint is not installed here"),
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func anInterruptedPDFRunLeavesNothingBehind(_ signalNumber: Int32) throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out")
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["sheet", "--count", "6", "--variants", "8", "--seed", "2", "--format", "pdf", "--output", output.path]
        process.currentDirectoryURL = Binary.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (up to a minute) until the staging folder is there, then interrupt.
        let staging = { (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.first { $0.hasPrefix(".gcdquiz-staging-") } }
        for _ in 0..<600 where staging() == nil && process.isRunning { usleep(100_000) }
        #expect(staging() != nil, "no staging folder appeared")
        usleep(300_000)
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signalNumber)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func exportWritesAFileOrStandardOutput() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bank.xml")
        let written = try Binary.run(["export", "--format", "moodle", "--tag", "serial-queues", "--output", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>"))
        let anki = try Binary.run(["export", "--format", "anki", "--ids", "serial-async-async"])
        #expect(anki.status == 0)
        #expect(anki.stdout.hasPrefix("#separator:tab\n#html:true\n"))
        #expect(anki.stdout.contains("gcdquiz-serial-async-async\t"))
    }
}
