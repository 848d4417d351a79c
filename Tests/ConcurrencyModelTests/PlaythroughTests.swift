import ConcurrencyModel
import Testing

/// The scheduler's seat: moves, goals, hints, and the move at which a goal goes out of reach.
@Suite struct PlaythroughTests {
    static let serialSyncSync = "serialQueue.sync {\n    print(1)\n}\nprint(2)\nserialQueue.sync {\n    print(3)\n}\nprint(4)\n"
    static let serialAsyncAsync = "serialQueue.async {\n    print(1)\n}\nprint(2)\nserialQueue.async {\n    print(3)\n}\nprint(4)\n"
    static let serialSyncInAsync = "serialQueue.async {\n    print(1)\n    serialQueue.sync {\n        print(2)\n    }\n    print(3)\n}\nprint(4)\n"
    static let lostUpdate = """
        var num = 0
        let g = DispatchGroup()
        DispatchQueue.global().async(group: g) {
            num += 1
        }
        num += 1
        g.wait()
        print(num)
        """

    static func outcome(_ lines: String, _ end: End = .finished) -> PlayGoal {
        .outcome(Outcome(lines: lines.split(separator: " ").map(String.init), end: end))
    }

    /// Takes the hinted move until there is none: the moves taken.
    static func followHints(_ play: inout Playthrough, limit: Int = 200) -> [Int] {
        var taken: [Int] = []
        while taken.count < limit, case .move(let move, _) = play.hint() {
            let played = play.play(move.number)
            #expect(played)
            taken.append(move.number)
        }
        return taken
    }

    @Test func hintsReachAnOutcomeAndTheChoicesReplayIt() throws {
        let exploration = try explore(Self.serialAsyncAsync)
        var play = Playthrough(exploration: exploration, goal: Self.outcome("2 1 4 3"))
        #expect(play.status == .open)
        let taken = Self.followHints(&play)
        #expect(play.output == ["2", "1", "4", "3"])
        #expect(play.ending == .finished)
        #expect(play.status == .reached(atMove: taken.count))
        #expect(play.choices == taken)
        let replayed = try #require(Playthrough.replaying(taken, exploration: exploration, goal: Self.outcome("2 1 4 3")))
        #expect(replayed.status == play.status)
        #expect(Playthrough.replaying([9], exploration: exploration) == nil)
    }

    /// Every outcome of every slide puzzle is reached by following the hints from the start.
    @Test(arguments: SlidePuzzleTests.cases.indices)
    func hintsReachEveryOutcome(_ index: Int) throws {
        let exploration = try explore(SlidePuzzleTests.cases[index].code)
        for outcome in exploration.outcomes {
            var play = Playthrough(exploration: exploration, goal: .outcome(outcome))
            let taken = Self.followHints(&play)
            #expect(play.status == .reached(atMove: taken.count), "\(SlidePuzzleTests.cases[index].name): \(outcome)")
        }
    }

    @Test func aMoveThatPrintsTheWrongLineTakesTheGoalOutOfReach() throws {
        let exploration = try explore(Self.serialAsyncAsync)
        // The block, 2, the second block, then 4 where the goal wants 1.
        let play = try #require(Playthrough.replaying([1, 1, 1, 1], exploration: exploration, goal: Self.outcome("2 1 4 3")))
        #expect(play.status == .outOfReach(atMove: 4, .printedInstead(printed: "4", wanted: .line("1"))))
        #expect(play.hint() == .undoTo(3))
        var back = play
        back.undo()
        #expect(back.status == .open)
    }

    /// The slides' second puzzle: 3 never comes before 1. Trying for 2 4 3 1, the learner is told
    /// once the queue has started the first block, with the rule.
    @Test func aForbiddenOutcomeIsToldWhereTheLearnerIsStuck() throws {
        let exploration = try explore(Self.serialAsyncAsync)
        var play = Playthrough(exploration: exploration, goal: Self.outcome("2 4 3 1"))
        for _ in 0..<4 {
            #expect(play.status == .open)
            guard case .move(let move, reachable: false) = play.hint() else {
                Issue.record("no hint towards the furthest point")
                return
            }
            play.play(move.number)
        }
        #expect(play.output == ["2", "4"])
        #expect(play.status == .open)
        // The queue starts its first block: every move left prints 1.
        play.play(1)
        guard case .outOfReach(5, .cannotComeNext(let prefix, _, .line("3"), let blockers, proved: true)) = play.status else {
            Issue.record("not told at move 5: \(play.status)")
            return
        }
        #expect(prefix == ["2", "4"])
        #expect(blockers.map(\.rule) == [.serialOneAtATime])
        #expect(play.narrator.words(for: play.status) == "no schedule does it: 3 never comes right after 2 4")
        #expect(play.narrator.reasons(for: play.status).map(\.reason)
            == ["the block at line 5 waits in serialQueue: serialQueue is busy running another block (worker 1, at line 2)"])
        #expect(play.hint() == .nothing)
    }

    /// The slides' first puzzle: everything on the main thread, 3 1 cannot happen. The learner is
    /// told inside the first sync, where the only move left prints 1.
    @Test func threeBeforeOneIsToldInsideTheFirstSync() throws {
        let exploration = try explore(Self.serialSyncSync)
        let play = try #require(Playthrough.replaying([1, 1], exploration: exploration, goal: Self.outcome("3 1")))
        guard case .outOfReach(2, .cannotComeNext([], 0, .line("3"), let blockers, proved: true)) = play.status else {
            Issue.record("not told at move 2: \(play.status)")
            return
        }
        #expect(blockers.map(\.rule) == [.syncWaitsForItsBlock])
        let before = try #require(Playthrough.replaying([1], exploration: exploration, goal: Self.outcome("3 1")))
        #expect(before.status == .open)
    }

    @Test func theDeadlockOfASyncInsideAsyncIsATrap() throws {
        let exploration = try explore(Self.serialSyncInAsync)
        var play = Playthrough(exploration: exploration, goal: .deadlock)
        let taken = Self.followHints(&play)
        #expect(play.status == .reached(atMove: taken.count))
        guard case .died(.trap(_, let queue, let span)) = play.ending else {
            Issue.record("not a trap: \(String(describing: play.ending))")
            return
        }
        #expect(play.narrator.name(queue) == "serialQueue")
        #expect(span.line == 3)
        #expect(play.moves.isEmpty)
        // The same run is a crash, and never finishes.
        #expect(Playthrough.replaying(play.choices, exploration: exploration, goal: .crash)?.status == .reached(atMove: taken.count))
        let finish = Playthrough(exploration: exploration, goal: Self.outcome("4 1"))
        #expect(finish.status == .open)
    }

    @Test func aDataRaceIsReachedWhenTwoThreadsMeetAtTheVariable() throws {
        let exploration = try explore(Self.lostUpdate)
        var play = Playthrough(exploration: exploration, goal: .race)
        #expect(play.races.isEmpty)
        let taken = Self.followHints(&play)
        #expect(play.status == .reached(atMove: taken.count))
        #expect(play.races.contains { play.narrator.name($0.variable) == "num" })
        #expect(play.ending == nil)
        // A snippet without shared variables has no race to find, from the start.
        let none = Playthrough(exploration: try explore(Self.serialAsyncAsync), goal: .race)
        #expect(none.status == .outOfReach(atMove: 0, .noSchedule(fromStart: true)))
    }

    /// A step that touches only its thread's locals is taken at once, and shown as such.
    @Test func localStepsAreTakenAtOnce() throws {
        let exploration = try explore("serialQueue.async {\n    for i in 1...2 {\n        print(i)\n    }\n}\nprint(0)\n")
        var play = Playthrough(exploration: exploration)
        #expect(play.status == .none)
        play.play(1)
        // The worker starts the block, then the loop by itself.
        let start = try #require(play.moves.first { if case .start = $0.kind { true } else { false } })
        play.play(start.number)
        #expect(play.lastSteps.map(\.automatic) == [false, true])
        #expect(play.lastSteps.last?.step.event == .loops)
        #expect(play.runners.count == 2)
    }

    /// A job of the global executor starts at once where no other start wants its thread (the
    /// search's reduction): the player is not asked, and still chooses between the creator's
    /// next step and the job's.
    @Test func aGlobalExecutorJobStartsAtOnceWithEnoughCores() throws {
        let source = "Task.detached {\n    print(\"a\")\n}\nTask.detached {\n    print(\"b\")\n}\nprint(\"top\")\n"
        var play = Playthrough(exploration: try explore(source))
        play.play(1)
        #expect(play.lastSteps.map(\.automatic) == [false, true])
        guard case .runsTask? = play.lastSteps.last?.step.event else {
            Issue.record("the job did not start by itself: \(play.lastSteps)")
            return
        }
        #expect(play.moves.count == 2)
        #expect(play.moves.contains { if case .step(let thread) = $0.kind { thread == .main } else { false } })
        // Where the cores are counted and an actor's jobs want the same threads, the start is a
        // move of its own.
        let withActor = "actor Logger {\n    func log() {\n        print(\"log\")\n    }\n}\nlet logger = Logger()\n" + source
        var narrow = Playthrough(exploration: try explore(withActor, on: Machine(cores: 1)))
        func offersStart() -> Bool { narrow.moves.contains { if case .start = $0.kind { true } else { false } } }
        for _ in 0..<3 where !offersStart() { narrow.play(1) }
        #expect(offersStart())
        #expect(!narrow.lastSteps.contains { if case .runsTask = $0.step.event { true } else { false } })
    }

    /// With an actor on a machine of a given width, a job still starts by itself where its
    /// priority has room for it and for the actor's job: neither can keep the other waiting.
    /// With room for one of them only, the start is a move of its own.
    @Test func aJobStartsAtOnceWhereRoomOutlastsTheActors() throws {
        let tasks = ["a", "b", "c", "d"].map { "Task.detached {\n    print(\"\($0)\")\n}\n" }.joined()
        let source = "actor Logger {\n    func log() {\n        print(\"log\")\n    }\n}\nlet logger = Logger()\n" + tasks
        // Three places, one actor: two jobs start by themselves, the third's start is a choice.
        var play = Playthrough(exploration: try explore(source, on: Machine(cores: 3)))
        var started = 0
        for _ in 0..<8 where !play.moves.contains(where: { if case .start = $0.kind { true } else { false } }) {
            let played = play.play(1)
            #expect(played)
            started += play.lastSteps.count { if case .runsTask = $0.step.event { $0.automatic } else { false } }
        }
        #expect(started == 2)
        #expect(play.moves.contains { if case .start = $0.kind { true } else { false } })
    }

    @Test func theRowsSayWhatEachThreadAndQueueHolds() throws {
        let exploration = try explore(Self.serialSyncInAsync)
        // The block, the queue starts it, 1, the sync: worker 1 traps there; before it, it is at the sync.
        let play = try #require(Playthrough.replaying([1, 2, 2], exploration: exploration))
        let narrator = play.narrator
        #expect(play.runners.map(narrator.words(for:)) == [
            "main, at line 8: next, print 4",
            "worker 1, on serialQueue, at line 3: next, call serialQueue.sync",
        ])
        #expect(play.executors.map { narrator.title(of: $0) + ": " + narrator.contents(of: $0) }
            == ["serialQueue (serial queue): runs on worker 1; nothing waiting"])
        var undone = play
        undone.restart()
        #expect(undone.moveCount == 0)
        #expect(undone.output.isEmpty)
    }

    @Test func withoutACompleteExplorationThereIsNoGuidance() throws {
        guard case .success(let program) = SnippetCompiler.compile(Self.serialAsyncAsync) else { throw PlaythroughTestError() }
        let exploration = Explorer(stateBudget: 3).explore(program)
        #expect(!exploration.isComplete)
        var play = Playthrough(exploration: exploration, goal: Self.outcome("2 1 4 3"))
        #expect(play.status == .unguided)
        #expect(play.hint() == .nothing)
        let played = play.play(1)
        #expect(played)
        #expect(play.moves.count == 2)
    }
}

private struct PlaythroughTestError: Error {}
