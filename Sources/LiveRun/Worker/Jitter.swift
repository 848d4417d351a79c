import ConcurrencyModel
import Foundation

/// Small seeded pauses at scheduling points, so that rare interleavings show up in a few hundred
/// runs instead of never. Each run gets its own plan from the seed and its index; each point's
/// pause is a pure function of that plan and the point, so a seed reproduces the same plan.
struct Jitter: Sendable {
    /// Chance, out of 1024, that a point pauses.
    let chance: UInt64
    /// Longest pause in microseconds.
    let longest: UInt64
    let runSeed: UInt64

    init(seed: UInt64, run: Int) {
        runSeed = Self.mix(seed ^ (UInt64(run) &* 0x9E37_79B9_7F4A_7C15))
        // Each run draws its own temperament: mostly calm, sometimes nervous.
        let styles: [(UInt64, UInt64)] = [(0, 0), (128, 20), (256, 60), (512, 150), (768, 400)]
        let style = styles[Int(runSeed % UInt64(styles.count))]
        chance = style.0
        longest = style.1
    }

    /// Pauses (or not) at `point`.
    func pause(at point: JitterPoint) {
        guard chance > 0 else { return }
        let roll = Self.mix(runSeed ^ (point.bits &* 0xD6E8_FEB8_6659_FD93))
        guard roll % 1024 < chance else { return }
        let micros = (roll >> 20) % (longest + 1)
        if micros < 5 {
            sched_yield()
        } else {
            spin(microseconds: micros)
        }
    }

    /// Busy-waits: sleeping has a granularity far coarser than the pauses that matter here.
    private func spin(microseconds: UInt64) {
        let deadline = DispatchTime.now().uptimeNanoseconds + microseconds * 1000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            sched_yield()
        }
    }

    /// SplitMix64's finaliser: a good cheap mixing of 64 bits.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A place in the program where a run may pause: each has its own roll of the dice, the same in
/// every run with the same seed and index.
struct JitterPoint: Hashable, Sendable {
    let bits: UInt64

    /// Before the statement at `index` in `block`.
    static func statement(_ index: Int, in block: BlockID) -> JitterPoint {
        JitterPoint(bits: UInt64(block.index) << 32 | UInt64(index))
    }

    /// Between the read and the write of the assignment at `index` in `block`: where a lost
    /// update happens.
    static func write(_ index: Int, in block: BlockID) -> JitterPoint {
        JitterPoint(bits: UInt64(block.index) << 32 | UInt64(index) | 1 << 31)
    }

    /// As a submitted block (a closure, an operation's execution block) starts running.
    static func start(of block: BlockID) -> JitterPoint {
        JitterPoint(bits: UInt64(block.index) << 32 | 0xFFFF_FFFF)
    }
}
