import ArgumentParser
import Quiz

/// `--tag` and `--level`, shared by the commands that choose questions from the bank.
struct FilterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only questions of this topic (repeat for several: all must match; 'gcdquiz tags' lists them).", valueName: "topic"))
    var tag: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only questions of this level (1 to 4).", valueName: "n"))
    var level: Int?

    func validate() throws {
        if let level, !Question.levels.contains(level) {
            throw ValidationError("--level must be 1, 2, 3 or 4")
        }
        // Every question is tagged with topics of the taxonomy, so any other word matches nothing:
        // say which topic was meant instead of "no question matches".
        for tag in tag where Topic.named(tag) == nil {
            throw ValidationError(Topic.unknownMessage(tag))
        }
    }
}
