import ArgumentParser

/// `--tag` and `--level`, shared by the commands that choose questions from the bank.
struct FilterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only questions with this tag (repeat for several: all must match).", valueName: "tag"))
    var tag: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only questions of this level (1, 2 or 3).", valueName: "n"))
    var level: Int?

    func validate() throws {
        if let level, !(1...3).contains(level) {
            throw ValidationError("--level must be 1, 2 or 3")
        }
    }
}
