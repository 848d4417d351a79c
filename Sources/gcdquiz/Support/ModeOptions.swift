import ArgumentParser
import ConcurrencyModel

/// `--mode`: the Swift language mode an answer is for. An upcoming feature can move code to
/// another executor (NonisolatedNonsendingByDefault runs a plain `async` function on its
/// caller's actor, as Xcode 26's Approachable Concurrency setting does), so the answer depends
/// on it.
struct ModeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The Swift language mode to answer for: \(LanguageMode.accepted) (default: the question's mode:, else 6 with Swift concurrency, 5 without).",
        valueName: "mode"))
    var mode: LanguageMode?
}

extension LanguageMode: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
