import ConcurrencyModel

/// A schedule question answered without the screen: the moves' numbers, as the screen numbers
/// them, from the start (`1 1 2 1`, commas allowed), as a piped drill or `check` takes them.
public enum ScheduleAnswer {
    /// The playthrough the moves make, or why they cannot be read or replayed.
    public static func replay(_ text: String, exploration: Exploration, goal: PlayGoal) throws(AnswerError) -> Playthrough {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        let numbers = words.compactMap { Int($0) }
        guard !numbers.isEmpty, numbers.count == words.count else {
            throw AnswerError("a schedule is answered with the moves' numbers, from the start, e.g. 1 1 2 1")
        }
        var play = Playthrough(exploration: exploration, goal: goal)
        for (index, number) in numbers.enumerated() where !play.play(number) {
            let offered = play.moves.count
            throw AnswerError("move \(index + 1) is \(number), but " + (offered == 0 ? "the run has ended there" : "only 1–\(offered) are offered there"))
        }
        return play
    }
}
