/// One or more problems, sorted by position, thrown or returned together so that a user sees all
/// of them at once rather than one per attempt.
public struct ProblemList: Error, Hashable, Sendable, CustomStringConvertible {
    public var problems: [Problem]

    public init(_ problems: [Problem]) {
        self.problems = problems.sorted(by: Problem.byLocation)
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
