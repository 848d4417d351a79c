import ConcurrencyModel
import LiveRun

/// A live outcome in the answer notation. A long one (`LiveOutcome.elision`) is written as its
/// first lines, what was left out (how many lines, how many in all, the hash that tells two
/// long outcomes apart), and its last lines: a 200,000-line outcome is one short line of text.
public enum LiveNotation {
    /// The notation of `outcome`; with `ending`, a trailing `deadlock` for a run that stopped.
    public static func render(_ outcome: LiveOutcome, ending: Bool = true) -> String {
        let end: End = ending && outcome.end != .finished ? .deadlock : .finished
        guard let elision = outcome.elision else { return AnswerNotation.render(Outcome(lines: outcome.lines, end: end)) }
        let (head, tail) = outcome.ends
        return AnswerNotation.render(Outcome(lines: Array(head), end: .finished)) + " " + gap(elision, lineCount: outcome.lineCount)
            + " " + AnswerNotation.render(Outcome(lines: Array(tail), end: end))
    }

    /// `[… 9,980 more lines: 10,000 in all, hash 0123456789abcdef …]`
    public static func gap(_ elision: LiveOutcome.Elision, lineCount: Int) -> String {
        "[… \(grouped(elision.omitted)) more lines: \(grouped(lineCount)) in all, hash \(hex(elision.digest)) …]"
    }

    public static func hex(_ digest: UInt64) -> String {
        let digits = String(digest, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// 10000 → "10,000".
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
