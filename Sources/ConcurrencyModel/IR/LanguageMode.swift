/// The Swift language mode a snippet is compiled in, with the upcoming features turned on: what
/// the model answers for (an upcoming feature can change where code runs) and what `verify` and
/// the compiled live runs pass to swiftc.
public struct LanguageMode: Sendable, Hashable, Codable, CustomStringConvertible {
    public var swiftVersion: Int
    public var upcomingFeatures: [String]

    public init(swiftVersion: Int, upcomingFeatures: [String] = []) {
        self.swiftVersion = swiftVersion
        self.upcomingFeatures = upcomingFeatures
    }

    /// SE-0461: a plain `nonisolated async` function runs on its caller's actor, as if written
    /// `nonisolated(nonsending)` (on in Xcode 26's "Approachable Concurrency" setting).
    public static let nonisolatedNonsendingByDefault = "NonisolatedNonsendingByDefault"

    /// The upcoming features whose effect on the order of a run the model knows.
    public static let modelledFeatures = [nonisolatedNonsendingByDefault]

    public var runsNonisolatedAsyncOnCaller: Bool {
        upcomingFeatures.contains(Self.nonisolatedNonsendingByDefault)
    }

    /// Reads `6`, `5`, `Swift 6`, `6 + NonisolatedNonsendingByDefault` (the form `description`
    /// writes): a version of 5 or 6, then upcoming features the model knows, joined by `+`.
    public init?(parsing text: String) {
        func trimmed(_ part: Substring) -> String { String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(trimmed)
        guard let first = parts.first else { return nil }
        let version = first.lowercased().hasPrefix("swift") ? trimmed(first.dropFirst(5)) : first
        guard let number = Int(version), number == 5 || number == 6 else { return nil }
        let features = Array(parts.dropFirst())
        guard features.allSatisfy(Self.modelledFeatures.contains), Set(features).count == features.count else { return nil }
        self.init(swiftVersion: number, upcomingFeatures: features)
    }

    /// What `init(parsing:)` takes, for messages.
    public static let accepted = "5, 6 or 6 + " + modelledFeatures.joined(separator: " + ")

    public var swiftcArguments: [String] {
        ["-swift-version", "\(swiftVersion)"] + upcomingFeatures.flatMap { ["-enable-upcoming-feature", $0] }
    }

    public var description: String {
        (["Swift \(swiftVersion)"] + upcomingFeatures).joined(separator: " + ")
    }
}
