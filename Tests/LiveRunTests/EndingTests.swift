import Foundation
import Testing

@testable import LiveRun

/// The one classification of endings, for the interpreter and for compiled snippets alike.
@Suite struct EndingTests {
    static func announced(_ call: RiskyCall, line: Int) -> AnnouncedCall { AnnouncedCall(call, line: line, column: 5) }

    @Test func aSyncOntoAnOwnedQueueIsTheSnippetsTrap() {
        let (end, reason) = Ending.classify(.signaled(SIGILL), stderr: "", culprit: Self.announced(.sync(queue: "serialQueue"), line: 3),
                                            runner: .interpreter)
        #expect(end == .deadlock)
        #expect(reason.contains("serialQueue.sync at line 3"))
        #expect(reason.contains("dispatch_sync called on queue already owned by current thread"))
    }

    /// setTarget on an active queue: libdispatch's client crash, the snippet's trap (a deadlock, as
    /// the model says; measured with swiftc, 100 of 100 runs died with SIGILL).
    @Test func setTargetOnAnActiveQueueIsTheSnippetsTrap() {
        let (end, reason) = Ending.classify(.signaled(SIGILL), stderr: "", culprit: Self.announced(.setTarget(queue: "a"), line: 4),
                                            runner: .interpreter)
        #expect(end == .deadlock)
        #expect(reason == "trap in a.setTarget(queue:) at line 4: libdispatch: \"Cannot change the target of this object after it has been activated\" (SIGILL)")
    }

    /// A work item waited for twice: libdispatch's client crash at the second wait (measured with
    /// swiftc: 30 of 30 runs died with SIGILL there).
    @Test func aWorkItemMisuseIsTheSnippetsTrap() {
        let (end, reason) = Ending.classify(.signaled(SIGILL), stderr: "", culprit: Self.announced(.workItem(call: "item.wait()"), line: 6),
                                            runner: .interpreter)
        #expect(end == .deadlock)
        #expect(reason.hasPrefix("trap in item.wait() at line 6: libdispatch: \"A block object may not be waited for more than once"))
    }

    @Test func anUnbalancedLeaveIsNamedAsSuch() {
        let (end, reason) = Ending.classify(.signaled(SIGILL), stderr: "", culprit: Self.announced(.groupLeave(group: "g"), line: 4),
                                            runner: .interpreter)
        #expect(end == .deadlock)
        #expect(reason == "trap in g.leave() at line 4: libdispatch: \"Unbalanced call to dispatch_group_leave()\" (SIGILL)")
    }

    @Test func aFailedPreconditionQuotesLibdispatch() {
        let stderr = "=== log file opened for gcdquiz[12] at 1 ===\nBUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [concurrentQueue]\n"
        let (end, reason) = Ending.classify(.signaled(SIGILL), stderr: stderr,
                                            culprit: Self.announced(.precondition(.onQueue, queue: "concurrentQueue"), line: 2),
                                            runner: .interpreter)
        #expect(end == .deadlock)
        #expect(reason.contains("dispatchPrecondition(condition: .onQueue(concurrentQueue)) at line 2"))
        #expect(reason.contains("Assertion failed: Block was expected to execute on queue [concurrentQueue]"))
        #expect(!reason.contains("dispatch_sync"))
    }

    @Test func foundationStoppingAMisusedOperationIsTheSnippetsEnding() {
        let stderr = "Swift/ErrorType.swift:1: warning\nFoundation/Operation.swift:1196: Fatal error: operations finished, executing or already in a queue cannot be enqueued\n"
        let (end, reason) = Ending.classify(.signaled(SIGILL), stderr: stderr, culprit: nil, runner: .interpreter)
        #expect(end == .deadlock)
        #expect(reason == "Foundation stops the process: operations finished, executing or already in a queue cannot be enqueued")
    }

    @Test func aSwiftRuntimeErrorInTheSnippetIsItsEndingUnderBothRunners() {
        let live = Ending.classify(.signaled(SIGILL), stderr: "Fatal error: division by zero \(Ending.snippetCodeMarker)\n",
                                   culprit: nil, runner: .interpreter)
        #expect(live.0 == .deadlock)
        #expect(live.1 == "trap: Swift runtime error in the snippet's code: \"division by zero\" (SIGILL)")
        let compiled = Ending.classify(.signaled(SIGILL), stderr: "main.swift:8: Fatal error: Division by zero\n", culprit: nil,
                                       runner: .compiledSnippet)
        #expect(compiled.0 == .deadlock)
        #expect(compiled.1.contains("Division by zero"))
        // -O builds trap without a word: still the snippet's, since nothing else runs there.
        #expect(Ending.classify(.signaled(SIGILL), stderr: "", culprit: nil, runner: .compiledSnippet).0 == .deadlock)
    }

    /// In the interpreter, a trap outside every announced call is gcdquiz's own failure.
    @Test func anUnexplainedTrapInTheInterpreterIsACrash() {
        let (end, reason) = Ending.classify(.signaled(SIGILL), stderr: "LiveInterpreter.swift:1: Fatal error: Index out of range\n",
                                            culprit: nil, runner: .interpreter)
        #expect(end == .crash)
        #expect(reason.contains("Index out of range"))
    }

    @Test func otherSignalsAndExitsAreCrashes() {
        #expect(Ending.classify(.signaled(SIGSEGV), stderr: "", culprit: nil, runner: .interpreter).0 == .crash)
        #expect(Ending.classify(.signaled(SIGSEGV), stderr: "", culprit: nil, runner: .interpreter).1.contains("SIGSEGV"))
        #expect(Ending.classify(.exited(3), stderr: "", culprit: nil, runner: .interpreter).0 == .crash)
        #expect(Ending.classify(.exited(0), stderr: "", culprit: nil, runner: .interpreter).0 == .crash)
        #expect(Ending.classify(.exited(0), stderr: "", culprit: nil, runner: .compiledSnippet).0 == .finished)
        #expect(Ending.classify(.signaled(SIGABRT), stderr: "", culprit: nil, runner: .compiledSnippet).0 == .crash)
        #expect(Ending.timeout(after: 4.2).0 == .timeout)
    }

    /// A compiled snippet whose memory went bad (a data race on an array's buffer: SIGSEGV, or
    /// glibc aborting on a double free) died of its own doing: the model's `memoryCorrupted`
    /// crash, compared as a process death; the interpreter's SIGSEGV stays a runner crash.
    @Test func aCompiledSnippetsCorruptedMemoryIsItsOwnDeath() {
        let segv = Ending.classify(.signaled(SIGSEGV), stderr: "", culprit: nil, runner: .compiledSnippet)
        #expect(segv.0 == .deadlock)
        #expect(segv.1.contains("memory was corrupted"))
        let doubleFree = Ending.classify(.signaled(SIGABRT), stderr: "free(): double free detected in tcache 2\n", culprit: nil, runner: .compiledSnippet)
        #expect(doubleFree.0 == .deadlock)
    }
}
