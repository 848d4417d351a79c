import ArgumentParser
import ConcurrencyModel

/// `--max-states`, `--max-memory` and `--max-seconds`: the explorer's budgets, for commands that explore a snippet.
struct ExplorationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Stop exploring after this many distinct states (default \(Explorer.defaultStateBudget)).", valueName: "n"))
    var maxStates: Int = Explorer.defaultStateBudget

    @Option(name: .long, help: ArgumentHelp("Stop exploring once the search holds this many megabytes (default \(Explorer.defaultMemoryBudget >> 20)).", valueName: "mb"))
    var maxMemory: Int = Explorer.defaultMemoryBudget >> 20

    @Option(name: .long, help: ArgumentHelp("Stop exploring after this many seconds, every machine together (default \(Int(Explorer.defaultTimeBudget))).", valueName: "s"))
    var maxSeconds: Double = Explorer.defaultTimeBudget

    func validate() throws {
        guard maxStates >= 1 else { throw ValidationError("--max-states must be at least 1") }
        guard (1...(1 << 20)).contains(maxMemory) else { throw ValidationError("--max-memory is in megabytes, from 1 to \(1 << 20)") }
        guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= 86_400 else { throw ValidationError("--max-seconds takes seconds, more than 0 and at most 86400") }
    }

    var explorer: Explorer {
        Explorer(stateBudget: maxStates, memoryBudget: maxMemory << 20, timeBudget: maxSeconds)
    }
}
