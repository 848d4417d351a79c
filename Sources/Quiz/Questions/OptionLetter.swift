/// The one place choice options get their letters: `a` for the first option shown, `b` for the
/// second, and so on (a bank question has a handful; past `z` letters would not be typable, and
/// the parser refuses a question with more than 26 options).
public enum OptionLetter {
    public static let all: [Character] = Array("abcdefghijklmnopqrstuvwxyz")

    /// The letter of the option shown at `position` (0-based).
    public static func letter(_ position: Int) -> String {
        all.indices.contains(position) ? String(all[position]) : "?"
    }

    /// The position a letter stands for (either case), or nil for anything else.
    public static func position(of character: Character) -> Int? {
        let lowered = character.lowercased()
        return lowered.count == 1 ? all.firstIndex(of: Character(lowered)) : nil
    }
}
