import ConcurrencyModel
import Foundation
import Quiz
import Testing

/// The scheduler's screen at 80×24: every state of every slide puzzle fits, with every move
/// offered on screen; bigger puzzles give up lines of code and wrapping, never moves.
@Suite struct ScheduleScreenTests {
    static let slidePuzzles = ["serial-sync-sync", "serial-async-async", "serial-sync-in-async", "serial-async-in-sync",
                               "concurrent-sync-sync", "concurrent-async-async", "concurrent-sync-in-async", "concurrent-async-in-sync"]

    /// Every position reachable from `play`, depth first (each once per path).
    static func everyState(from play: Playthrough, limit: Int = 20_000, _ visit: (Playthrough) -> Void) {
        var count = 0
        func walk(_ play: Playthrough) {
            guard count < limit else { return }
            count += 1
            visit(play)
            for move in play.moves {
                var next = play
                if next.play(move.number) { walk(next) }
            }
        }
        walk(play)
    }

    static func exploration(_ id: String) throws -> (Question, Exploration) {
        let question = try #require(BankTests.bank.question(id: id))
        return (question, Explorer().explore(try BankTests.bank.program(of: question).get()))
    }

    /// The screen fits, and shows each move offered with its key and mover.
    static func checkFits(_ screen: ScheduleScreen, width: Int = 80, height: Int = 24, _ context: String) {
        let lines = screen.lines(width: width, height: height)
        #expect(lines.count <= height, "\(context): \(lines.count) lines")
        #expect(lines.allSatisfy { $0.width <= width }, "\(context): a line wider than \(width)")
        let text = lines.map(\.text)
        for move in screen.play.moves {
            let mover = screen.play.narrator.mover(move)
            #expect(text.contains { $0.contains(ScheduleScreen.key(move.number) + "  " + mover) }, "\(context): move \(move.number) not shown")
        }
        #expect(text.last?.hasPrefix("keys") == true, "\(context): no keys line")
        #expect(text.contains { $0.hasPrefix("goal") }, "\(context): no goal line")
    }

    /// A job's start says its thread once and its executor once.
    @Test func aJobStartNamesItsExecutorOnce() throws {
        let program = try SnippetCompiler.compile("Task.detached {\n    print(\"a\")\n}\nprint(\"top\")\n").get()
        var play = Playthrough(exploration: Explorer().explore(program))
        let played = play.play(1)
        #expect(played)
        let screen = ScheduleScreen(title: "t", code: "", play: play)
        // The "did" row and the lines it wraps onto (indented), as one text.
        let lines = screen.lines(width: 80, height: 24).map(\.text)
        let start = try #require(lines.firstIndex { $0.hasPrefix("did") })
        let wrapped = lines[(start + 1)...].prefix { $0.hasPrefix(" ") }
        let did = ([lines[start]] + wrapped).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(did.contains("on worker 1, the global executor runs the next job"))
        #expect(!did.contains("on the global executor the global executor"), "\(did)")
    }

    @Test(arguments: slidePuzzles)
    func everyStateOfASlidePuzzleFits(_ id: String) throws {
        let (question, exploration) = try Self.exploration(id)
        // A goal that is reached in some states and out of reach in others, and a hint shown.
        let goal = PlayGoal.outcome(exploration.outcomes.last!)
        var states = 0
        Self.everyState(from: Playthrough(exploration: exploration, goal: goal)) { play in
            states += 1
            var screen = ScheduleScreen(title: question.id, code: question.code!, play: play)
            screen.message = ("hint", play.narrator.words(for: play.hint()), .warning)
            Self.checkFits(screen, "\(id) after moves \(play.choices)")
        }
        #expect(states > 1)
    }

    /// The longest snippets of the bank: the code gives way, the moves stay.
    @Test(arguments: ["cancel-all-while-suspended", "race-fixed-with-barrier", "dependency-diamond", "operation-pipeline-cancel"])
    func aLongSnippetGivesWayToTheMoves(_ id: String) throws {
        let (question, exploration) = try Self.exploration(id)
        var checked = 0
        Self.everyState(from: Playthrough(exploration: exploration), limit: 300) { play in
            checked += 1
            Self.checkFits(ScheduleScreen(title: question.id, code: question.code!, play: play), "\(id) after moves \(play.choices)")
        }
        #expect(checked > 10)
    }

    @Test func theLinesWhereThreadsAreStayInTheWindow() throws {
        let (question, exploration) = try Self.exploration("cancel-all-while-suspended")
        var play = Playthrough(exploration: exploration)
        for _ in 0..<8 { if let move = play.moves.last { play.play(move.number) } }
        let lines = ScheduleScreen(title: question.id, code: question.code!, play: play).lines(width: 80, height: 24).map(\.text)
        for runner in play.runners {
            guard let line = runner.line else { continue }
            #expect(lines.contains { $0.hasPrefix("▶") && $0.dropFirst().trimmingPrefix(" ").hasPrefix("\(line) ") },
                    "line \(line) of \(play.narrator.thread(runner.thread)) is not on screen")
        }
    }

    @Test func keysForMovesPastNine() {
        #expect(ScheduleScreen.key(9) == "9")
        #expect(ScheduleScreen.key(10) == "a")
        #expect(ScheduleScreen.move(forKey: "a") == 10)
        #expect(ScheduleScreen.move(forKey: "3") == 3)
        for reserved: Character in ["u", "r", "h", "g", "q", "n", "b"] {
            #expect(ScheduleScreen.move(forKey: reserved) == nil, "\(reserved) is a command")
        }
    }

    @Test func aGoalIsAnOutcomeOrANamedEnding() throws {
        let (_, exploration) = try Self.exploration("serial-async-async")
        let printable = PrintableLines(exploration: exploration)
        #expect(try ScheduleGoal.read("2 1 4 3", printable: printable) == .outcome(Outcome(lines: ["2", "1", "4", "3"], end: .finished)))
        #expect(try ScheduleGoal.read("1 deadlock", printable: printable) == .outcome(Outcome(lines: ["1"], end: .deadlock)))
        #expect(try ScheduleGoal.read(" Deadlock ", printable: printable) == .deadlock)
        #expect(try ScheduleGoal.read("crash", printable: printable) == .crash)
        #expect(try ScheduleGoal.read("race", printable: printable) == .race)
        #expect(throws: AnswerError.self) { try ScheduleGoal.read("1 2 3 4 | 2 1 3 4", printable: printable) }
        #expect(throws: AnswerError.self) { try ScheduleGoal.read("7", printable: printable) }
        #expect(ScheduleGoal.text(.outcome(Outcome(lines: ["1"], end: .deadlock))) == "1 deadlock")
    }
}
