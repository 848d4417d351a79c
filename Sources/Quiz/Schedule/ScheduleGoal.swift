import Foundation
import ConcurrencyModel

/// Reads a goal for the scheduler's seat, as `--goal`, a question's `goal:` and the screen's `g`
/// take it: `deadlock` (or `hang`), `crash` and `race` alone name a kind of ending (or a data
/// race) whatever is printed; anything else is one outcome in the answer notation, read against
/// what the snippet can print (`2 1 4 3`, `1 4 deadlock`).
public enum ScheduleGoal {
    /// The words that name a goal of their own, with what each asks.
    public static let words: [(word: String, goal: PlayGoal)] = [("deadlock", .deadlock), ("hang", .deadlock), ("crash", .crash), ("race", .race)]

    public static func read(_ text: String, printable: PrintableLines) throws(AnswerError) -> PlayGoal {
        let word = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if let named = words.first(where: { $0.word == word }) { return named.goal }
        let outcomes = try AnswerNotation.parse(text, lines: printable)
        guard outcomes.count == 1, let outcome = outcomes.first else {
            throw AnswerError("a goal is one outcome (no '|'), or one of deadlock, crash, race")
        }
        return .outcome(outcome)
    }

    /// The goal written back in the form `read` takes.
    public static func text(_ goal: PlayGoal) -> String {
        switch goal {
        case .outcome(let outcome): AnswerNotation.render(outcome)
        case .deadlock: "deadlock"
        case .crash: "crash"
        case .race: "race"
        }
    }
}
