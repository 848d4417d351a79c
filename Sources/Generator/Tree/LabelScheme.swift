/// How a generated puzzle names what it prints. Renaming the labels of a variant means an answer
/// memorised for the bank puzzle ("1 2 4 3") does not carry over to it.
public enum LabelScheme: String, Hashable, Sendable, CaseIterable {
    /// 1, 2, 3, … in code order, as the slides number their prints.
    case numbers
    /// 1…n in a shuffled order.
    case shuffledNumbers
    /// a, b, c, … in a shuffled order.
    case letters
    /// Short words: red, blue, …
    case colours
    /// Short words: cat, dog, …
    case animals

    static let colourWords = ["red", "blue", "green", "gold", "pink", "grey", "teal", "plum", "navy", "lime"]
    static let animalWords = ["cat", "dog", "owl", "fox", "bee", "elk", "yak", "emu", "ant", "cod"]
    static let letterWords = (0..<12).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }

    /// The tree with its distinct labels renamed (the same label everywhere it appears gets the
    /// same new name), in the order they first appear in the code.
    public func apply(to tree: SnippetTree, random: inout SeededRandom) -> SnippetTree {
        renaming(tree, random: &random).tree
    }

    /// The renamed tree and the renaming itself.
    func renaming(_ tree: SnippetTree, random: inout SeededRandom) -> (tree: SnippetTree, names: [Label: Label]) {
        let distinct = tree.distinctLabels
        let names: [Label]
        switch self {
        case .numbers:
            names = distinct.indices.map { .number($0 + 1) }
        case .shuffledNumbers:
            names = random.shuffled(distinct.indices.map { .number($0 + 1) })
        case .letters:
            names = Array(random.shuffled(Self.letterWords).prefix(distinct.count)).sorted().map(Label.text)
        case .colours:
            names = Array(random.shuffled(Self.colourWords).prefix(distinct.count)).map(Label.text)
        case .animals:
            names = Array(random.shuffled(Self.animalWords).prefix(distinct.count)).map(Label.text)
        }
        guard names.count == distinct.count else { return (tree, [:]) }
        let mapping = Dictionary(uniqueKeysWithValues: zip(distinct, names))
        return (tree.relabelled { mapping[$0] ?? $0 }, mapping)
    }

    /// The schemes that fit a tree: numbers are left out when the code also prints values
    /// (`print(num)`), which a renumbered label could be confused with.
    static func fitting(_ tree: SnippetTree) -> [LabelScheme] {
        let distinct = tree.distinctLabels.count
        var schemes = allCases.filter { scheme in
            switch scheme {
            case .numbers, .shuffledNumbers: !tree.printsValues
            case .letters: distinct <= letterWords.count
            case .colours, .animals: distinct <= colourWords.count
            }
        }
        if schemes.isEmpty { schemes = [.letters] }
        return schemes
    }
}

extension SnippetTree {
    /// Each label once, in the order it first appears in the code.
    public var distinctLabels: [Label] {
        var seen: Set<Label> = []
        return labels.filter { seen.insert($0).inserted }
    }

    /// Whether some print shows a value rather than a label (`print(num)`).
    var printsValues: Bool {
        var found = false
        Self.visit(statements) { statement in
            switch statement {
            case .line(let text): if text.hasPrefix("print(") { found = true }
            case .compound(let clauses, _): if clauses.contains(where: { $0.header.hasPrefix("print(") }) { found = true }
            case .print, .dispatch: break
            }
        }
        return found
    }

    /// The code with its labels renamed to 1, 2, 3… in order of first appearance: two puzzles
    /// with the same canonical source are the same puzzle with other names.
    public var canonicalSource: String {
        let mapping = Dictionary(uniqueKeysWithValues: distinctLabels.enumerated().map { ($0.element, Label.number($0.offset + 1)) })
        return relabelled { mapping[$0] ?? $0 }.source
    }
}
