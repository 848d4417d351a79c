import ConcurrencyModel
import Foundation
@testable import Quiz
import Testing

/// Reading question files as little as a command needs, and every problem with its place.
@Suite struct BankLoadingTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-loading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("topic"), withIntermediateDirectories: true)
        return folder
    }

    static func question(_ id: String, code: String = "print(1)", extra: String = "") -> String {
        QuestionParserTests.valid.replacingOccurrences(of: "id: demo", with: "id: \(id)\(extra)")
            .replacingOccurrences(of: "print(1)", with: code)
    }

    @Test func aFileThatIsNotUTF8SaysWhereItStops() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = Array(Self.question("latin").utf8)
        // "title: …" is line 2: put an ISO-8859-1 'é' after "title: ".
        let titleStart = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1 + "title: ".count
        bytes.insert(0xE9, at: titleStart)
        let file = folder.appendingPathComponent("latin.yaml")
        try Data(bytes).write(to: file)
        let (question, problems) = BankLoader.read(file.path)
        #expect(question == nil)
        let problem = try #require(problems.first)
        #expect(problem.location?.line == 2)
        #expect(problem.location?.column == 8)
        #expect(problem.message.contains("byte 0xE9"))
    }

    @Test func aLoneCarriageReturnBreaksALineAsInYAML() throws {
        let text = "id: cr\rtitle: [\rlevel: 1\n"
        let problems = QuestionParser.parse(text, file: "cr.yaml").problems
        let problem = try #require(problems.first)
        // The quoted line is the one YAML counted, whole and without a CR in it.
        let line = try #require(problem.location?.line)
        #expect(problem.sourceLine == SourceText.lines(text)[line - 1])
        #expect(problem.sourceLine?.contains("\r") == false)
        #expect(SourceText.lines("a\rb\r\nc\nd") == ["a", "b", "c", "d"])
    }

    @Test func upperCaseExtensionsLoad() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.question("upper").write(to: folder.appendingPathComponent("topic/upper.YAML"), atomically: true, encoding: .utf8)
        try Self.question("short-ext").write(to: folder.appendingPathComponent("short-ext.Yml"), atomically: true, encoding: .utf8)
        try "not a question".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let bank = BankLoader.load(paths: [folder.path])
        #expect(Set(bank.questions.map(\.id)) == ["upper", "short-ext"])
    }

    @Test func followsProblemsPointAtTheFollowsLine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.question("orphan", extra: "\nfollows: nobody").write(to: folder.appendingPathComponent("orphan.yaml"), atomically: true, encoding: .utf8)
        let bank = BankLoader.load(paths: [folder.path])
        let problem = try #require(bank.problems.first)
        #expect(problem.message == "'follows: nobody' names no question of the bank")
        #expect(problem.location?.line == 2)
        #expect(problem.location?.column == 1)
        #expect(problem.sourceLine == "follows: nobody")
    }

    @Test func onDemandLoadingCompilesNoCodeUntilAsked() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.question("good").write(to: folder.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
        try Self.question("broken", code: "while let n = Optional(1) { }").write(to: folder.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let lazy = BankLoader.load(paths: [folder.path], compilation: .onDemand)
        #expect(lazy.problems.isEmpty)
        #expect(Set(lazy.questions.map(\.id)) == ["good", "broken"])
        let broken = try #require(lazy.question(id: "broken"))
        guard case .failure(let list) = lazy.program(of: broken) else {
            Issue.record("the broken puzzle should not compile")
            return
        }
        #expect(list.problems.first?.location?.file.hasSuffix("broken.yaml") == true)
        // Eager loading leaves it out, with its problem, as validate needs.
        let eager = BankLoader.load(paths: [folder.path], compilation: .eager)
        #expect(eager.questions.map(\.id) == ["good"])
        #expect(eager.problems.count == 1)
    }

    @Test func anIdReadsItsOwnFileFirstAndFallsBackToTheWholeBank() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.question("by-name").write(to: folder.appendingPathComponent("topic/by-name.yaml"), atomically: true, encoding: .utf8)
        // A file whose name is not its id is still found, by loading everything.
        try Self.question("other-name").write(to: folder.appendingPathComponent("topic/misnamed.yaml"), atomically: true, encoding: .utf8)
        try "id: [".write(to: folder.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let source = BankSource(root: folder.path)
        #expect(try source.question(id: "by-name").get().id == "by-name")
        #expect(try source.question(id: "other-name").get().id == "other-name")
        guard case .failure(let broken) = source.question(id: "broken") else {
            Issue.record("a broken file gives its problems")
            return
        }
        #expect(broken.problems.first?.location?.file.hasSuffix("broken.yaml") == true)
        guard case .failure(let missing) = source.question(id: "by") else {
            Issue.record("an unknown id is an error")
            return
        }
        #expect(missing.problems.first?.message == "no question with id 'by'; did you mean by-name?")
    }

    @Test func theInstalledBankIsFoundBesideTheBinary() throws {
        let prefix = try Self.folder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let questions = prefix.appendingPathComponent("share/gcdquiz/Questions")
        try FileManager.default.createDirectory(at: questions, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        let found = BankLocator.locate(
            explicit: nil, environment: [:], currentDirectory: "/", executable: prefix.appendingPathComponent("bin/gcdquiz").path)
        #expect(found.map { URL(fileURLWithPath: $0).standardized.path } == questions.standardized.path)
    }
}
