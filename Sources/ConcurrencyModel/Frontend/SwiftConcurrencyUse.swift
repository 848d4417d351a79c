import SwiftParser
import SwiftSyntax

/// Whether a snippet is written with Swift concurrency, from its tokens alone: it decides the
/// language mode a snippet that states none is compiled in (Swift 6 for Swift concurrency, where
/// top-level globals are on the main actor; Swift 5 for GCD, as a Playground accepts it), so
/// the model, `verify` and the live runs must all ask this one place.
public enum SwiftConcurrencyUse {
    /// Names that only Swift-concurrency code uses.
    static let names: Set<String> = [
        "Task", "TaskGroup", "ThrowingTaskGroup", "DiscardingTaskGroup", "MainActor", "AsyncStream", "AsyncThrowingStream",
        "withTaskGroup", "withThrowingTaskGroup", "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup",
        "withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation", "withUnsafeThrowingContinuation",
        "withTaskCancellationHandler", "CheckedContinuation", "UnsafeContinuation", "TaskPriority", "TaskLocal",
    ]

    /// Any `async`, `await`, `actor`, `nonisolated`, or a name of Swift concurrency's API.
    public static func found(in tree: some SyntaxProtocol) -> Bool {
        tree.tokens(viewMode: .sourceAccurate).contains { token in
            switch token.tokenKind {
            case .keyword(.async), .keyword(.await), .keyword(.actor), .keyword(.nonisolated): true
            case .identifier(let name): names.contains(name)
            default: false
            }
        }
    }

    public static func found(in code: String) -> Bool {
        found(in: Parser.parse(source: code))
    }
}

extension LanguageMode {
    /// A puzzle's mode when it states none: Swift 6 for Swift-concurrency snippets (top-level code
    /// and its globals on the main actor, data races compile errors), Swift 5 for the GCD ones,
    /// which compile as a Playground would accept them.
    public static func defaultMode(for code: String) -> LanguageMode {
        LanguageMode(swiftVersion: SwiftConcurrencyUse.found(in: code) ? 6 : 5)
    }

    /// The mode stated (a question's `mode:`, `--mode`), else the default for the code.
    public static func mode(_ stated: LanguageMode?, for code: String) -> LanguageMode {
        stated ?? defaultMode(for: code)
    }
}
