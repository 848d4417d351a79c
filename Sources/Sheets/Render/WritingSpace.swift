import ConcurrencyModel
import Quiz

/// How many ruled lines a "write every outcome" question gets: room for every outcome the model
/// allows, written out by hand, with some to spare, rounded up to one of a few sizes. The space
/// must not tell the student how many outcomes there are (that is half the question): the sizes
/// are far apart, so 8 lines hold anything from 3 to 6 short outcomes, and a long outcome takes
/// as much room as two short ones.
enum WritingSpace {
    /// The sizes a question's space is rounded up to.
    static let sizes = [4, 8, 12, 16, 24, 32]
    /// Characters of handwriting a ruled line holds (180 mm at about 3.5 mm a character).
    static let charactersPerLine = 48

    /// The ruled lines for a written answer made of these outcomes.
    static func lines(for outcomes: [Outcome]) -> Int {
        let needed = outcomes.map { outcome in
            let written = AnswerNotation.render(Outcome(lines: outcome.lines, end: .finished)).count + " deadlock".count
            return (written + charactersPerLine - 1) / charactersPerLine
        }.reduce(0, +)
        // A third more, at least two lines, for crossings-out and a second thought.
        let wanted = needed + max(2, (needed + 2) / 3)
        return sizes.first { $0 >= wanted } ?? sizes[sizes.count - 1]
    }
}
