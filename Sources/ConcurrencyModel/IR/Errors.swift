/// Swift errors in the IR: the error values a snippet throws, `throw`, `do`/`catch`, `try?` and
/// `try!`, and the points where an error a callee (or a cancelled sleep) raised is thrown on in
/// the caller (see the README's Swift-concurrency rules, "Errors").

/// An error value: its type and what `print(error)` shows.
public struct ThrownError: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `CancellationError`, `URLError`, `NSError`, or an `enum … : Error` of the snippet.
    public var type: String
    /// What `print(error)` and `"\(error)"` show (measured with swiftc 6.3 on Linux): `failed`
    /// for `MyError.failed`, `CancellationError()`; for `URLError` and `NSError`, Foundation's
    /// NSError description, which the front end refuses to print (it is Foundation's, per platform).
    public var text: String

    public init(type: String, text: String) {
        self.type = type
        self.text = text
    }

    public static let cancellation = ThrownError(type: "CancellationError", text: "CancellationError()")

    /// The error as the snippet writes it, for explanations: `MyError.failed`,
    /// `CancellationError()`, `URLError(.badURL)`, `NSError(domain: "Test", code: 1)`.
    public var written: String {
        switch type {
        case "CancellationError": return text
        case "URLError": return "URLError(.badURL)"
        case "NSError":
            // The text is `Error Domain=Test Code=1 "(null)"`.
            let parts = text.split(separator: " ")
            guard parts.count >= 2 else { return "NSError" }
            return "NSError(domain: \"\(parts[1].dropFirst("Domain=".count))\", code: \(parts.count > 2 ? parts[2].dropFirst("Code=".count) : "?"))"
        default: return text == "\(type)()" ? text : "\(type).\(text)"
        }
    }

    public var description: String { text }
}

/// `throw`, and the places an error raised elsewhere is thrown on.
public enum ThrowAction: Hashable, Sendable, Codable {
    /// `throw e`.
    case value(Expression)
    /// Just after a call of a throwing function (and after the hop back to the caller's
    /// executor): the error the callee raised, kept in the caller's frame, is thrown on here.
    case pending
    /// Just after `try await Task.sleep(…)`: a sleep that cancellation ended throws
    /// CancellationError (one that ran its time does not, even if the task was cancelled since).
    case sleepCancelled
}

/// `do { body } catch … { }`, and `try? call` / `try! call` as statements: the body runs as a
/// frame; an error thrown inside it (and not caught further in) goes to the first clause that
/// matches; none matching, it is thrown on.
public struct ErrorHandler: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// `do { } catch { }`: the clauses.
        case catches
        /// `try? f()`: the error is dropped.
        case optional
        /// `try! f()`: an error traps ("'try!' expression unexpectedly raised an error").
        case forced
        /// The code after an `async let`: an error thrown there takes the one clause, which
        /// cancels and awaits the child task, then throws the error on (SE-0317).
        case endsAsyncLet
    }

    public var kind: Kind
    public var body: BlockID
    public var clauses: [CatchClause]

    public init(kind: Kind, body: BlockID, clauses: [CatchClause] = []) {
        self.kind = kind
        self.body = body
        self.clauses = clauses
    }
}

/// One `catch` clause: which errors it takes, the name it gives the error, its body.
public struct CatchClause: Hashable, Sendable, Codable {
    public enum Pattern: Hashable, Sendable, Codable {
        /// `catch`, `catch let e`: every error.
        case any
        /// `catch is T`, `catch let e as T`: errors of type T.
        case type(String)
        /// `catch MyError.failed`: that one value.
        case value(ThrownError)

        public func matches(_ error: ThrownError) -> Bool {
            switch self {
            case .any: true
            case .type(let type): error.type == type
            case .value(let value): error == value
            }
        }
    }

    public var pattern: Pattern
    /// `error` in a plain `catch`, `e` in `catch let e as T`.
    public var binding: VariableID?
    public var body: BlockID

    public init(pattern: Pattern, binding: VariableID?, body: BlockID) {
        self.pattern = pattern
        self.binding = binding
        self.body = body
    }
}
