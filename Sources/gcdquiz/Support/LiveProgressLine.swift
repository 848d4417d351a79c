import Foundation
import LiveRun

/// While live runs go on, one line on standard error, rewritten in place: runs done, outcomes
/// seen so far, the time left, and how to stop. Only at a terminal (a pipe or a file gets
/// nothing), and only once the runs have taken more than a second.
final class LiveProgressLine {
    private let total: Int
    private let width: Int?
    private let started = DispatchTime.now().uptimeNanoseconds
    private var done = 0
    private var outcomes: Set<LiveOutcome> = []
    private var lastDrawn: UInt64 = 0
    private var shown = false

    /// Nothing is drawn when `width` is nil (standard error is not a terminal).
    init(total: Int, width: Int?) {
        self.total = total
        self.width = width
    }

    /// For standard error as it is now.
    convenience init(total: Int) {
        var size = winsize()
        let terminal = isatty(STDERR_FILENO) == 1
        let width = terminal ? (ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80) : nil
        self.init(total: total, width: width)
    }

    /// A run ended.
    func record(done: Int, outcome: LiveOutcome) {
        self.done = done
        outcomes.insert(outcome)
        tick()
    }

    /// Redraws, at most ten times a second, once a second has passed.
    func tick() {
        guard let width else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - started >= 1_000_000_000, now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        shown = true
        let text = Self.text(done: done, total: total, outcomes: outcomes.count, elapsed: Double(now - started) / 1e9, width: width - 1)
        Output.write("\r\u{1B}[K" + text, to: .standardError)
    }

    /// Erases the line, if it was drawn, before the results are printed.
    func clear() {
        guard shown else { return }
        Output.write("\r\u{1B}[K", to: .standardError)
        shown = false
    }

    /// The line, at most `width` characters: the outcome count goes first when it does not fit,
    /// then the time left; the way to stop stays.
    static func text(done: Int, total: Int, outcomes: Int, elapsed: Double, width: Int) -> String {
        var left = "time left unknown"
        if done > 0 {
            let seconds = Int((elapsed / Double(done) * Double(total - done)).rounded(.up))
            left = seconds < 100 ? "~\(seconds) s left" : "~\(Int((Double(seconds) / 60).rounded())) min left"
        }
        var parts = ["\(done)/\(total) runs", outcomes == 1 ? "1 outcome" : "\(outcomes) outcomes", left,
                     "Ctrl-C stops and shows what was seen"]
        while parts.joined(separator: " · ").count > width && parts.count > 2 {
            parts.remove(at: 1)
        }
        return String(parts.joined(separator: " · ").prefix(max(width, 1)))
    }
}
