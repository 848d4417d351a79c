import Quiz

/// A seeded source of random numbers (SplitMix64): the same seed draws the same puzzles on every
/// machine and toolchain, which `--seed` and the sheets' per-student variants rely on. Only its
/// own arithmetic is used (not the standard library's `random(in:using:)`, whose algorithm may
/// change between Swift versions).
public struct SeededRandom: Sendable {
    /// The numbers themselves: the drill's SplitMix64, so one algorithm serves every `--seed`.
    private var source: SeededGenerator

    public init(seed: UInt64) {
        source = SeededGenerator(seed: seed)
    }

    public mutating func next() -> UInt64 {
        source.next()
    }

    /// A seed for the `index`-th item made from `seed`, independent of how many numbers the
    /// items before it drew.
    public static func derive(_ seed: UInt64, _ index: Int) -> UInt64 {
        var mixer = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        return mixer.next()
    }

    /// A number below `bound` (> 0), without modulo bias.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        let limit = UInt64(bound)
        let zone = UInt64.max - UInt64.max % limit
        while true {
            let value = next()
            if value < zone { return Int(value % limit) }
        }
    }

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// True with the given probability (in percent, 0…100).
    public mutating func percent(_ chance: Int) -> Bool {
        below(100) < chance
    }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// The items in a random order (Fisher–Yates).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var copy = items
        var index = copy.count - 1
        while index > 0 {
            copy.swapAt(index, below(index + 1))
            index -= 1
        }
        return copy
    }
}
