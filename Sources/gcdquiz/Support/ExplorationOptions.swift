import ArgumentParser
import DispatchModel

/// `--max-states` and `--max-memory`: the explorer's budgets, for commands that explore a snippet.
struct ExplorationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Stop exploring after this many distinct states (default \(Explorer.defaultStateBudget)).", valueName: "n"))
    var maxStates: Int = Explorer.defaultStateBudget

    @Option(name: .long, help: ArgumentHelp("Stop exploring once the search holds this many megabytes (default \(Explorer.defaultMemoryBudget >> 20)).", valueName: "mb"))
    var maxMemory: Int = Explorer.defaultMemoryBudget >> 20

    func validate() throws {
        guard maxStates >= 1 else { throw ValidationError("--max-states must be at least 1") }
        guard (1...(1 << 20)).contains(maxMemory) else { throw ValidationError("--max-memory is in megabytes, from 1 to \(1 << 20)") }
    }

    var explorer: Explorer {
        Explorer(stateBudget: maxStates, memoryBudget: maxMemory << 20)
    }
}
