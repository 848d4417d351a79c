import Foundation

/// Reads answer lines against a deadline, for the mock interview: the time left is shown in the
/// prompt, warnings come at chosen moments, and running out ends the read with what was typed
/// so far. At a terminal the line is edited with libedit, as in the drill (`EditLineInput`,
/// whose prompt counts down every second); from a pipe, lines are read as they come. Reads
/// standard input itself (never through stdio's buffer, which would hide lines already read
/// from `poll`).
final class TimedLineInput {
    /// The line editor at a terminal; nil when standard input or output is not one.
    private let editor: EditLineInput?
    /// Bytes read but not yet returned as lines (from a pipe).
    private var pending: [UInt8] = []
    private var atEnd = false

    init(editor: EditLineInput?) {
        self.editor = editor
    }

    var isInteractive: Bool { editor != nil }

    /// The next line, or `.timeout` with what was typed at `deadline`. `prompt` gives the prompt
    /// for the seconds left; at each of `warnings` (seconds left) `warn` says so.
    func readLine(deadline: Date, prompt: @escaping (Int) -> String, warnings: [Int], warn: (Int) -> Void) -> TimedLineResult {
        if let editor { return editor.readLine(deadline: deadline, prompt: prompt, warnings: warnings, warn: warn) }
        return readPipe(deadline: deadline, prompt: prompt, warnings: warnings, warn: warn)
    }

    /// A line without a clock (the debrief after the interview), at a terminal only.
    func readPlain(prompt: String) -> LineResult {
        editor?.readLine(prompt: prompt) ?? .end
    }

    /// Keeps an answer in the history, for the up arrow.
    func remember(_ line: String) {
        editor?.remember(line)
    }

    private static func secondsLeft(_ deadline: Date) -> Int { max(Int(deadline.timeIntervalSinceNow.rounded(.up)), 0) }

    // MARK: A pipe

    private func readPipe(deadline: Date, prompt: (Int) -> String, warnings: [Int], warn: (Int) -> Void) -> TimedLineResult {
        Output.write(prompt(Self.secondsLeft(deadline)))
        var warnings = warnings.filter { $0 < Self.secondsLeft(deadline) }.sorted(by: >)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                let text = line.hasSuffix("\r") ? String(line.dropLast()) : line
                Output.write(text + "\n")
                return .line(text)
            }
            if atEnd {
                guard !pending.isEmpty else {
                    Output.write("\n")
                    return .end
                }
                let line = String(decoding: pending, as: UTF8.self)
                pending.removeAll()
                Output.write(line + "\n")
                return .line(line)
            }
            let until = warnings.first.map { deadline.addingTimeInterval(-Double($0)) } ?? deadline
            guard wait(until: until) else {
                if let next = warnings.first, until < deadline {
                    warnings.removeFirst()
                    Output.write("\n")
                    warn(next)
                    Output.write(prompt(Self.secondsLeft(deadline)))
                    continue
                }
                // What came without its newline is what was on the line.
                let typed = String(decoding: pending, as: UTF8.self)
                pending.removeAll()
                Output.write(typed + "\n")
                return .timeout(typed: typed)
            }
            fill()
        }
    }

    /// Waits for input until `deadline`. Returns false when the deadline passed.
    private func wait(until deadline: Date) -> Bool {
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { atEnd = true; return true }
        }
    }

    /// Reads what standard input has; marks the end when it is closed or fails.
    private func fill() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 {
            pending.append(contentsOf: buffer[..<count])
        } else if count == 0 || errno != EINTR {
            atEnd = true
        }
    }
}
