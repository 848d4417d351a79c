import Quiz

/// A stable fingerprint of what a question asks, so that an edited question is a new card while
/// a reworded title or explanation is not. The same in every process and on every machine
/// (Swift's `Hasher` is seeded per process, so it cannot be used).
public enum ContentHash {
    /// What identifies the question to the learner: a trace puzzle's code; a choice question's
    /// text and options with which are right; a short question's text; a schedule question's code
    /// and goal; a line question's code and text. Trailing spaces and
    /// trailing blank lines do not count.
    public static func of(_ question: Question) -> String {
        switch question.kind {
        case .trace:
            return of(code: question.code ?? "")
        case .choice:
            let options = question.options.map { ($0.isCorrect ? "+ " : "- ") + normalized($0.text) }
            return hash(["choice", normalized(question.prompt ?? "")] + options)
        case .short:
            return hash(["short", normalized(question.prompt ?? "")])
        case .schedule:
            return hash(["schedule", normalized(question.code ?? ""), normalized(question.goal ?? "")])
        case .line:
            return hash(["line", normalized(question.code ?? ""), normalized(question.prompt ?? "")])
        }
    }

    /// A generated puzzle's card: its code alone.
    public static func of(code: String) -> String {
        hash(["trace", normalized(code)])
    }

    static func normalized(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            while line.last == " " || line.last == "\t" || line.last == "\r" { line = line.dropLast() }
            return String(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// FNV-1a, 64 bits, over the parts' UTF-8 separated by a zero byte, as 16 hex digits.
    static func hash(_ parts: [String]) -> String {
        var value = offsetBasis
        for (index, part) in parts.enumerated() {
            if index > 0 { value = mix(value, 0) }
            for byte in part.utf8 { value = mix(value, byte) }
        }
        return hex(value)
    }

    /// FNV-1a, 64 bits, over `bytes`, as 16 hex digits: a checksum of a file gcdquiz wrote.
    static func hash(bytes: some Sequence<UInt8>) -> String {
        hex(bytes.reduce(offsetBasis, mix))
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    private static func mix(_ value: UInt64, _ byte: UInt8) -> UInt64 {
        (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
