import ConcurrencyModel
import SwiftParser
import SwiftSyntax

/// How a snippet runs live: the one place that decides. GCD and OperationQueue snippets run in
/// the IR interpreter (fast to start, its books know every queue and wait); a snippet written
/// with Swift concurrency runs compiled by swiftc into a harness (`CompiledHarness`), on the
/// real concurrency runtime, which no interpreter of the IR can be.
public enum LiveRoute: Sendable, Equatable {
    case interpreter
    case compiled

    /// Decided from the snippet's syntax alone (not from the model, which may refuse it): any
    /// `async`, `await`, `actor`, `nonisolated`, or a name of Swift concurrency's API.
    public static func route(for code: String) -> LiveRoute {
        usesSwiftConcurrency(code) || throwsErrors(code) ? .compiled : .interpreter
    }

    /// Swift errors (`throw`, `try`, `do`/`catch`) run compiled too: the interpreter has no
    /// notion of an error leaving frames.
    public static func throwsErrors(_ code: String) -> Bool {
        Parser.parse(source: code).tokens(viewMode: .sourceAccurate).contains { token in
            switch token.tokenKind {
            case .keyword(.throw), .keyword(.throws), .keyword(.try), .keyword(.catch): true
            default: false
            }
        }
    }

    /// Names that only Swift-concurrency code uses.
    static let concurrencyNames: Set<String> = [
        "Task", "TaskGroup", "ThrowingTaskGroup", "DiscardingTaskGroup", "MainActor", "AsyncStream", "AsyncThrowingStream",
        "withTaskGroup", "withThrowingTaskGroup", "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup",
        "withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation", "withUnsafeThrowingContinuation",
        "withTaskCancellationHandler", "CheckedContinuation", "UnsafeContinuation", "TaskPriority", "TaskLocal",
    ]

    public static func usesSwiftConcurrency(_ code: String) -> Bool {
        let tree = Parser.parse(source: code)
        for token in tree.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .keyword(.async), .keyword(.await), .keyword(.actor), .keyword(.nonisolated):
                return true
            case .identifier(let name) where concurrencyNames.contains(name):
                return true
            default:
                continue
            }
        }
        return false
    }
}

extension LanguageMode {
    /// A puzzle's mode when it states none: Swift 6 for Swift-concurrency snippets (top-level code
    /// and its globals on the main actor, data races compile errors), Swift 5 for the GCD ones,
    /// which compile as a Playground would accept them.
    public static func defaultMode(for code: String) -> LanguageMode {
        LanguageMode(swiftVersion: LiveRoute.usesSwiftConcurrency(code) ? 6 : 5)
    }

    /// The mode stated (a question's `mode:`, `--mode`), else the default for the code.
    public static func mode(_ stated: LanguageMode?, for code: String) -> LanguageMode {
        stated ?? defaultMode(for: code)
    }
}
