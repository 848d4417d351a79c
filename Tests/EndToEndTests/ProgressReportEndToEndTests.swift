import Foundation
import Testing

/// `progress --html` says what is wrong with which path, as the other commands do, instead of
/// Foundation's "(NSCocoaErrorDomain error 512.)" or "The file doesn't exist.".
@Suite struct ProgressReportEndToEndTests {
    @Test func anUnwritablePathIsNamedWithWhatIsWrong() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("progress.sqlite").path
        #expect(try Binary.run(["record-answers", "--progress", database, "--count", "2"]).status == 0)

        let intoFolder = try Binary.run(["progress", "--progress", database, "--html", folder.path])
        #expect(intoFolder.status == 1)
        #expect(intoFolder.stderr.contains("cannot write \(folder.path): it is a folder; give a file name in it"))
        #expect(!intoFolder.stderr.contains("NSCocoaErrorDomain"))

        let missing = folder.appendingPathComponent("no/such/report.html").path
        let nowhere = try Binary.run(["progress", "--progress", database, "--html", missing])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.contains("cannot write \(missing): the folder \(folder.path)/no/such does not exist"))

        let file = folder.appendingPathComponent("report.html").path
        let written = try Binary.run(["progress", "--progress", database, "--html", file])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: file))
    }
}
