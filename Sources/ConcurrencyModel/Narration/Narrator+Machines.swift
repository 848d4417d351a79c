/// The words for the machine an answer is for, and for where an outcome can happen.
extension Narrator {
    /// Where an outcome can happen, or nil when every machine explored shows it: "needs 3 or more
    /// cores", "only with 1 core", "only with 2–3 cores", "only on Apple platforms".
    public func words(for label: MachineLabel) -> String? {
        var parts: [String] = []
        if !label.isOnAnyCoreCount {
            parts.append(Self.cores(label))
        }
        if !label.isOnAnyPlatform {
            parts.append("only on " + label.platforms.map(\.name).joined(separator: " and "))
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private static func cores(_ label: MachineLabel) -> String {
        let ranges = label.coreRanges
        if ranges.count == 1, let range = ranges.first {
            guard let upper = range.max else { return "needs \(range.min) or more cores" }
            return range.min == upper ? "only with \(count(upper))" : "only with \(range.min)–\(count(upper))"
        }
        let counts = ranges.map { range in
            range.max == nil ? "\(range.min) or more" : range.min == range.max ? "\(range.min)" : "\(range.min)–\(range.max!)"
        }
        return "only with " + counts.dropLast().joined(separator: ", ") + " or " + counts.last! + " cores"
    }

    /// "1 core", "3 cores".
    public static func count(_ cores: Int) -> String {
        cores == 1 ? "1 core" : "\(cores) cores"
    }

    /// The machine an exploration answers for, as a header says it: "on any machine", "with
    /// enough cores (3 or more, so that no block waits for a thread)", "on a machine with 2 cores".
    public func machinePhrase(_ exploration: Exploration) -> String {
        let platform = exploration.platforms.count > 1 ? ", \(exploration.machine.platform.name)" : ""
        if let cores = exploration.machine.cores {
            return "on a machine with \(Self.count(cores))" + platform
        }
        if let asked = exploration.requested.cores {
            let alike = exploration.enoughCores == 1 ? "any number of cores answers alike" : "from \(Self.count(exploration.enoughCores)) on, the answer no longer changes"
            return "on a machine with \(Self.count(asked)) (\(alike))" + platform
        }
        if exploration.enoughCores == 1 && exploration.platforms.count == 1 {
            return "on any machine"
        }
        if exploration.enoughCores == 1 {
            return "on any number of cores" + platform
        }
        return "with enough cores (\(exploration.enoughCores) or more, so that no block waits for a thread)" + platform
    }
}
