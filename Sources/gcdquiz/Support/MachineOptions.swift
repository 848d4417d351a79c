import ArgumentParser
import ConcurrencyModel

/// `--cores N` and `--platform`: the machine an answer is for. By default, one with enough cores
/// that no block waits for a thread, running Apple's Foundation: the interview answer, with the
/// outcomes only other machines show listed beside it, labelled.
struct MachineOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Answer for a machine with this many cores (default: enough that no block waits for a thread).", valueName: "n"))
    var cores: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Answer for Apple's Foundation or swift-corelibs-foundation (apple or linux; default apple).", valueName: "platform"))
    var platform: Platform = .apple

    func validate() throws {
        if let cores, !(1...1024).contains(cores) {
            throw ValidationError("--cores takes a number of cores from 1 to 1024")
        }
    }

    var machine: Machine { Machine(cores: cores, platform: platform) }
}

extension Platform: ExpressibleByArgument {}
