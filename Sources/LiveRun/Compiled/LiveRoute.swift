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

    public static func usesSwiftConcurrency(_ code: String) -> Bool {
        SwiftConcurrencyUse.found(in: code)
    }
}
