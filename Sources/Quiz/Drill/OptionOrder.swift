/// The order a choice question's options are shown in a drill: shuffled, so that the learner
/// recognises the right option by what it says and not by where it stands, yet reproducible
/// from the session's seed (`--seed`) and independent of which questions came before.
public enum OptionOrder {
    /// The options' indices in the order shown: letter `a` is `order[0]`.
    public static func shuffled(_ question: Question, seed: UInt64) -> [Int] {
        var generator = SeededGenerator(seed: seed ^ stableHash(question.id))
        return Array(question.options.indices).shuffled(using: &generator)
    }

    /// FNV-1a of the id: Swift's own hash values change from one process to the next.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
