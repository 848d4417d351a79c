import Foundation
import Quiz

/// Turns the bank's snippets into hostile ones, the same ones for the same seed, so that a failure
/// found once is found again on every run and every machine.
struct SnippetMutator {
    /// One mutated snippet: its bytes (not always UTF-8) and how it was made, for the failure message.
    struct Mutant {
        var name: String
        var bytes: [UInt8]
        var recipe: [String]

        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    private var random: SeededGenerator
    private let seeds: [(name: String, code: String)]

    init(seeds: [(name: String, code: String)], seed: UInt64) {
        precondition(!seeds.isEmpty, "no snippets to mutate")
        self.seeds = seeds
        random = SeededGenerator(seed: seed)
    }

    /// Numbers at and beyond the edges of what the model computes with.
    static let edgeNumbers = [
        "9223372036854775807", "-9223372036854775808", "Int.max", "Int.min", "(Int.min)", "1e300", "-1e300", "1e-300",
        "0", "-1", "0.0", "99999999999999999999", "0x7fffffffffffffff", "1_000_000_000", ".infinity", "Double.nan",
        "-0", "100000", "(9223372036854775807 - 1)",
    ]

    /// Characters that editors hide, that Swift treats oddly, or that decoding produces.
    static let oddCharacters = [
        "\u{FEFF}", "\u{2028}", "\u{2029}", "\u{0C}", "\u{0B}", "\u{00}", "\u{FFFD}", "\u{200B}", "\u{202E}", "\u{A0}",
        "\u{3000}", "\u{1B}", "\u{7F}", "\u{85}", "é", "e\u{301}", "\u{1F600}", "\t", "\r", "\r\n", "\\", "\"", "\"\"\"", "`",
    ]

    /// Pieces of the supported subset (and just outside it) to drop into a snippet.
    static let tokens = [
        "{", "}", "(", ")", "[", "]", ",", ".", ":", "=", "+=", "-", "*", "/", "%", "...", "..<", "&&", "!", "?", "$0",
        "let", "var", "for", "in", "if", "else", "while", "func", "return", "try", "await", "defer", "guard", "switch",
        "print(", "sync {", "async {", ".async(flags: .barrier) {", "DispatchQueue.main.sync {", "DispatchQueue.global().async {",
        "wait()", "signal()", ".now() + ", "asyncAfter(deadline: .now() + 1) {", "sleep(1)", "group.enter()", "group.leave()",
        "OperationQueue()", "addDependency(", "DispatchSemaphore(value: 0)", "DispatchGroup()", "#if", "@escaping", "\"a\" + ",
        "x", "i", "serialQueue", "concurrentQueue", "queue", "semaphore",
    ]

    mutating func mutants(_ count: Int) -> [Mutant] {
        (0..<count).map { index in
            let seed = seeds[random.below(seeds.count)]
            var mutant = Mutant(name: String(format: "fuzz-%03d", index), bytes: Array(seed.code.utf8), recipe: ["from \(seed.name)"])
            for _ in 0...random.below(3) {
                mutate(&mutant)
            }
            return mutant
        }
    }

    private mutating func mutate(_ mutant: inout Mutant) {
        var bytes = mutant.bytes
        let step: String
        switch random.below(14) {
        case 0:
            let at = random.below(max(bytes.count, 1))
            let byte = UInt8(truncatingIfNeeded: random.next())
            if bytes.isEmpty { bytes = [byte] } else { bytes[at] = byte }
            step = "byte \(at) := \(byte)"
        case 1:
            var pieces = Self.tokenize(bytes)
            guard !pieces.isEmpty else { return }
            let at = random.below(pieces.count)
            step = "delete token \(at) '\(String(decoding: pieces[at], as: UTF8.self))'"
            pieces.remove(at: at)
            bytes = pieces.flatMap { $0 }
        case 2:
            var pieces = Self.tokenize(bytes)
            guard !pieces.isEmpty else { return }
            let at = random.below(pieces.count)
            let times = 1 + random.below(3)
            step = "duplicate token \(at) '\(String(decoding: pieces[at], as: UTF8.self))' ×\(times)"
            pieces.insert(contentsOf: Array(repeating: pieces[at], count: times), at: at)
            bytes = pieces.flatMap { $0 }
        case 3:
            let other = seeds[random.below(seeds.count)]
            let ours = Self.lines(bytes)
            let theirs = Self.lines(Array(other.code.utf8))
            let cut = random.below(ours.count + 1)
            let from = random.below(theirs.count + 1)
            step = "lines ..<\(cut) + \(other.name) lines \(from)..."
            bytes = (ours[..<cut] + theirs[from...]).flatMap { $0 }
        case 4:
            let number = Self.edgeNumbers[random.below(Self.edgeNumbers.count)]
            let literals = Self.numberRanges(bytes)
            if literals.isEmpty {
                bytes += Array("print(\(number))\n".utf8)
            } else {
                let range = literals[random.below(literals.count)]
                bytes.replaceSubrange(range, with: Array(number.utf8))
            }
            step = "number := \(number)"
        case 5:
            let depth = [10, 40, 200, 2000][random.below(4)]
            let (open, close) = [("if true {\n", "}\n"), ("serialQueue.async {\n", "}\n"), ("(", ")"), ("[", "]"), ("{", "}"), ("concurrentQueue.sync {\n", "}\n")][random.below(6)]
            if open.hasSuffix("\n") {
                bytes = Array(String(repeating: open, count: depth).utf8) + bytes + Array(String(repeating: close, count: depth).utf8)
            } else {
                bytes += Array("print(\(String(repeating: open, count: depth))1\(String(repeating: close, count: depth)))\n".utf8)
            }
            step = "nest \(depth) × \(open.debugDescription)"
        case 6, 7:
            let odd = Self.oddCharacters[random.below(Self.oddCharacters.count)]
            let at = Self.characterBoundary(in: bytes, near: random.below(bytes.count + 1))
            bytes.insert(contentsOf: Array(odd.utf8), at: at)
            step = "insert \(odd.debugDescription) at \(at)"
        case 8:
            let ending = ["\r\n", "\r", "\u{2028}", "\n\n\n"][random.below(4)]
            bytes = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: ending).utf8)
            step = "line endings := \(ending.debugDescription)"
        case 9:
            let token = Self.tokens[random.below(Self.tokens.count)]
            let at = Self.characterBoundary(in: bytes, near: random.below(bytes.count + 1))
            bytes.insert(contentsOf: Array(" \(token) ".utf8), at: at)
            step = "insert '\(token)' at \(at)"
        case 11:
            let at = Self.characterBoundary(in: bytes, near: random.below(bytes.count + 1))
            step = "truncate at \(at) of \(bytes.count)"
            bytes = Array(bytes[..<at])
        case 12:
            // A loop around the code, or a loop's bound, at a count far beyond any puzzle.
            let count = ["100001", "1_000_000", "9223372036854775807", "Int.max", "(Int.max - 1)", "4294967296"][random.below(6)]
            if random.below(2) == 0 {
                bytes = Array("for _ in 1...\(count) {\n".utf8) + bytes + Array("\n}\n".utf8)
                step = "loop of \(count) around the code"
            } else {
                bytes += Array("for i in 0..<\(count) {\n}\nfor i in 1...\(count) {\n    print(i)\n}\n".utf8)
                step = "loops of \(count) after the code"
            }
        case 13:
            let depth = [3, 9, 40, 200, 2000][random.below(5)]
            bytes += Array(("print(" + String(repeating: "\"\\(", count: depth) + "1" + String(repeating: ")\"", count: depth) + ")\n").utf8)
            step = "interpolations nested \(depth) deep"
        default:
            // An invalid UTF-8 sequence: a lone continuation byte, a truncated or overlong one, a UTF-16 surrogate encoded.
            let invalid: [[UInt8]] = [[0x80], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF]]
            let sequence = invalid[random.below(invalid.count)]
            let at = random.below(bytes.count + 1)
            bytes.insert(contentsOf: sequence, at: at)
            step = "invalid UTF-8 \(sequence) at \(at)"
        }
        mutant.bytes = bytes
        mutant.recipe.append(step)
    }

    /// Words, numbers, runs of blanks and single other bytes: what a token mutation acts on.
    static func tokenize(_ bytes: [UInt8]) -> [[UInt8]] {
        func kind(_ byte: UInt8) -> Int {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...: 0
            case UInt8(ascii: " "), UInt8(ascii: "\t"): 1
            default: 2
            }
        }
        var pieces: [[UInt8]] = []
        for byte in bytes {
            if let last = pieces.last?.last, kind(last) == kind(byte), kind(byte) != 2 {
                pieces[pieces.count - 1].append(byte)
            } else {
                pieces.append([byte])
            }
        }
        return pieces
    }

    /// Lines with their line feeds.
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = [[]]
        for byte in bytes {
            lines[lines.count - 1].append(byte)
            if byte == UInt8(ascii: "\n") { lines.append([]) }
        }
        return lines.last!.isEmpty ? Array(lines.dropLast()) : lines
    }

    /// Where decimal literals are, so a mutation can replace one.
    static func numberRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: " ")
            if let first = start {
                if !isWordByte(byte) {
                    ranges.append(first..<index)
                    start = nil
                }
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), index == 0 || !isWordByte(bytes[index - 1]) {
                start = index
            }
        }
        return ranges
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The nearest position at or before `index` that does not split a UTF-8 sequence.
    static func characterBoundary(in bytes: [UInt8], near index: Int) -> Int {
        var at = min(index, bytes.count)
        while at > 0, at < bytes.count, bytes[at] & 0xC0 == 0x80 { at -= 1 }
        return at
    }
}

extension SeededGenerator {
    /// A number in 0..<bound, the same for the same seed everywhere.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }
}
