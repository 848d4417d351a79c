/// Which characters can begin or end a line matched by one of `PrintableLines`' patterns: the
/// notation may read `[` at the start of a word as an outcome's bracket only when no printable
/// line starts with one (`print(i)` of an integer never does; `print(list)` does).
///
/// Reads the regular expressions `PrintableLines` builds, which use only groups `(?:…|…)`,
/// classes `[…]`, escapes `\x`, `.` and the quantifiers `?`, `*`, `+`. Anything it does not
/// understand counts as "any character", so an unknown pattern keeps brackets as lines, as
/// before.
struct PatternEdges: Sendable {
    /// The characters a match can begin or end with; nil when any character can.
    typealias Characters = Set<Character>?

    private indirect enum Atom: Sendable {
        case character(Character)
        case any
        case set(Set<Character>?)
        case group([[Item]])
    }

    private struct Item: Sendable {
        var atom: Atom
        var optional: Bool
    }

    private let alternatives: [[Item]]?

    init(_ pattern: String) {
        var parser = Parser(characters: Array(pattern))
        alternatives = parser.alternation().flatMap { parser.isAtEnd ? $0 : nil }
    }

    /// Whether some match may start with `character`.
    func mayStart(with character: Character) -> Bool {
        guard let alternatives else { return true }
        return Self.contains(Self.edge(of: alternatives, first: true), character)
    }

    /// Whether some match may end with `character`.
    func mayEnd(with character: Character) -> Bool {
        guard let alternatives else { return true }
        return Self.contains(Self.edge(of: alternatives, first: false), character)
    }

    private static func contains(_ edge: (characters: Characters, empty: Bool), _ character: Character) -> Bool {
        edge.characters.map { $0.contains(character) } ?? true
    }

    /// The first (or last) characters of an alternation, and whether it can match nothing.
    private static func edge(of alternatives: [[Item]], first: Bool) -> (characters: Characters, empty: Bool) {
        var characters: Set<Character> = []
        var empty = false
        for sequence in alternatives {
            let (found, canBeEmpty) = edge(of: sequence, first: first)
            guard let found else { return (nil, true) }
            characters.formUnion(found)
            empty = empty || canBeEmpty
        }
        return (characters, empty)
    }

    private static func edge(of sequence: [Item], first: Bool) -> (characters: Characters, empty: Bool) {
        var characters: Set<Character> = []
        for item in first ? sequence : sequence.reversed() {
            let (found, canBeEmpty) = edge(of: item.atom, first: first)
            guard let found else { return (nil, true) }
            characters.formUnion(found)
            if !(canBeEmpty || item.optional) { return (characters, false) }
        }
        return (characters, true)
    }

    private static func edge(of atom: Atom, first: Bool) -> (characters: Characters, empty: Bool) {
        switch atom {
        case .character(let character): ([character], false)
        case .any: (nil, false)
        case .set(let set): (set, false)
        case .group(let alternatives): edge(of: alternatives, first: first)
        }
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        var isAtEnd: Bool { index >= characters.count }

        /// `a|b|…` up to a `)` or the end; nil for what this reader does not know.
        mutating func alternation() -> [[Item]]? {
            var alternatives: [[Item]] = [[]]
            while index < characters.count {
                let character = characters[index]
                if character == ")" { break }
                if character == "|" {
                    index += 1
                    alternatives.append([])
                    continue
                }
                guard let atom = atom() else { return nil }
                var optional = false
                if index < characters.count, "?*+".contains(characters[index]) {
                    optional = characters[index] != "+"
                    index += 1
                }
                alternatives[alternatives.count - 1].append(Item(atom: atom, optional: optional))
            }
            return alternatives
        }

        private mutating func atom() -> Atom? {
            let character = characters[index]
            index += 1
            switch character {
            case ".":
                return .any
            case "\\":
                guard index < characters.count else { return nil }
                let escaped = characters[index]
                index += 1
                return escaped.isLetter || escaped.isNumber ? .set(nil) : .character(escaped)
            case "[":
                return characterClass()
            case "(":
                guard characters[index...].starts(with: ["?", ":"]) else { return nil }
                index += 2
                guard let inside = alternation(), index < characters.count, characters[index] == ")" else { return nil }
                index += 1
                return .group(inside)
            case "^", "$", "{", "}", ")", "|", "?", "*", "+":
                return nil
            default:
                return .character(character)
            }
        }

        /// `[0-9]`, `[a-z_]`: the characters it holds; a negated class is any character.
        private mutating func characterClass() -> Atom? {
            var set: Set<Character> = []
            var negated = false
            if index < characters.count, characters[index] == "^" {
                negated = true
                index += 1
            }
            while index < characters.count, characters[index] != "]" {
                var character = characters[index]
                index += 1
                if character == "\\" {
                    guard index < characters.count else { return nil }
                    character = characters[index]
                    index += 1
                    if character.isLetter { return skipClass() }
                }
                if index + 1 < characters.count, characters[index] == "-", characters[index + 1] != "]",
                   let low = character.unicodeScalars.first?.value, let high = characters[index + 1].unicodeScalars.first?.value, low <= high {
                    guard high - low < 512 else { return skipClass() }
                    for value in low...high { if let scalar = Unicode.Scalar(value) { set.insert(Character(scalar)) } }
                    index += 2
                } else {
                    set.insert(character)
                }
            }
            guard index < characters.count else { return nil }
            index += 1
            return .set(negated ? nil : set)
        }

        /// A class too wide to list: any character, the rest of it skipped.
        private mutating func skipClass() -> Atom? {
            while index < characters.count, characters[index] != "]" { index += 1 }
            guard index < characters.count else { return nil }
            index += 1
            return .set(nil)
        }
    }
}
