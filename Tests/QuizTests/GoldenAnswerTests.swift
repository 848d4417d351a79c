import ConcurrencyModel
import Foundation
import GoldenFiles
import Quiz
import Testing

/// Golden answers: for every trace puzzle of the bank, the model's outcome set, how each outcome
/// ends and the data races it finds, pinned in `Tests/Golden/solve/ID.json`. If the model became
/// more or less permissive for any puzzle, this fails and the diff shows where.
///
/// Re-record after a deliberate change of the model, then read the diff before committing:
/// `make golden` (that is, `GCDQUIZ_RECORD_GOLDEN=1 swift test --filter GoldenAnswerTests`).
@Suite struct GoldenAnswerTests {
    static let folder = GoldenFolder("Golden/solve", fileExtension: "json")
    static let puzzles = BankTests.bank.questions.filter { $0.kind == .trace }

    @Test(arguments: puzzles.map(\.id))
    func modelMatchesTheGoldenAnswer(_ id: String) throws {
        let question = try #require(BankTests.bank.question(id: id))
        let exploration = Explorer().explore(try BankTests.bank.program(of: question).get())
        let actual = try GoldenAnswer(id: id, exploration: exploration).encoded()
        try Self.folder.check(actual, named: id, change: "the model's answer to \(id) changed")
    }

    @Test func everyGoldenFileBelongsToAPuzzle() throws {
        try Self.folder.expectNoStrayFiles(besides: Set(Self.puzzles.map(\.id)))
    }
}

/// What a golden file holds: `solve --json` without timings, witnesses or wording — the outcome
/// set of a machine with enough cores, each outcome's ending, the kind of reason and the core
/// counts and platforms it needs (left out when any machine shows it), then the outcomes only
/// other machines show, and the races by variable and lines.
struct GoldenAnswer: Encodable {
    struct Entry: Encodable {
        var lines: [String]
        var end: String
        /// The kind of ending: "trap", "stuck", "crash", … (the words may change; the kind may not).
        var reason: String?
        /// "1", "2-3", "4+": where it happens, when not on every core count.
        var cores: String?
        var platform: String?

        init(_ report: OutcomeReport) {
            lines = report.outcome.lines
            end = report.outcome.end.rawValue
            reason = report.deadlock.map(GoldenAnswer.kind)
            if !report.machines.isOnAnyCoreCount {
                cores = report.machines.coreRanges.map { range in
                    range.max == nil ? "\(range.min)+" : range.min == range.max ? "\(range.min)" : "\(range.min)-\(range.max!)"
                }.joined(separator: ",")
            }
            if !report.machines.isOnAnyPlatform {
                platform = report.machines.platforms.map(\.rawValue).joined(separator: ",")
            }
        }
    }

    struct Race: Encodable {
        var variable: String
        var lines: [Int]
    }

    var puzzle: String
    var count: Int
    var complete: Bool
    var enoughCores: Int
    var outcomes: [Entry]
    var elsewhere: [Entry]
    var races: [Race]

    init(id: String, exploration: Exploration) {
        puzzle = id
        count = exploration.reports.count
        complete = exploration.isComplete
        enoughCores = exploration.enoughCores
        outcomes = exploration.reports.map(Entry.init)
        elsewhere = exploration.elsewhere.map(Entry.init)
        races = exploration.races.map { race in
            Race(variable: exploration.narrator.name(race.variable), lines: [race.first.span.line, race.second.span.line].sorted())
        }
        .sorted { $0.variable != $1.variable ? $0.variable < $1.variable : $0.lines.lexicographicallyPrecedes($1.lines) }
    }

    static func kind(_ reason: DeadlockReason) -> String {
        switch reason {
        case .trap: "trap"
        case .stuck: "stuck"
        case .unbalancedLeave: "unbalancedLeave"
        case .preconditionFailed: "preconditionFailed"
        case .foundationCrash: "foundationCrash"
        case .runtimeError: "runtimeError"
        case .unbalancedSignal: "unbalancedSignal"
        case .recursiveMutexLock: "recursiveMutexLock"
        case .modelError: "modelError"
        case .targetOfActiveQueue: "targetOfActiveQueue"
        case .workItemMisuse: "workItemMisuse"
        case .memoryCorrupted: "memoryCorrupted"
        }
    }

    /// Pretty enough to review in a diff: one outcome and one race per line.
    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        func list(_ items: [String]) -> String {
            items.isEmpty ? "[]" : "[\n" + items.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"
        }
        return """
            {
              "puzzle": \(try json(puzzle)),
              "complete": \(complete),
              "count": \(count),
              "enoughCores": \(enoughCores),
              "outcomes": \(list(try outcomes.map(json))),
              "elsewhere": \(list(try elsewhere.map(json))),
              "races": \(list(try races.map(json)))
            }

            """
    }
}
