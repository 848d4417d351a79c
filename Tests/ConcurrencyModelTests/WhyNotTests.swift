import Foundation
import Testing
@testable import ConcurrencyModel

/// Why-not sentences must read as reasons (issue 10): a statement never blocks itself, the same
/// reason is said once however many states show it, and a block a library holds back (a timer,
/// a notify) gets its reason instead of none. The snippets are bank puzzles where each went wrong.
@Suite struct WhyNotTests {
    /// The reasons why `lines` (a finished run) cannot happen.
    func reasons(_ source: String, _ lines: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [Said] {
        let exploration = try explore(source, sourceLocation: sourceLocation)
        guard case .impossible(let why) = Explainer(exploration: exploration).explain(Outcome(lines: lines, end: .finished)) else {
            Issue.record("\(lines) should be impossible", sourceLocation: sourceLocation)
            return []
        }
        #expect(!why.blockers.isEmpty, "no reason given", sourceLocation: sourceLocation)
        let said = why.blockers.map { Said($0, why) }
        for blocker in said {
            #expect(!blocker.detail.contains("…"), "a value left unsaid: \(blocker.detail)", sourceLocation: sourceLocation)
            if let match = blocker.detail.firstMatch(of: /\(line (\d+)\) before line (\d+)/) {
                #expect(match.1 != match.2, "a statement blocks itself: \(blocker.detail)", sourceLocation: sourceLocation)
            }
        }
        let places = why.blockers.map { "\($0.rule) \($0.span?.line ?? 0)" }
        #expect(Set(places).count == places.count, "the same reason twice: \(said.map(\.detail))", sourceLocation: sourceLocation)
        return said
    }

    /// A `for await` loop as the first statement of a task runs again after each body: its
    /// reasons name the loop (sheets of the stream puzzle crashed on an index before it).
    @Test func aForAwaitLoopFirstInItsTaskIsNamed() throws {
        let said = try reasons("""
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            Task {
                for await value in stream {
                    print("got", value)
                }
                print("ended")
            }
            serialQueue.async {
                continuation.yield(1)
                continuation.yield(2)
                continuation.finish()
            }
            """, ["ended", "got 1", "got 2"])
        #expect(said.map(\.detail).contains("main must first finish the for await loop over stream at line 3 (it is at line 4) before line 6"),
                "\(said.map(\.detail))")
    }

    @Test func aPrintOfAVariableSaysWhatItPrintsThere() throws {
        let lostUpdate = """
            var safe = 0
            var unsafe = 0
            DispatchQueue.concurrentPerform(iterations: 3) { i in
                unsafe += 1
                serialQueue.sync {
                    safe += 1
                }
            }
            print(safe)
            print(unsafe)
            """
        let why = try reasons(lostUpdate, ["1", "3"])
        #expect(why.map(\.detail) == ["main must first print 3 (line 9) before line 10", "at line 9, main prints 3, not 1: safe is 3 when it runs"])
        #expect(why.map(\.rule) == [.programOrder, .printShowsCurrentValues])
    }

    @Test func theSameReasonInAnotherStateIsSaidOnce() throws {
        let inversion = """
            let s = DispatchSemaphore(value: 1)
            DispatchQueue.global(qos: .utility).async {
                s.wait()
                for i in 1...2 {
                    print(i)
                }
                s.signal()
            }
            DispatchQueue.global(qos: .userInitiated).async {
                s.wait()
                for i in 11...12 {
                    print(i)
                }
                s.signal()
            }
            """
        let why = try reasons(inversion, ["1", "11", "2", "12"])
        // The real reason first; the loop that prints 2 here is said once, not once per worker.
        #expect(why.first?.rule == .semaphoreBlocksAtZero)
        #expect(why.first?.detail.hasPrefix("line 12 is in the loop at line 11, which has not started yet: worker") == true)
        #expect(why.filter { $0.span?.line == 5 }.count == 1)
    }

    @Test func aLiteralPrintIsTheReasonBeforeAVariablePrint() throws {
        let threePrints = """
            DispatchQueue.concurrentPerform(iterations: 3) { i in
                print(i)
            }
            print("done")
            """
        let why = try reasons(threePrints, ["0", "1", "done", "2"])
        #expect(why.map(\.rule) == [.concurrentPerformWaitsForIterations])
    }

    @Test func aTimerThatIsNotDueIsTheReason() throws {
        let deadlines = """
            serialQueue.asyncAfter(deadline: .now() + 0.3) {
                print(3)
            }
            concurrentQueue.asyncAfter(deadline: .now() + 0.1) {
                print(1)
            }
            print(0)
            """
        let why = try reasons(deadlines, ["1", "0", "3"])
        #expect(why.map(\.rule) == [.timeIsLogical])
        #expect(why.first?.detail == "line 5 runs in a concurrentQueue.asyncAfter block due at 100 ms, and the clock is at 0 s: what can run before then runs first")
    }

    @Test func aNotifyBlockWaitsForTheGroupToEmpty() throws {
        let notify = """
            let g = DispatchGroup()
            concurrentQueue.async(group: g) {
                print("a")
            }
            concurrentQueue.async(group: g) {
                print("b")
            }
            g.notify(queue: serialQueue) {
                print("notify")
            }
            g.wait()
            print("waited")
            """
        let why = try reasons(notify, ["a", "notify", "b", "waited"])
        #expect(why.first?.rule == .groupNotifiesWhenEmpty)
        #expect(why.first?.detail == "line 9 runs in the block of g.notify, submitted only once g is empty: 1 block(s) are still in it")
    }

    @Test func aWorkItemWaitAndItsNotifyAreNamedInSwift() throws {
        let item = """
            let item = DispatchWorkItem {
                print("work")
            }
            item.notify(queue: serialQueue) {
                print("notified")
            }
            concurrentQueue.async(execute: item)
            item.wait()
            print("after")
            """
        let early = try reasons(item, ["after", "work", "notified"])
        #expect(early.first?.rule == .workItemWaitReturnsAfterItRuns)
        #expect(early.first?.detail.contains("waits in item.wait() at line 8 until the work item has run, before line 9") == true)
        let notified = try reasons(item, ["notified", "work", "after"])
        #expect(notified.map(\.detail).contains("line 5 runs in the block of item.notify, submitted only once item has run, and it has not yet"))
    }

    @Test func aWaitOnTheLineInQuestionIsReasonEnough() throws {
        let timeout = """
            let g = DispatchGroup()
            concurrentQueue.async(group: g) {
                Thread.sleep(forTimeInterval: 0.2)
                print("slow")
            }
            if g.wait(timeout: .now() + 0.5) == .timedOut {
                print("late")
            } else {
                print("ready")
            }
            """
        let why = try reasons(timeout, ["ready", "slow"])
        #expect(why.contains { $0.detail.hasSuffix("main waits at line 6 until 500 ms at most") })
    }

    @Test func everyWayTheProcessDiesIsAReason() throws {
        let overflow = """
            var x = Int.max
            print(1)
            x += 1
            print(x)
            """
        let why = try reasons(overflow, ["1", "2"])
        #expect(why.map(\.rule) == [.trapEndsTheProcess])
        #expect(why.first?.span?.line == 3)
        #expect(why.first?.detail.contains("arithmetic overflow") == true)
    }

    /// Why a handler's line cannot come: the source never resumed, or cancelled, said as such
    /// (the why-not once said only "no schedule reaches it").
    @Test func aHeldBackHandlerSaysWhy() throws {
        let idle = """
            let timer = DispatchSource.makeTimerSource(queue: serialQueue)
            timer.schedule(deadline: .now() + 0.1)
            timer.setEventHandler { print("tick") }
            print("start")
            """
        #expect(try reasons(idle, ["start", "tick"]).contains { $0.detail.contains("which is never resumed") })
        let cancelled = idle + "\ntimer.resume()\ntimer.cancel()"
        #expect(try reasons(cancelled, ["start", "tick"]).contains { $0.detail.contains("which is cancelled") })
    }
}
