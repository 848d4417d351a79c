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

    /// Pauses (or not) at the point identified by `point` (a block, a statement, a phase).
    func pause(at point: UInt64) {
        guard chance > 0 else { return }
        let roll = Self.mix(runSeed ^ (point &* 0xD6E8_FEB8_6659_FD93))
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
