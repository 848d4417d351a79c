/// The order a choice question's options are shown in, everywhere (`show`, `check`, the drill,
/// sheets): a shuffle of the file's order that depends on the question's id and a seed, never on
/// which options are right, so that no position carries information. Without a seed the order is
/// still fixed per question, so that `check` reads letters as `show` printed them.
public enum OptionOrder {
    /// The seed `show` and `check` use when none is given.
    public static let defaultSeed: UInt64 = 0

    /// The options' indices in the order shown: letter `a` is `order[0]`.
    public static func shuffled(_ question: Question, seed: UInt64 = defaultSeed) -> [Int] {
        if question.keepsOptionOrder { return Array(question.options.indices) }
        var generator = SeededGenerator(seed: stableHash(Array(question.id.utf8) + withUnsafeBytes(of: seed.littleEndian, Array.init)))
        // Fisher–Yates spelled out: the standard library's shuffle may change between Swift
        // releases, and a sheet printed today must match the key checked tomorrow.
        var order = Array(question.options.indices)
        for index in order.indices.reversed() where index > 0 {
            let other = Int(generator.next() % UInt64(index + 1))
            order.swapAt(index, other)
        }
        return order
    }

    /// FNV-1a of the id and the seed: Swift's own hash values change from one process to the next.
    static func stableHash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
