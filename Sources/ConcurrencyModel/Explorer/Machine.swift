/// The machine an answer is for (DESIGN.md, "The machine an answer is for"): libdispatch's worker
/// pools are as wide as the machine's cores, and Apple's Foundation and swift-corelibs-foundation
/// run a BlockOperation's extra blocks differently, so some outcomes exist only on some machines.
public struct Machine: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The cores libdispatch sees, so the width of each worker pool; nil for a machine with enough
    /// cores that no block of the snippet ever waits for a thread (the interview answer).
    public var cores: Int?
    public var platform: Platform

    public init(cores: Int? = nil, platform: Platform = .apple) {
        self.cores = cores
        self.platform = platform
    }

    /// What an interviewer means: enough cores, Apple's Foundation.
    public static let interview = Machine()

    public var description: String {
        let width = cores.map { $0 == 1 ? "1 core" : "\($0) cores" } ?? "enough cores"
        return "\(width), \(platform.name)"
    }
}

/// Whose Foundation runs the operations.
public enum Platform: String, Hashable, Sendable, Codable, CaseIterable {
    /// Apple's Foundation (iOS, macOS): a BlockOperation's extra execution blocks run side by side
    /// on a global queue.
    case apple
    /// swift-corelibs-foundation (Linux): a BlockOperation runs its blocks one after another on
    /// its own thread (`BlockOperation.main()` loops over them).
    case linux

    public var name: String {
        switch self {
        case .apple: "Apple platforms"
        case .linux: "Linux"
        }
    }

    /// The platform this process runs on, for comparing live runs with the model.
    public static var current: Platform {
        #if canImport(Darwin)
        .apple
        #else
        .linux
        #endif
    }
}

/// Where an outcome can happen: the core counts (1 up to `enoughCores`, the last meaning "that
/// many or more") and the platforms whose explorations produce it.
public struct MachineLabel: Hashable, Sendable {
    /// Sorted, each in 1...enoughCores.
    public var coreCounts: [Int]
    /// The smallest core count at which no block waits for a thread: from there on the answer no
    /// longer changes.
    public var enoughCores: Int
    /// Sorted in `Platform.allCases` order.
    public var platforms: [Platform]
    /// The platforms explored for the snippet (one when they cannot differ).
    public var platformsExplored: [Platform]

    public init(coreCounts: [Int], enoughCores: Int, platforms: [Platform], platformsExplored: [Platform]) {
        self.coreCounts = coreCounts
        self.enoughCores = enoughCores
        self.platforms = platforms
        self.platformsExplored = platformsExplored
    }

    /// On every machine explored.
    public var isEverywhere: Bool { isOnAnyCoreCount && isOnAnyPlatform }
    public var isOnAnyCoreCount: Bool { coreCounts == Array(1...enoughCores) }
    public var isOnAnyPlatform: Bool { platforms == platformsExplored }

    /// The core counts as ranges: `1...1`, `2...3`, and the last one ending at `enoughCores` open
    /// ("or more": its upper bound is nil).
    public var coreRanges: [(min: Int, max: Int?)] {
        var ranges: [(min: Int, max: Int?)] = []
        for count in coreCounts {
            if let last = ranges.last, let upper = last.max, upper + 1 == count {
                ranges[ranges.count - 1].max = count
            } else {
                ranges.append((count, count))
            }
        }
        if let last = ranges.last, last.max == enoughCores {
            ranges[ranges.count - 1].max = nil
        }
        return ranges
    }

    /// Whether a machine with `cores` (nil: enough) on `platform` can show the outcome.
    public func includes(cores: Int?, platform: Platform) -> Bool {
        let width = min(cores ?? enoughCores, enoughCores)
        return coreCounts.contains(width) && platforms.contains(platform)
    }
}
