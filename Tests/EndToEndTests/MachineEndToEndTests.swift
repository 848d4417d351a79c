import ConcurrencyModel
import Foundation
import LiveRun
import Testing

/// The machine an answer is for, as a learner and a script meet it: outcomes labelled with the
/// core counts and platforms that show them, `--cores N`, grading that does not count outcomes
/// only fewer cores show, answers by count for sets too large to list, and live runs compared
/// with the answer for the machine they ran on.
@Suite struct MachineEndToEndTests {
    /// Four blocks blocked in `wait()` on a global queue, a fifth that prints A, and a timer that
    /// prints B and releases them: A needs a thread libdispatch adds a second at a time.
    static let exhaustedPool = """
        let s = DispatchSemaphore(value: 0)
        for _ in 1...4 {
            DispatchQueue.global().async {
                s.wait()
            }
        }
        DispatchQueue.global().async {
            print("A")
        }
        serialQueue.asyncAfter(deadline: .now() + 0.1) {
            print("B")
            for _ in 1...4 {
                s.signal()
            }
        }

        """

    /// Seven blocks of two lines each side by side: 14! / 2⁷ orders on seven cores. (The issue's
    /// eight, 16! / 2⁸ = 81,729,648,000, take a debug build too long for the suite.)
    static let sevenBlocks = """
        for i in 1...7 {
            DispatchQueue.global().async {
                print("\\(i) start")
                print("\\(i) end")
            }
        }

        """

    func file(_ code: String, named name: String = "snippet.swift") throws -> (folder: URL, path: String) {
        try Binary.file(code, named: name)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The line on other machines names only those whose outcomes differ from this one's: the
    /// actor's check-then-act has the same 2 outcomes on 1 core as with enough cores (it used to
    /// say "1 core: 2", as if that told something), so nothing is said; the exhausted pool's
    /// 1 outcome with enough cores is another outcome on 1–4 cores.
    @Test func otherMachinesAreNamedOnlyWhereTheirOutcomesDiffer() throws {
        let same = try Binary.run(["solve", "actor-check-then-act"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(!same.stdout.contains("Outcomes on other machines"))
        let (folder, path) = try file(Self.exhaustedPool)
        defer { try? FileManager.default.removeItem(at: folder) }
        let differ = try Binary.run(["solve", path])
        #expect(differ.stdout.contains("Outcomes on other machines — 1 core: 1, not the same ones;"), "\(differ.stdout)")
    }

    @Test func solveAnswersForEnoughCoresAndLabelsTheRest() throws {
        let (folder, path) = try file(Self.exhaustedPool)
        defer { try? FileManager.default.removeItem(at: folder) }
        let many = try Binary.run(["solve", path])
        #expect(many.status == 0, "\(many.stderr)")
        #expect(many.stdout.contains("1 possible outcome with enough cores (5 or more, so that no block waits for a thread)"))
        #expect(many.stdout.contains("  A B   finished  needs 4 or more cores"))
        #expect(many.stdout.contains("Only on other machines:\n  B A   finished  only with 1–4 cores"))
        let two = try Binary.run(["solve", path, "--cores", "2"])
        #expect(two.status == 0)
        #expect(two.stdout.contains("1 possible outcome on a machine with 2 cores"))
        #expect(two.stdout.contains("  B A   finished  only with 1–4 cores"))
        let wide = try Binary.run(["solve", path, "--cores", "64"])
        #expect(wide.stdout.contains("on a machine with 64 cores (from 5 cores on, the answer no longer changes)"))
        let bad = try Binary.run(["solve", path, "--cores", "0"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("--cores takes a number of cores from 1 to 1024"))
    }

    @Test func solveJSONCarriesTheLabels() throws {
        let (folder, path) = try file(Self.exhaustedPool)
        defer { try? FileManager.default.removeItem(at: folder) }
        let object = try json(try Binary.run(["solve", path, "--json"]).stdout)
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["cores"] is NSNull)
        #expect(machine["enoughCores"] as? Int == 5)
        let outcome = try #require((object["outcomes"] as? [[String: Any]])?.first)
        #expect(outcome["notation"] as? String == "A B")
        let cores = try #require(outcome["cores"] as? [[String: Any]])
        #expect(cores.count == 1 && cores[0]["min"] as? Int == 4 && cores[0]["max"] is NSNull)
        #expect(outcome["platform"] as? String == "any")
        let elsewhere = try #require(object["elsewhere"] as? [[String: Any]])
        #expect(elsewhere.map { $0["notation"] as? String } == ["B A"])
        #expect((elsewhere[0]["cores"] as? [[String: Any]])?.first?["max"] as? Int == 4)
        let machines = try #require(object["machines"] as? [[String: Any]])
        #expect(machines.map { $0["cores"] as? Int } == [1, 2, 3, 4, nil])
        // Platforms that cannot differ: the answer is for the one asked for, and says so.
        let linux = try json(try Binary.run(["solve", path, "--json", "--platform", "linux"]).stdout)
        #expect((linux["machine"] as? [String: Any])?["platform"] as? String == "linux")
    }

    @Test func checkNeverCountsFewerCoreOutcomesAsMissing() throws {
        let (folder, path) = try file(Self.exhaustedPool)
        defer { try? FileManager.default.removeItem(at: folder) }
        let textbook = try Binary.run(["check", path, "A B"])
        #expect(textbook.status == 0)
        #expect(textbook.stdout.hasPrefix("exact: the one possible outcome, and nothing else."))
        let both = try Binary.run(["check", path, "A B | B A", "--json"])
        let object = try json(both.stdout)
        #expect(object["verdict"] as? String == "exact")
        #expect((object["elsewhere"] as? [[String: Any]])?.first?["notation"] as? String == "B A")
        let text = try Binary.run(["check", path, "A B | B A"])
        #expect(text.stdout.contains("B A can happen only with 1–4 cores, not with enough cores"))
        // On two cores A B is wrong, and why names the pool.
        let twoCores = try Binary.run(["check", path, "A B", "--cores", "2"])
        #expect(twoCores.stdout.hasPrefix("wrong: A B cannot happen."))
        #expect(twoCores.stdout.contains("every worker thread that serves DispatchQueue.global() is busy"))
    }

    @Test func hundredsOfMillionsOfOutcomesAreCountedAndGradedOneByOne() throws {
        let (folder, path) = try file(Self.sevenBlocks)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Room for a debug build on a loaded machine: the budget is not what this tests.
        let time = ["--max-seconds", "300"]
        let solve = try Binary.run(["solve", path] + time)
        #expect(solve.status == 0, "\(solve.stderr)")
        #expect(solve.stdout.contains("681,080,400 possible outcomes with enough cores (7 or more"))
        #expect(solve.stdout.contains("    3 start before 3 end\n"))
        let object = try json(try Binary.run(["solve", path, "--json"] + time).stdout)
        #expect(object["count"] as? UInt64 == 681_080_400)
        #expect(object["listed"] as? Bool == false)
        #expect((object["sample"] as? [Any])?.count == 10)
        #expect((object["rules"] as? [[String: Any]])?.count == 7)
        let order = (1...7).map { "\"\($0) start\" \"\($0) end\"" }.joined(separator: " ")
        let incomplete = try json(try Binary.run(["check", path, order, "--json"] + time).stdout)
        #expect(incomplete["verdict"] as? String == "incomplete")
        #expect(incomplete["missingCount"] as? UInt64 == 681_080_400 - 1)
        let wrongOrder = (1...7).map { "\"\($0) end\" \"\($0) start\"" }.joined(separator: " ")
        let wrong = try Binary.run(["check", path, wrongOrder] + time)
        #expect(wrong.stdout.hasPrefix("wrong: "))
        // One core: the thread of the monitor's first tick lets two blocks interleave.
        let oneCore = try json(try Binary.run(["check", path, order, "--cores", "1", "--json"] + time).stdout)
        #expect(oneCore["missingCount"] as? UInt64 == (oneCore["possible"] as? UInt64 ?? 0) - 1)
        #expect((oneCore["possible"] as? UInt64 ?? 0) < 681_080_400)
    }

    @Test func blockOperationsAreLabelledByPlatform() throws {
        let (folder, path) = try file("""
            let queue = OperationQueue()
            let op = BlockOperation { print("a1"); print("a2") }
            op.addExecutionBlock { print("b") }
            queue.addOperation(op)
            queue.waitUntilAllOperationsAreFinished()
            print("done")

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let apple = try Binary.run(["solve", path])
        #expect(apple.stdout.contains("3 possible outcomes"))
        #expect(apple.stdout.contains("  b a1 a2 done   finished  only on Apple platforms"))
        let linux = try Binary.run(["solve", path, "--platform", "linux"])
        #expect(linux.stdout.contains("1 possible outcome"))
        #expect(linux.stdout.contains("  a1 a2 b done   finished"))
    }

    /// Live runs here are compared with the answer for this machine: on two cores the exhausted
    /// pool prints B A, and nothing is flagged.
    @Test func liveRunsAreComparedWithThisMachinesAnswer() throws {
        let (folder, path) = try file(Self.exhaustedPool)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Binary.run(["run", path, "--runs", "10", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try json(result.stdout)
        #expect(object["unexpected"] as? Int == 0)
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["cores"] as? Int == Machine.live.cores)
        // Every run gets a fresh process: threads libdispatch added for one run stay in it.
        #expect(object["processes"] as? Int == 10)
    }
}
