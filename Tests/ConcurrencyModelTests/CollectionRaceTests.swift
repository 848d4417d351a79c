import ConcurrencyModel
import Testing

/// A race on an array's (or a long string's) copy-on-write buffer may crash the process
/// (`DeadlockReason.memoryCorrupted`); a race on an integer only loses updates.
@Suite struct CollectionRaceTests {
    /// Three blocks append to one array: lost updates, and a crash once the array has a buffer
    /// (swiftc, 600 runs: 2 crashed with SIGSEGV, which the model missed before).
    @Test func appendsFromThreeThreadsMayCrash() throws {
        let exploration = try explore("""
            var numbers = [Int]()
            let group = DispatchGroup()
            for i in 0..<3 {
                DispatchQueue.global().async(group: group) {
                    numbers.append(i)
                }
            }
            group.wait()
            print(numbers.count)
            """)
        #expect(outcomeSet(exploration) == ["1", "2", "3", "deadlock"])
        let crash = exploration.reports.first { $0.outcome.end == .deadlock }
        guard case .memoryCorrupted(let race)? = crash?.deadlock else {
            Issue.record("the crash is not a memory corruption: \(String(describing: crash))")
            return
        }
        #expect(exploration.narrator.name(race.variable) == "numbers")
        #expect(exploration.narrator.words(for: .memoryCorrupted(race)).contains("copy-on-write buffer"))
    }

    /// The same race on an Int loses updates but cannot crash: its value is stored in place.
    @Test func integersRaceWithoutCrashing() throws {
        #expect(try outcomeSet(explore("""
            var count = 0
            let group = DispatchGroup()
            for _ in 0..<2 {
                DispatchQueue.global().async(group: group) {
                    count += 1
                }
            }
            group.wait()
            print(count)
            """)) == ["1", "2"])
    }
}
