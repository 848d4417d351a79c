import ConcurrencyModel

/// `solve ID|FILE` with `--json`, `--witness`, `--cores N`, `--platform P` or `--bank PATH`, read
/// without ArgumentParser: scripts call solve in a loop, and ArgumentParser's parse of even
/// `SolveCommand` alone (`GCDQuiz.parseCommandLine`) reflected on its option groups and printed
/// its defaults, each new type and protocol a scan of every protocol conformance in the binary:
/// 4 of a trivial solve's 9.5 ms. Any other command line, or any of these it would not take
/// exactly so (a repeated option, a value out of range, help, `--name=value`), returns nil and
/// goes through ArgumentParser, whose messages and usage stay the only ones.
extension SolveRun {
    init?(plainArguments arguments: [String]) {
        guard arguments.first == SolveCommand.configuration.commandName else { return nil }
        var target: String?
        var json = false, witness = false
        var cores: Int?, platform: Platform?, bankPath: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--json":
                guard !json else { return nil }
                json = true
            case "--witness":
                guard !witness else { return nil }
                witness = true
            case "--cores":
                // As MachineOptions reads and checks it (Int's ExpressibleByArgument, validate()).
                guard cores == nil, let value = rest.popFirst(), let count = Int(value), (1...1024).contains(count) else { return nil }
                cores = count
            case "--platform":
                guard platform == nil, let value = rest.popFirst(), let named = Platform(rawValue: value) else { return nil }
                platform = named
            case "--bank":
                guard bankPath == nil, let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                bankPath = value
            default:
                guard target == nil, !argument.isEmpty, !argument.hasPrefix("-") else { return nil }
                target = argument
            }
        }
        guard let target else { return nil }
        // ExplorationOptions' and ModeOptions' defaults.
        let budgets = ExplorationOptions.defaults
        self.init(target: target, bankPath: bankPath, mode: nil, machine: Machine(cores: cores, platform: platform ?? .apple),
                  explorer: budgets.explorer, maxSeconds: budgets.maxSeconds, json: json, witness: witness)
    }
}
