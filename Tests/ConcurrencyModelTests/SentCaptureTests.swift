import ConcurrencyModel
import Testing

/// A local `var` captured by a closure that leaves its function's isolation: swiftc's Swift 6
/// errors, at swiftc's places (each case compiled with swiftc 6.3, `-swift-version 6 -emit-sil`).
@Suite struct SentCaptureTests {
    @Test func aSendableBlockMayNotNameACapturedVar() {
        expectDiagnostics("""
            func f() {
                var count = 0
                serialQueue.async {
                    1️⃣count += 1
                }
            }
            f()
            Task { }
            """, ["1️⃣": "mutation of captured var 'count' in concurrently-executing code"])
        expectDiagnostics("""
            func f() {
                var count = 0
                count += 1
                serialQueue.async {
                    print(1️⃣count)
                }
            }
            f()
            Task { }
            """, ["1️⃣": "reference to captured var 'count' in concurrently-executing code"])
    }

    @Test func aSentTaskMayNotShareAVarWithItsMaker() {
        expectDiagnostics("""
            func f() async {
                var count = 0
                Task.1️⃣detached {
                    count += 1
                }
                print(count)
            }
            await f()
            """, ["1️⃣": "sending value of non-Sendable type '() async -> ()' risks causing data races"])
        expectDiagnostics("""
            func f() async {
                var count = 0
                for _ in 0..<3 {
                    1️⃣Task {
                        count += 1
                    }
                }
            }
            await f()
            """, ["1️⃣": "sending value of non-Sendable type '() async -> ()' risks causing data races"])
        expectDiagnostics("""
            func f() async {
                var count = 0
                await withTaskGroup(of: Void.self) { group in
                    group.1️⃣addTask {
                        print(count)
                    }
                    count = 3
                }
            }
            await f()
            """, ["1️⃣": "passing closure as a 'sending' parameter risks causing data races"])
    }

    /// What swiftc accepts: a task that alone uses the var, a copy read where nobody writes
    /// after, a task made on the main actor, a block for the main queue.
    @Test func whatSwiftcAcceptsIsAnswered() throws {
        #expect(try outcomeSet(explore("""
            func f() async {
                var count = 0
                count = 5
                let t = Task.detached {
                    print(count)
                }
                await t.value
                print(count)
            }
            @MainActor func g() {
                var n = 0
                Task { n += 1 }
                DispatchQueue.main.async { n += 1 }
                print(n)
            }
            await f()
            g()
            """)) == ["5 5 0"])
    }

    /// A task made in a method of a class that is not Sendable may not take `self` (outside sc-08).
    @Test func aTaskMayNotTakeANonSendableSelf() throws {
        expectDiagnostics("""
            class ViewModel {
                @MainActor
                func run() {
                    Task {
                        await 1️⃣work()
                    }
                }
                func go() {
                    2️⃣Task {
                        await work()
                    }
                }
                private func work() async { print("w") }
            }
            let vm = ViewModel()
            vm.run()
            vm.go()
            """, ["1️⃣": "sending 'self' risks causing data races",
                  "2️⃣": "passing closure as a 'sending' parameter risks causing data races"])
        #expect(try outcomeSet(explore("""
            final class ViewModel: Sendable {
                func go() {
                    Task { await work() }
                }
                func work() async { print("w") }
            }
            ViewModel().go()
            """)) == ["w"])
    }
}
