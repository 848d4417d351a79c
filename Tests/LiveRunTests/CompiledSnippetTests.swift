import ConcurrencyModel
import Foundation
import LiveRun
import Testing

/// A compiled snippet's run that exits after its grace period, having printed only the start of
/// an outcome the model allows, was cut short by the harness (the workers had not run yet), not
/// a disagreement with the model: `check` repeats it with a longer grace before it counts.
@Suite struct CompiledSnippetTests {
    static let lateWorker = """
        concurrentQueue.async {
            Thread.sleep(forTimeInterval: 0.3)
            print("late")
        }
        """

    @Test func aRunCutShortByTheGracePeriodIsRepeatedWithMoreTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-compiled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiled = try CompiledSnippet.build(code: Self.lateWorker, graceMilliseconds: 20, in: folder)
        let possible: Set = [Outcome(lines: ["late"], end: .finished)]

        let (short, _) = try compiled.run()
        #expect(short.lines.isEmpty, "with 20 ms of grace the program exits before the worker prints")
        #expect(CompiledSnippet.allowedOutcome(short, possible: possible) == nil)

        let checked = try compiled.check(against: possible)
        #expect(checked.outcome.lines == ["late"])
        #expect(checked.allowed == Outcome(lines: ["late"], end: .finished))
    }

    @Test func aRunPrintingWhatTheModelForbidsIsNotRepeatedIntoAgreement() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-compiled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiled = try CompiledSnippet.build(code: "print(\"B\")\nprint(\"A\")\n", graceMilliseconds: 20, in: folder)
        let checked = try compiled.check(against: [Outcome(lines: ["A", "B"], end: .finished)])
        #expect(checked.outcome.lines == ["B", "A"])
        #expect(checked.allowed == nil)
    }
}
