/// A failure the executable reports in one line, with the exit code it means.
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32

    /// Bad input: the user can fix it.
    static func badInput(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    /// Something the user did not cause: a budget exhausted, an unexpected outcome, a bug.
    static func unexpected(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }
}
