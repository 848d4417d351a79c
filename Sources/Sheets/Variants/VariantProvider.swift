import Quiz

/// Supplies the question a variant asks in place of a bank question. The bank's own questions
/// are the default; `--generated` will plug in the puzzle generator here, so that each variant
/// gets its own generated twin of every trace puzzle while the key stays exact (every answer is
/// computed from whatever question the variant ends up asking).
public protocol VariantProvider {
    /// The question variant `variant` (1-based) asks instead of `question`, or nil to ask
    /// `question` itself. `seed` is the variant's seed mixed with the question's place, so a
    /// generator that uses it gives the same files for the same `--seed`.
    func question(replacing question: Question, inVariant variant: Int, seed: UInt64) throws -> Question?
}

/// Every variant asks the bank's questions as they are (only their order and options change).
public struct BankQuestionsOnly: VariantProvider {
    public init() {}

    public func question(replacing question: Question, inVariant variant: Int, seed: UInt64) throws -> Question? {
        nil
    }
}

/// A provider made of a closure, for callers that need no type of their own.
public struct VariantProviding: VariantProvider {
    let replace: (Question, Int, UInt64) throws -> Question?

    public init(_ replace: @escaping (Question, Int, UInt64) throws -> Question?) {
        self.replace = replace
    }

    public func question(replacing question: Question, inVariant variant: Int, seed: UInt64) throws -> Question? {
        try replace(question, variant, seed)
    }
}
