import ConcurrencyModel
import Testing

/// Plain enums (`enum Phase { case idle, running, done }`) as the state of actors and classes:
/// `.idle` literals, `==`, `switch`, raw values, printed as the case's name as Swift prints it.
/// Each answer is the model's, checked with `gcdquiz verify --runs 50` (swiftc) when the test was
/// written: the figures are in the comments.
@Suite struct EnumValueTests {
    /// Two main-actor tasks hop to the actor in the order they were made: the last state wins
    /// (verify: 1 of 1 on 2 cores in 50 runs).
    @Test func anActorsStateSetByTwoTasks() throws {
        #expect(try outcomeSet(explore("""
            enum Phase { case idle, running, done }
            actor Machine {
                var phase: Phase = .idle
                func start() { phase = .running }
                func finish() { phase = .done }
            }
            let m = Machine()
            Task { await m.start() }
            Task { await m.finish() }
            try await Task.sleep(nanoseconds: 10_000_000)
            print(await m.phase)
            """)) == ["done"])
    }

    /// Children advance the actor's state through a `switch` over it; whichever runs first sees
    /// `.idle` (verify: 1 of 3 on 2 cores in 50 runs, none outside the model).
    @Test func aSwitchOverTheStateInChildren() throws {
        #expect(try outcomeSet(explore("""
            enum Phase { case idle, running, done }
            actor Machine {
                var phase: Phase = .idle
                func advance() -> Phase {
                    switch phase {
                    case .idle: phase = .running
                    case .running: phase = .done
                    case .done: break
                    }
                    return phase
                }
            }
            let m = Machine()
            await withTaskGroup(of: Phase.self) { group in
                for _ in 0..<3 { group.addTask { await m.advance() } }
                for await p in group { print(p) }
            }
            """)) == ["running done done", "done running done", "done done running"])
    }

    /// Raw values (implicit and literal, String and Int), `init(rawValue:)`, a class's and a
    /// struct's stored enum, `==`/`!=`, interpolation, a `switch` statement and expression
    /// (verify: 1 of 1 in 50 runs).
    @Test func rawValuesSwitchesAndPrinting() throws {
        #expect(try outcomeSet(explore("""
            enum Phase { case idle, running, done }
            enum Level: Int { case low = 1, mid, high = 10 }
            enum Tag: String, Sendable {
                case a
                case b = "bee"
            }
            var current: Phase = .idle
            final class Box: @unchecked Sendable { var phase = Phase.idle }
            struct Job { var level: Level }
            func describe(_ p: Phase) -> String {
                switch p {
                case .idle: return "waiting"
                case .running, .done: return "busy"
                }
            }
            let box = Box()
            let job = Job(level: .mid)
            current = .running
            print(current, describe(current), describe(.idle))
            print(current == .running, current != Phase.done)
            print("phase: \\(box.phase)")
            print(job.level.rawValue, Level.high.rawValue, Tag.b.rawValue, Tag.a.rawValue)
            print(Tag(rawValue: "bee") ?? .a, Tag(rawValue: "x") ?? .a)
            if let l = Level(rawValue: 2) { print(l) }
            let word = switch box.phase { case .idle: "zero" case .running: "one" case .done: "two" }
            print(word)
            """)) == ["running busy waiting true true phase: idle 2 10 bee a b a mid zero"])
    }

    /// `guard case .idle = phase else { … }` in an actor lets one of two racing callers in;
    /// `if case` of an awaited value and of an Int, beside a Bool test (verify: 1 of 1 on 2 cores
    /// in 50 runs).
    @Test func caseConditions() throws {
        #expect(try outcomeSet(explore("""
            enum Phase { case idle, running, done }
            actor Machine {
                var phase: Phase = .idle
                func start() -> Bool {
                    guard case .idle = phase else { return false }
                    phase = .running
                    return true
                }
            }
            let m = Machine()
            async let a = m.start()
            async let b = m.start()
            let (x, y) = await (a, b)
            print(x != y)
            if case .running = await m.phase { print("running") } else { print("other") }
            let n = 3
            if case 3 = n, n > 2 { print("three") }
            """)) == ["true running three"])
        expectDiagnostics("""
            let n = 3
            if case 1️⃣let x = n { print(x) }
            """, ["1️⃣": "'case' in a condition here matches one value, without bindings or ranges"])
    }

    /// An enum that conforms to Error stays an error type beside a plain one (verify: 1 of 1 in
    /// 50 runs).
    @Test func errorEnumsAreStillErrors() throws {
        #expect(try outcomeSet(explore("""
            enum Phase { case idle, failed }
            enum LoadError: Error { case failed }
            actor Loader {
                var phase: Phase = .idle
                func load() throws {
                    phase = .failed
                    throw LoadError.failed
                }
            }
            let loader = Loader()
            do {
                try await loader.load()
            } catch LoadError.failed {
                print("caught", await loader.phase)
            }
            """)) == ["caught failed"])
    }

    /// Associated values, members besides cases, a switch that misses a case, and printing an
    /// enum where Swift shows its module's name are refused at their place.
    @Test func formsOutsideTheSubsetAreRefused() {
        expectDiagnostics("""
            enum Result2 { case ok1️⃣(Int), failed }
            """, ["1️⃣": "an enum case with associated values is outside the supported subset"])
        expectDiagnostics("""
            enum P { case a
                2️⃣var x: Int { 1 }
            }
            """, ["2️⃣": "members besides cases are outside the supported subset"])
        expectDiagnostics("""
            enum P { case a, b }
            let p = P.a
            3️⃣switch p {
            case .a: print(1)
            }
            print(4️⃣[P.a, .b])
            let o: P? = .a
            print(5️⃣o)
            debugPrint(6️⃣p)
            """, [
                "3️⃣": "switch must be exhaustive",
                "4️⃣": "with its module's name",
                "5️⃣": "with its module's name",
                "6️⃣": "with its module's name",
            ])
    }
}
