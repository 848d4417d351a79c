import ArgumentParser
import Foundation
import Quiz

/// `--bank PATH`, shared by every command that reads the question bank.
struct BankOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The question folder (default: $GCDQUIZ_BANK, the nearest Questions/ folder, or the installed one).", valueName: "path"))
    var bank: String?

    /// The whole bank, or a clear error when there is none. A bank with broken files still loads.
    /// `.eager` compiles every puzzle (and leaves out those that do not compile); commands that
    /// use only some of them ask for `.onDemand`.
    func load(compilation: BankLoader.Compilation = .eager) throws -> Bank {
        try requiredSource().load(compilation: compilation)
    }

    /// Where the bank is, or a clear error when there is none.
    func requiredSource() throws -> BankSource {
        guard let source = try source() else {
            throw CommandFailure.badInput("no question bank found: run from the gcdquiz checkout, pass --bank PATH, set \(BankLocator.environmentVariable), or install with 'make install'")
        }
        return source
    }

    /// Where the bank is, if anywhere; commands given a file do not need it. A bank named
    /// outright (`--bank`, `GCDQUIZ_BANK`) that does not exist is an error, not an empty bank.
    func source() throws -> BankSource? {
        let environment = ProcessInfo.processInfo.environment
        guard let path = BankLocator.locate(explicit: bank, environment: environment) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let named = bank != nil ? "--bank" : BankLocator.environmentVariable
            throw CommandFailure.badInput("no question bank at '\(path)' (from \(named)): no such file or folder")
        }
        return BankSource(root: path)
    }
}
