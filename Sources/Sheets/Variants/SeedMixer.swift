import Quiz

/// Derives independent seeds from one: a variant's seed from the sheet's, a question's from its
/// variant's. Built on Quiz's `SeededGenerator`, so that nothing depends on Swift's per-process
/// hash values.
enum SeedMixer {
    static func mix(_ seed: UInt64, _ part: UInt64) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (part &* 0x9E37_79B9_7F4A_7C15))
        return generator.next()
    }

    static func mix(_ seed: UInt64, _ label: String) -> UInt64 {
        label.utf8.reduce(mix(seed, UInt64(label.utf8.count))) { mix($0, UInt64($1)) }
    }
}
