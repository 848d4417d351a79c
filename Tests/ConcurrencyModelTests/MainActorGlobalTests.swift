import ConcurrencyModel
import Testing

/// Swift 6 puts top-level variables on the main actor: code elsewhere that touches one is a
/// compile error, which the model reports with swiftc's words rather than answering. Each case
/// was compiled with swiftc 6.3 (`-swift-version 6`, the prelude in front); the snippets are
/// Swift 6 ones because they use Swift concurrency.
@Suite struct MainActorGlobalTests {
    @Test func sentClosuresMayNotTouchATopLevelVar() {
        expectDiagnostics("""
            var counter = 0
            Task.detached {
                1️⃣counter += 1
                print(2️⃣counter)
            }
            """, ["1️⃣": "main actor-isolated var 'counter' can not be mutated from a nonisolated context",
                  "2️⃣": "main actor-isolated var 'counter' cannot be accessed from outside of the actor"])
        expectDiagnostics("""
            var list: [Int] = []
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    1️⃣list.append(1)
                }
            }
            """, ["1️⃣": "main actor-isolated var 'list' can not be mutated from a nonisolated context"])
        expectDiagnostics("""
            var counter = 0
            serialQueue.async {
                print(1️⃣counter)
            }
            Task { }
            """, ["1️⃣": "main actor-isolated var 'counter' can not be referenced from a nonisolated context"])
    }

    @Test func functionsAndActorsAreNotOnTheMainActor() {
        expectDiagnostics("""
            var counter = 0
            func increment() {
                1️⃣counter += 1
            }
            Task { increment() }
            """, ["1️⃣": "main actor-isolated var 'counter' can not be mutated from a nonisolated context"])
        expectDiagnostics("""
            var counter = 0
            actor A {
                func f() {
                    1️⃣counter = 1
                }
                func g() async {
                    print(2️⃣counter)
                }
                func h() {
                    Task {
                        print(3️⃣counter)
                    }
                }
            }
            let a = A()
            await a.f()
            await a.g()
            await a.h()
            """, ["1️⃣": "main actor-isolated var 'counter' can not be mutated on a different actor instance",
                  "2️⃣": "main actor-isolated var 'counter' cannot be accessed from outside of the actor",
                  "3️⃣": "main actor-isolated var 'counter' cannot be accessed from outside of the actor"])
    }

    /// The main actor's own places, closures that inherit their isolation, and constants: all
    /// compile, and get answers.
    @Test func theMainActorsOwnPlacesMayTouchIt() throws {
        #expect(try outcomeSet(explore("""
            var counter = 0
            let limit = 3
            @MainActor func bump() { counter += 1 }
            Task { counter += 1 }
            DispatchQueue.main.async { counter += 1 }
            serialQueue.sync { counter += 1 }
            Task.detached {
                await MainActor.run { counter += 1 }
                print(limit)
            }
            bump()
            await Task.yield()
            """)) == ["3"])
    }

    /// The classic shared counter: a class that is not `Sendable` may not leave the main actor.
    @Test func aNonSendableInstanceMayNotLeaveTheMainActor() throws {
        expectDiagnostics("""
            class Counter {
                var value = 0
                func bump() { value += 1 }
            }
            let counter = Counter()
            Task.detached {
                1️⃣counter.value += 1
            }
            serialQueue.async {
                2️⃣counter.bump()
            }
            print(counter.value)
            """, ["1️⃣": "non-Sendable type 'Counter' of let 'counter' cannot exit main actor-isolated context",
                  "2️⃣": "main actor-isolated let 'counter' can not be referenced from a nonisolated context"])
        #expect(try outcomeSet(explore("""
            final class Counter: @unchecked Sendable {
                var value = 0
            }
            let counter = Counter()
            let t = Task.detached { counter.value += 1 }
            await t.value
            print(counter.value)
            """)) == ["1"])
    }

    /// A `@MainActor` class's instance is Sendable: it may be used anywhere through `await`
    /// (`gcdquiz verify`: ok in 20 runs), but not synchronously off the main actor.
    @Test func aMainActorInstanceIsReachedThroughAwait() throws {
        expectDiagnostics("""
            @MainActor final class VM {
                var count = 0
                func bump() { count += 1 }
            }
            let vm = VM()
            Task.detached {
                1️⃣vm.bump()
                print(2️⃣vm.count)
            }
            """, ["1️⃣": "main actor-isolated instance method 'bump()' cannot be called from outside of the actor",
                  "2️⃣": "main actor-isolated property 'count' cannot be accessed from outside of the actor"])
        #expect(try outcomeSet(explore("""
            @MainActor final class VM {
                var count = 0
                func bump() { count += 1 }
            }
            let vm = VM()
            Task.detached {
                await vm.bump()
                print(await vm.count)
            }
            """)) == ["1"])
    }

    /// GCD snippets compile in Swift 5 mode, where globals belong to no actor.
    @Test func gcdSnippetsKeepTheirGlobals() throws {
        #expect(try outcomeSet(explore("""
            var counter = 0
            serialQueue.async {
                counter += 1
                print(counter)
            }
            """)) == ["1"])
    }
}
