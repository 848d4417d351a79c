/// Where the drill's answers come from: libedit on a terminal, plain lines from a pipe.
protocol LineInput: AnyObject {
    /// The next line without its newline; `.interrupted` for Ctrl-C (the line is dropped);
    /// `.end` for Ctrl-D on an empty line or the end of input.
    func readLine(prompt: String) -> LineResult
    /// Remembers a line in the history (and its file, if any).
    func remember(_ line: String)
    /// Called with the text before the cursor, returns completions for the word being typed.
    var completer: ((String) -> [String])? { get set }
    /// Whether prompts and output go to a person at a terminal.
    var isInteractive: Bool { get }
}

enum LineResult: Equatable {
    case line(String)
    case interrupted
    case end
}

/// Reads standard input line by line, for scripts and tests: no line editing, no escape codes.
final class PlainLineInput: LineInput {
    var completer: ((String) -> [String])?
    let isInteractive = false
    private let echoPrompts: Bool

    init(echoPrompts: Bool = true) {
        self.echoPrompts = echoPrompts
    }

    func readLine(prompt: String) -> LineResult {
        if echoPrompts {
            print(prompt, terminator: "")
        }
        guard let line = Swift.readLine(strippingNewline: true) else {
            if echoPrompts { print("") }
            return .end
        }
        if echoPrompts { print(line) }
        return .line(line)
    }

    func remember(_ line: String) {}
}
