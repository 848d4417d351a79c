import Foundation

/// How a process that ran a snippet ended: the one classification of endings, for live runs in
/// the interpreter and for snippets compiled by swiftc alike. An ending the snippet causes itself
/// by a trap (a sync onto a queue the thread owns, an unbalanced `leave()`, a failed
/// `dispatchPrecondition`, Foundation stopping a misused operation, a Swift runtime error in the
/// snippet's code) is the model's `deadlock`: the process dies, as the notation's `crash` alias
/// says. `crash` is left for a signal nothing explains, `timeout` for a run over its time limit.
public enum Ending {
    /// How the process died.
    public enum Death: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// Whose code the process runs.
    public enum Runner: Sendable {
        /// gcdquiz's interpreter: only a trap inside an announced call is the snippet's doing.
        case interpreter
        /// The snippet compiled by swiftc: every trap is the snippet's (or the libraries' on its
        /// behalf), since nothing else runs there.
        case compiledSnippet
    }

    /// Ends the message the interpreter prints before it traps for an error in the snippet's own
    /// code (`LiveInterpreter.trap`), as Swift's runtime would: it tells that trap from one in
    /// gcdquiz's own code.
    public static let snippetCodeMarker = "(in the snippet's code)"

    /// The ending and the reason shown beside it.
    public static func classify(_ death: Death, stderr: String, culprit: AnnouncedCall?, runner: Runner) -> (LiveEnd, String) {
        switch death {
        case .exited(0):
            switch runner {
            case .compiledSnippet: return (.finished, "")
            case .interpreter: return (.crash, "the worker exited in the middle of a run" + detail(stderr))
            }
        case .exited(let status):
            return (.crash, "exited with status \(status)" + detail(stderr))
        case .signaled(let signal) where signal == SIGILL || signal == SIGTRAP:
            return trap(signal, stderr: stderr, culprit: culprit, runner: runner)
        case .signaled(let signal) where runner == .compiledSnippet
            && ([SIGSEGV, SIGBUS].contains(signal) || (signal == SIGABRT && heapCorruption(stderr))):
            // The snippet's own memory went bad: in a compiled snippet that is a data race on an
            // array's or a string's buffer (freed under one thread, or freed twice: glibc aborts),
            // which the model lists as a crash where such a race meets (`memoryCorrupted`). A
            // snippet whose model has no such ending still disagrees: its outcome is not there.
            return (.deadlock, "killed by \(signalName(signal)): its memory was corrupted (a data race on an array's or string's buffer)"
                + detail(stderr))
        case .signaled(let signal):
            let place = culprit.map { " in \($0.call.call) at line \($0.line)" } ?? ""
            return (.crash, "killed by \(signalName(signal))\(place)" + detail(stderr))
        }
    }

    /// glibc's words when it finds its heap corrupted and aborts ("free(): double free detected in
    /// tcache 2", "double free or corruption (out)", "malloc(): corrupted top size").
    static func heapCorruption(_ stderr: String) -> Bool {
        stderr.contains("free(): ") || stderr.contains("malloc(): ") || stderr.contains("double free or corruption")
    }

    /// A run that went on past its limit and was killed.
    public static func timeout(after seconds: Double) -> (LiveEnd, String) {
        (.timeout, String(format: "still running after %.1f s, more than its own sleeps and timers take: killed", seconds))
    }

    /// A run stopped at the longest a run may take while it was still making progress: how it
    /// would have ended is unknown (a `timeout` the runner marks late, never an outcome the
    /// model must explain).
    public static func tooSlow(after seconds: Double) -> (LiveEnd, String) {
        (.timeout, String(format: "still going after %.0f s, and still making progress: stopped as too slow to finish here (not a hang)", seconds))
    }

    private static func trap(_ signal: Int32, stderr: String, culprit: AnnouncedCall?, runner: Runner) -> (LiveEnd, String) {
        let place = culprit.map { " in \($0.call.call) at line \($0.line)" } ?? ""
        if let fatal = foundationFatalError(stderr) {
            return (.deadlock, "Foundation stops the process\(place): \(fatal)")
        }
        let libdispatch = message(in: stderr, after: "BUG IN CLIENT OF LIBDISPATCH: ")
        let swift = message(in: stderr, after: "Fatal error: ")
        if let culprit {
            let said = (culprit.call.library == "libdispatch" ? libdispatch : nil) ?? culprit.call.trapMessage
            return (.deadlock, "trap\(place): \(culprit.call.library): \"\(said)\" (\(signalName(signal)))")
        }
        switch runner {
        case .compiledSnippet:
            if let libdispatch { return (.deadlock, "trap: libdispatch: \"\(libdispatch)\" (\(signalName(signal)))") }
            if let swift { return (.deadlock, "trap: Swift runtime error: \"\(swift)\" (\(signalName(signal)))") }
            return (.deadlock, "trap (\(signalName(signal))): a libdispatch or Swift runtime check stopped the program")
        case .interpreter:
            if let swift, swift.hasSuffix(" " + snippetCodeMarker) {
                let error = swift.dropLast(snippetCodeMarker.count + 1)
                return (.deadlock, "trap: Swift runtime error in the snippet's code: \"\(error)\" (\(signalName(signal)))")
            }
            return (.crash, "trap outside the snippet's calls (\(signalName(signal)))" + detail(stderr))
        }
    }

    /// The message of a `fatalError` Foundation raises for a misused Operation (adding one twice,
    /// adding blocks to a started one).
    static func foundationFatalError(_ stderr: String) -> String? {
        let line = firstLine(of: stderr, containing: "Fatal error")
        guard line.contains("Operation.swift"), let range = line.range(of: "Fatal error: ") else { return nil }
        return String(line[range.upperBound...])
    }

    /// What follows `marker` on the first line of `text` holding it.
    static func message(in text: String, after marker: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }),
            let range = line.range(of: marker)
        else { return nil }
        return String(line[range.upperBound...])
    }

    static func detail(_ stderr: String) -> String {
        let line = firstLine(of: stderr, containing: "")
        return line.isEmpty ? "" : ": " + line
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGKILL: "SIGKILL"
        case SIGFPE: "SIGFPE"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    static func firstLine(of text: String, containing needle: String) -> String {
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("=== ") }
        return String(lines.first { needle.isEmpty || $0.contains(needle) } ?? lines.first ?? "")
    }
}
