import ArgumentParser
import Quiz

/// `--bank PATH`, shared by every command that reads the question bank.
struct BankOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The question folder (default: $GCDQUIZ_BANK, or the nearest Questions/ folder).", valueName: "path"))
    var bank: String?

    /// The bank, or a clear error when there is none. A bank with broken files still loads.
    func load() throws -> Bank {
        guard let path = BankLocator.locate(explicit: bank) else {
            throw CommandFailure.badInput("no question bank found: run from the gcdquiz checkout, pass --bank PATH, or set \(BankLocator.environmentVariable)")
        }
        return BankLoader.load(paths: [path])
    }

    /// The bank if there is one; commands given a file do not need it.
    func loadIfPresent() -> Bank? {
        BankLocator.locate(explicit: bank).map { BankLoader.load(paths: [$0]) }
    }
}
