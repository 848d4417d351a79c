import ConcurrencyModel
import Testing

/// An actor's members used from outside it without `await`: swiftc's errors, worded as swiftc
/// words them from where the code runs (each measured with swiftc 6.3, `-swift-version 6`).
@Suite struct ActorAccessTests {
    static let actor = """
        actor C {
            var n = 0
            func bump() { n += 1 }
            nonisolated func name() -> String { "C" }
        }
        let c = C()

        """

    @Test func fromTopLevelCode() {
        expectDiagnostics(Self.actor + """
            c.1️⃣bump()
            print(c.2️⃣n)
            c.3️⃣n = 5
            print(c.name())
            """, ["1️⃣": "call to actor-isolated instance method 'bump()' in a synchronous main actor-isolated context",
                  "2️⃣": "actor-isolated property 'n' can not be referenced from the main actor",
                  "3️⃣": "actor-isolated property 'n' can not be mutated from the main actor"])
    }

    @Test func fromATaskAndFromANonisolatedFunction() {
        expectDiagnostics(Self.actor + """
            Task.detached {
                print(c.1️⃣n)
                c.2️⃣bump()
            }
            func f() {
                print(c.3️⃣n)
                c.4️⃣bump()
            }
            f()
            """, ["1️⃣": "actor-isolated property 'n' cannot be accessed from outside of the actor",
                  "2️⃣": "actor-isolated instance method 'bump()' cannot be called from outside of the actor",
                  "3️⃣": "actor-isolated property 'n' can not be referenced from a nonisolated context",
                  "4️⃣": "call to actor-isolated instance method 'bump()' in a synchronous nonisolated context"])
    }

    /// A `nonisolated` method may not read the actor's `var`s (probe y05 said "cannot find").
    @Test func aNonisolatedMethodMayNotReadTheActorsState() {
        expectDiagnostics("""
            actor Counter {
                var value = 0
                nonisolated func peek() -> Int { 1️⃣value }
            }
            let c = Counter()
            print(c.peek())
            """, ["1️⃣": "actor-isolated property 'value' can not be referenced from a nonisolated context"])
    }
}
