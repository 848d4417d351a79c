import ConcurrencyModel
import Testing

/// A continuation kept in an actor's property and resumed later (outside puzzle sc2-09), each
/// snippet checked with `gcdquiz verify` (swiftc) when the tests were written.
@Suite struct KeptContinuationTests {
    /// A gate: `wait()` keeps its continuation, `open()` resumes it through `?.` and clears it, so
    /// the second `open()` resumes nothing (verify: 4 of 4 outcomes on 2 cores in 100 runs). The
    /// resumed task comes back to the actor through the global executor: the main actor's second
    /// call may get onto the actor first.
    @Test func aGateOpensOnce() throws {
        #expect(try outcomeSet(explore("""
            actor Gate {
                var waiter: CheckedContinuation<Void, Never>?
                func wait() async {
                    await withCheckedContinuation { c in
                        waiter = c
                    }
                    print("passed")
                }
                func open() {
                    waiter?.resume()
                    waiter = nil
                    print("opened")
                }
            }
            let gate = Gate()
            let t = Task { await gate.wait() }
            try? await Task.sleep(nanoseconds: 50_000_000)
            await gate.open()
            print("main")
            await gate.open()
            print("main")
            await t.value
            print("done")
            """)) == ["opened main passed opened main done", "opened passed main opened main done",
                      "opened main opened passed main done", "opened main opened main passed done"])
    }

    /// Not cleared, the second `open()` resumes it again: Swift's continuation misuse, a crash
    /// at the `resume` (verify: 3 of 3 in 100 runs), never a hang.
    @Test func resumedTwiceThroughThePropertyIsACrash() throws {
        let exploration = try explore("""
            actor Gate {
                var waiter: CheckedContinuation<Void, Never>?
                func wait() async {
                    await withCheckedContinuation { c in
                        self.waiter = c
                    }
                    print("passed")
                }
                func open() {
                    waiter?.resume()
                    print("opened")
                }
            }
            let gate = Gate()
            let t = Task { await gate.wait() }
            try? await Task.sleep(nanoseconds: 50_000_000)
            await gate.open()
            print("main")
            await gate.open()
            print("main")
            """)
        #expect(outcomeSet(exploration) == ["opened main passed deadlock", "opened passed main deadlock", "opened main deadlock"])
        #expect(exploration.reports.allSatisfy {
            if case .runtimeError(_, .continuationResumedTwice, let span)? = $0.deadlock { span.line == 10 } else { false }
        })
    }

    /// sc2-09 without its priorities (verify: 16 of the 180 outcomes on 2 cores in 200 runs, ok):
    /// a typed closure `(continuation: CheckedContinuation<Void, Never>) -> Void`, the
    /// continuation kept in `self.continuation`, read into a local, compared with nil, cleared,
    /// and resumed with `?.` from a detached task.
    @Test func sc2_09WithoutPriorities() throws {
        let exploration = try explore("""
            actor SUTActor {
                var continuation: CheckedContinuation<(),Never>?
                var canGo = false
                func pause() async {
                    print("in pause")
                    if canGo {
                        print("canGo true before awat")
                        return
                    }
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) -> Void in
                        print("in withCheckedContinuation operation")
                        if canGo {
                            print("canGo true after awit")
                            Task.detached { continuation.resume() }
                        } else {
                            self.continuation = continuation
                        }
                        print("completing withCheckedOperation closure")
                    }
                    print("awaitedContinuation resumed")
                }
                func go() {
                    print("in go")
                    canGo = true
                    let continuation = self.continuation
                    print(continuation == nil ? "nil cont" : "has cont")
                    self.continuation = nil
                    Task.detached {
                        print("resuming continuation")
                        continuation?.resume()
                        print("did resume continuation")
                    }
                }
            }
            let sut = SUTActor()
            Task.detached {
                print("will await pause")
                await sut.pause()
                print("pause returned")
            }
            Task.detached {
                print("will await go")
                await sut.go()
                print("Boom")
            }
            """)
        let outcomes = outcomeSet(exploration)
        #expect(outcomes.count == 360)
        #expect(outcomes.allSatisfy { !$0.contains("deadlock") })
    }

    @Test func misuseIsADiagnosticAtItsPlace() {
        expectDiagnostics("""
            actor A {
                var c: CheckedContinuation<Void, Never>?
                func f() { 1️⃣c.resume() }
            }
            let a = A()
            await a.f()
            """, ["1️⃣": "value of optional type 'CheckedContinuation<(), Never>?' must be unwrapped"])
    }
}
