import Foundation
import Progress
import Testing

/// The progress database on a disk that is full or read-only, through the binary: nothing
/// recorded is set aside or hidden. Each test mounts a small tmpfs of its own (root only; skipped
/// with a message elsewhere).
@Suite(.enabled(if: TemporaryMount.isPermitted, TemporaryMount.skipMessage))
struct ProgressFaultsEndToEndTests {
    /// A full disk is no damage: whether it leaves no room at all or a little (enough for SQLite
    /// to start and fail half-way), the file stays where it is, its answers are shown, and the
    /// session says the disk is full; once there is room again, recording goes on in it.
    @Test(arguments: [0, 16, 40, 100])
    func aFullDiskNeverSetsTheHistoryAsideNorHidesIt(kilobytesLeft: Int) throws {
        let mount = try TemporaryMount(kilobytes: 8192)
        defer { mount.unmount() }
        let database = mount.path + "/progress.sqlite"
        let recorded = try Binary.run(["record-answers", "--progress", database, "--count", "300"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try mount.fill(leaving: kilobytesLeft * 1024)

        // A session that derives every card again (another retention) must write: it cannot.
        let review = try Binary.run(["review", "--retention", "0.8", "--progress", database], input: ":quit\n")
        #expect(review.status == 0, "\(review.stderr)")
        #expect(!review.stderr.contains("set-aside") && !review.stderr.contains("moved to"), "\(review.stderr)")
        #expect(!review.stderr.contains("starts from nothing"), "\(review.stderr)")
        if kilobytesLeft == 0 {
            #expect(review.stderr.contains("cannot be written (the disk is full)"), "\(review.stderr)")
        }
        let drill = try Binary.run(["--progress", database, "--kind", "choice"], input: ":quit\n")
        #expect(drill.status == 0, "\(drill.stderr)")
        #expect(!drill.stderr.contains("moved to"), "\(drill.stderr)")
        let report = try Binary.run(["progress", "--progress", database, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try JSONDecoder().decode(ProgressReport.self, from: Data(report.stdout.utf8)).answered == 300, "\(report.stderr)")
        #expect(mount.names().allSatisfy { !$0.contains("set-aside") }, "\(mount.names())")

        try mount.makeRoom()
        let after = try Binary.run(["record-answers", "--progress", database, "--count", "2"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stderr.isEmpty, "\(after.stderr)")
        let again = try Binary.run(["progress", "--progress", database, "--json"])
        #expect(try JSONDecoder().decode(ProgressReport.self, from: Data(again.stdout.utf8)).answered == 302)
    }

    /// A returning learner on a full disk is greeted as one: the drill plans from the history.
    @Test func theDrillOnAFullDiskWelcomesTheLearnerBack() throws {
        let mount = try TemporaryMount(kilobytes: 4096)
        defer { mount.unmount() }
        let database = mount.path + "/progress.sqlite"
        #expect(try Binary.run(["record-answers", "--progress", database, "--count", "30"]).status == 0)
        try mount.fill()
        let drill = try Binary.run(["--progress", database], input: ":quit\n")
        #expect(drill.status == 0, "\(drill.stderr)")
        #expect(drill.stdout.contains("Welcome back:"), "\(drill.stdout)")
        #expect(drill.stderr.contains("cannot be written (the disk is full): this session shows what it holds but records nothing"), "\(drill.stderr)")
        // Read as an immutable file: no stub of the WAL or its index is left beside it.
        #expect(mount.names().filter { $0.hasPrefix("progress.sqlite") } == ["progress.sqlite"], "\(mount.names())")
    }

    /// No database yet and no room for one: nothing is created (no empty file to find later),
    /// and the session says why it records nothing.
    @Test func noRoomForANewDatabaseCreatesNothing() throws {
        let mount = try TemporaryMount(kilobytes: 1024)
        defer { mount.unmount() }
        try mount.fill()
        let database = mount.path + "/progress.sqlite"
        let drill = try Binary.run(["--progress", database, "--kind", "choice"], input: ":quit\n")
        #expect(drill.status == 0, "\(drill.stderr)")
        #expect(drill.stderr.contains("cannot start the progress file \(database): the disk is full, so this session records nothing"), "\(drill.stderr)")
        #expect(mount.names().allSatisfy { $0.hasPrefix("filler-") }, "\(mount.names())")
    }

    /// A folder that cannot be written: the history is read (an immutable file needs no WAL
    /// index beside it) and shown, and nothing is written there.
    @Test func aReadOnlyFolderStillShowsTheHistory() throws {
        let mount = try TemporaryMount(kilobytes: 4096)
        defer { mount.unmount() }
        let database = mount.path + "/progress.sqlite"
        #expect(try Binary.run(["record-answers", "--progress", database, "--count", "40"]).status == 0)
        try mount.remountReadOnly()
        let report = try Binary.run(["progress", "--progress", database, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try JSONDecoder().decode(ProgressReport.self, from: Data(report.stdout.utf8)).answered == 40)
        #expect(report.stderr.contains("cannot be written (its file system is read-only)"), "\(report.stderr)")
        let drill = try Binary.run(["--progress", database], input: ":quit\n")
        #expect(drill.stdout.contains("Welcome back:"), "\(drill.stdout)")
        let exported = mount.path + "/../" + UUID().uuidString + ".csv"
        defer { try? FileManager.default.removeItem(atPath: exported) }
        let export = try Binary.run(["progress", "--progress", database, "--export", exported])
        #expect(export.stdout.contains("exported 40 answer(s)"), "\(export.stderr)")
        #expect(mount.names() == ["progress.sqlite"])
    }
}
