/// Why a sheet or an export cannot be made, said so that the user knows what to change.
public struct SheetError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        /// The user can fix it: filters, counts, formats, an output path (exit code 1).
        case badInput
        /// Not the user's doing: the model ran out of budget, a renderer failed (exit code 2).
        case internalFailure
    }

    public var cause: Cause
    public var message: String

    public init(_ cause: Cause, _ message: String) {
        self.cause = cause
        self.message = message
    }

    public static func badInput(_ message: String) -> SheetError { SheetError(.badInput, message) }
    public static func internalFailure(_ message: String) -> SheetError { SheetError(.internalFailure, message) }

    public var description: String { message }
}
