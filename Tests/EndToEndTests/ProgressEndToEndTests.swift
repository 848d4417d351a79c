import Foundation
import Progress
import Quiz
import Testing

/// The progress database through the binary: concurrent writers, a killed writer, a damaged file,
/// the report after a known history, and export → import.
@Suite struct ProgressEndToEndTests {
    /// Two processes recording at once both record everything (WAL and a busy timeout).
    @Test func twoWritersAtOnceBothRecordEverything() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("progress.sqlite").path
        // Both at once; each answer is its own transaction, so their commits interleave.
        DispatchQueue.concurrentPerform(iterations: 2) { number in
            let result = try? Binary.run(["record-answers", "--progress", database, "--count", "150", "--question", "writer-\(number)"])
            #expect(result?.status == 0, "\(result?.stderr ?? "")")
        }
        let reviews = try exported(database, in: folder)
        #expect(reviews.count == 300)
        #expect(reviews.filter { $0.questionID == "writer-0" }.count == 150)
        #expect(reviews.filter { $0.questionID == "writer-1" }.count == 150)
    }

    /// Sessions that create the database at the same moment: none mistakes the file another is
    /// creating for a foreign or damaged one, and every answer is kept.
    @Test func sessionsCreatingTheDatabaseAtOnceAllRecord() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("progress.sqlite").path
        let errorFile = folder.appendingPathComponent("stderr")
        #expect(FileManager.default.createFile(atPath: errorFile.path, contents: nil))
        let errorOutput = try FileHandle(forWritingTo: errorFile)
        let sessions = try (0..<5).map { number in
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["record-answers", "--progress", database, "--count", "4", "--question", "w\(number)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errorOutput
            return process
        }
        // Started one after another without waiting: they open the new file together.
        for session in sessions { try session.run() }
        for session in sessions { session.waitUntilExit() }
        try errorOutput.close()
        let errors = try String(contentsOf: errorFile, encoding: .utf8)
        #expect(errors.isEmpty, "\(errors)")
        #expect(try exported(database, in: folder).count == 20)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains("set-aside") })
    }

    /// Each answer is committed when recorded: SIGKILL after two answers keeps both.
    @Test func aKilledWriterKeepsEveryAnswerItRecorded() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("progress.sqlite").path
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["record-answers", "--progress", database, "--count", "1000", "--pause", "300"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed = ""
        while !printed.contains("recorded 2\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let reviews = try exported(database, in: folder)
        #expect(printed.contains("recorded 2\n"))
        #expect(reviews.count >= 2)
    }

    @Test func aDamagedDatabaseIsSetAsideAndReported() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("progress.sqlite")
        try Data("not a database at all\n".utf8).write(to: database)
        let result = try Binary.run(["record-answers", "--count", "1"], environment: ["GCDQUIZ_PROGRESS": database.path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("is not an SQLite database; it was moved to \(database.path).set-aside-"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("progress.sqlite.set-aside-") }
        #expect(aside.count == 1)
        #expect(try exported(database.path, in: folder).count == 1)
    }

    /// The report reads the bank through its index cache: a question edited since it was
    /// answered is a new card (unseen), even when its file keeps its size and modification time
    /// and the cache holds the old wording.
    @Test func anEditedQuestionIsNewInTheReportDespiteTheCachedBankIndex() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bank = folder.appendingPathComponent("Questions")
        try FileManager.default.createDirectory(at: bank, withIntermediateDirectories: true)
        for name in ["serial-async-async", "serial-sync-in-async"] {
            try FileManager.default.copyItem(at: Binary.packageRoot.appendingPathComponent("Questions/serial-queue/\(name).yaml"),
                                             to: bank.appendingPathComponent("\(name).yaml"))
        }
        let questions = BankLoader.load(paths: [bank.path]).questions
        #expect(questions.count == 2)
        let log = questions.map { Review(of: $0, grade: .exact, answer: "1", seconds: 9, mode: .drill, at: Date().addingTimeInterval(-86_400)) }
        let file = folder.appendingPathComponent("history.csv")
        try LogExchange.export(log, as: .csv).write(to: file)
        let database = folder.appendingPathComponent("p.sqlite").path
        let cache = folder.appendingPathComponent("cache").path
        #expect(try Binary.run(["progress", "--progress", database, "--import", file.path]).status == 0)
        // A file changed in the last two seconds is not cached (its time stamps could hide a
        // second change): let the copies settle, so that the index is really read from the cache.
        Thread.sleep(forTimeInterval: 2.5)
        func report() throws -> ProgressReport {
            let result = try Binary.run(["progress", "--progress", database, "--bank", bank.path, "--json"], environment: ["XDG_CACHE_HOME": cache])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONDecoder().decode(ProgressReport.self, from: Data(result.stdout.utf8))
        }
        #expect(try report().questionsSeen == 2)
        #expect(try report().questionsSeen == 2)
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache + "/gcdquiz")
        #expect(cached.count == 1 && cached[0].hasPrefix("bank-index-"))

        let edited = bank.appendingPathComponent("serial-async-async.yaml")
        let modified = try FileManager.default.attributesOfItem(atPath: edited.path)[.modificationDate]
        let text = try String(contentsOf: edited, encoding: .utf8)
        try text.replacingOccurrences(of: "print(1)", with: "print(7)").write(to: edited, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: modified!], ofItemAtPath: edited.path)
        let after = try report()
        #expect(after.questionsSeen == 1)
        #expect(after.questionsTotal == 2)
    }

    /// `progress --json` after a known history, imported from a CSV made of bank questions.
    @Test func progressJSONAfterAKnownHistory() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bank = BankLoader.load(paths: [Binary.packageRoot.appendingPathComponent("Questions").path])
        let serial = try #require(bank.question(id: "serial-async-async"))
        let deadlock = try #require(bank.question(id: "serial-sync-in-async"))
        let now = Date()
        let log = [
            Review(of: serial, grade: .exact, answer: "1 2 3 4", seconds: 20, mode: .drill, at: now.addingTimeInterval(-3 * 86_400)),
            Review(of: deadlock, grade: .wrong, answer: "1 2 3", seconds: 40, mode: .drill, at: now.addingTimeInterval(-3600)),
        ]
        let file = folder.appendingPathComponent("history.csv")
        try LogExchange.export(log, as: .csv).write(to: file)
        let database = folder.appendingPathComponent("p.sqlite").path
        let imported = try Binary.run(["progress", "--progress", database, "--import", file.path])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains("imported 2 new answer(s) of 2"))

        let result = try Binary.run(["progress", "--progress", database, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ProgressReport.self, from: Data(result.stdout.utf8))
        #expect(report.answered == 2)
        #expect(report.questionsSeen == 2)
        #expect(report.questionsTotal == bank.questions.count)
        #expect(report.missed == 1)
        #expect(report.dueNow == 2)
        #expect(report.accuracy30Days == 0.5)
        let deadlocks = try #require(report.topics.first { $0.topic == "deadlocks" })
        #expect(deadlocks.seen == 1)
        #expect(deadlocks.accuracy30Days == 0)
        #expect(deadlocks.due == 1)
        #expect(deadlocks.command == "gcdquiz drill --tag deadlocks")
        let serialQueues = try #require(report.topics.first { $0.topic == "serial-queues" })
        #expect(serialQueues.seen == 2)
        #expect(serialQueues.accuracy30Days == 0.5)
        // The topics studied first, then those not studied yet.
        let studied = report.topics.prefix { $0.seen > 0 }
        #expect(studied.contains { $0.topic == "deadlocks" } && studied.contains { $0.topic == "serial-queues" })
        #expect(report.topics.dropFirst(studied.count).allSatisfy { $0.seen == 0 })
    }

    /// Opening the store a second time in one process must not cost the first connection its
    /// locks (reading the file with anything but SQLite does, when it closes its descriptor):
    /// another process closing its connection would then checkpoint and delete the WAL under the
    /// first, whose next read misses answers or finds the file "malformed" (as
    /// `benchmark-progress --keep` did).
    @Test func aSecondOpeningInOneProcessLeavesTheFirstConnectionSound() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("progress.sqlite").path
        let store = try #require(ProgressStore.open(at: path).store)
        let question = Question(id: "a", kind: .trace, title: "a", level: 1, tags: ["serial-queues"], source: "test", explanation: "x",
                                code: "print(1)", file: "a.yaml")
        for number in 0..<50 {
            try store.record(Review(of: question, grade: .exact, answer: "1", seconds: 1, mode: .drill, at: Date(timeIntervalSince1970: Double(number))))
        }
        #expect(ProgressStore.open(at: path).store != nil)
        let other = try Binary.run(["record-answers", "--progress", path, "--count", "3"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try store.count() == 53)
        #expect(try store.reviews().count == 53)
    }

    /// `progress` is parsed by its own command for speed; help and errors still read as the root's.
    @Test func progressParsedAloneKeepsTheRootsHelpAndErrors() throws {
        let help = try Binary.run(["progress", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: gcdquiz progress"))
        let both = try Binary.run(["progress", "--json", "--html", "r.html"])
        #expect(both.status == 1)
        #expect(both.stderr.contains("choose one of --json, --html, --export and --import"))
        #expect(both.stderr.contains("Usage: gcdquiz progress"))
        let unknown = try Binary.run(["progress", "--bogus"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("Error: Unknown option '--bogus'"))
    }

    /// Export, import into an empty database, export again: the same file; importing twice adds nothing.
    @Test func exportImportRoundTripThroughTheBinary() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.sqlite").path
        #expect(try Binary.run(["record-answers", "--progress", first, "--count", "5"]).status == 0)
        for format in ["csv", "json"] {
            let exported = folder.appendingPathComponent("log.\(format)").path
            #expect(try Binary.run(["progress", "--progress", first, "--export", exported]).stdout.contains("exported 5 answer(s)"))
            let second = folder.appendingPathComponent("second-\(format).sqlite").path
            #expect(try Binary.run(["progress", "--progress", second, "--import", exported]).status == 0)
            let again = try Binary.run(["progress", "--progress", second, "--import", exported])
            #expect(again.stdout.hasPrefix("imported 0 new answer(s) of 5 into \(second) (5 were already there)"))
            let reexported = folder.appendingPathComponent("again.\(format)").path
            #expect(try Binary.run(["progress", "--progress", second, "--export", reexported]).status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: exported)) == Data(contentsOf: URL(fileURLWithPath: reexported)))
        }
        let bad = try Binary.run(["progress", "--progress", first, "--export", folder.appendingPathComponent("log.txt").path])
        #expect(bad.status == 1)
    }

    @Test func theTerminalReportIsPlainASCIIForADumbTerminal() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("p.sqlite").path
        #expect(try Binary.run(["record-answers", "--progress", database, "--count", "3", "--question", "serial-async-async"]).status == 0)
        let result = try Binary.run(["progress", "--progress", database], environment: ["TERM": "dumb"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Progress: 3 answers"))
        #expect(result.stdout.allSatisfy { $0.isASCII })
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    /// A FIFO at the progress path (the default one too) would block SQLite's open for ever;
    /// a newer gcdquiz's file must not be changed: both are refused at once, before anything
    /// is read from them, and `progress` fails (exit 1) instead of reporting no answers.
    @Test(arguments: ["fifo", "newer"])
    func whatCannotBeReadIsRefusedAtOnce(kind: String) throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        let path = data.appendingPathComponent("gcdquiz/progress.sqlite").path
        try FileManager.default.createDirectory(atPath: data.appendingPathComponent("gcdquiz").path, withIntermediateDirectories: true)
        let said: String
        if kind == "fifo" {
            #expect(mkfifo(path, 0o600) == 0)
            said = "the progress path \(path) is a FIFO (named pipe), not a file: this session neither reads nor records progress"
        } else {
            #expect(try Binary.run(["record-answers", "--progress", path, "--count", "3"]).status == 0)
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            sqlite.arguments = [path, "PRAGMA user_version = 999"]
            try sqlite.run()
            sqlite.waitUntilExit()
            #expect(sqlite.terminationStatus == 0)
            said = "the progress file \(path) was written by a newer gcdquiz (file format 999; this one reads format 0): it is left as it is"
        }
        let environment = ["XDG_DATA_HOME": data.path, "GCDQUIZ_PROGRESS": ""]
        let report = try SpawnedProcess(["progress"], environment: environment)
        #expect(report.finish(timeout: 60) == .exited(1))
        let reportErrors = String(decoding: report.standardError, as: UTF8.self)
        #expect(reportErrors.contains(said), "\(reportErrors)")
        let drill = try SpawnedProcess(["--kind", "choice"], environment: environment)
        #expect(drill.finish(timeout: 60) == .exited(0))
        let drillErrors = String(decoding: drill.standardError, as: UTF8.self)
        #expect(drillErrors.contains(said), "\(drillErrors)")
        // Nothing set aside or started beside it (SQLite's own WAL companions may be there).
        let names = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("gcdquiz").path)
        #expect(names.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") } == ["progress.sqlite"], "\(names)")
    }

    /// Rows whose seconds are NaN, infinite or beyond a Double are refused with their place,
    /// and nothing of the file is imported (before, NaN rows were dropped and counted as
    /// "already there").
    @Test func anImportWithSecondsThatAreNoTimeImportsNothing() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.sqlite").path
        let target = folder.appendingPathComponent("target.sqlite").path
        #expect(try Binary.run(["record-answers", "--progress", source, "--count", "10"]).status == 0)
        let file = folder.appendingPathComponent("log.csv").path
        #expect(try Binary.run(["progress", "--progress", source, "--export", file]).status == 0)
        var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\r\n")
        for (line, seconds) in [(2, "nan"), (5, "inf"), (9, "1e400")] {
            var fields = lines[line - 1].components(separatedBy: ",")
            fields[8] = seconds  // the seconds column
            lines[line - 1] = fields.joined(separator: ",")
        }
        try lines.joined(separator: "\r\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try Binary.run(["progress", "--progress", target, "--import", file])
        #expect(imported.status == 1)
        for (line, seconds) in [(2, "nan"), (5, "inf"), (9, "1e400")] {
            #expect(imported.stderr.contains("log.csv:\(line):"), "\(imported.stderr)")
            #expect(imported.stderr.contains("bad seconds '\(seconds)'"), "\(imported.stderr)")
        }
        #expect(imported.stderr.contains("nothing imported: 3 problems in \(file), and a log is imported whole or not at all"), "\(imported.stderr)")
        #expect(try exported(target, in: folder).isEmpty)
    }

    /// Reads the database back through `progress --export`.
    func exported(_ database: String, in folder: URL) throws -> [Review] {
        let file = folder.appendingPathComponent("check-\(UUID().uuidString).json").path
        let result = try Binary.run(["progress", "--progress", database, "--export", file])
        #expect(result.status == 0, "\(result.stderr)")
        return try LogExchange.read(Data(contentsOf: URL(fileURLWithPath: file)), as: .json, name: file)
    }
}
