import ConcurrencyModel
import Foundation
import Quiz

/// `benchmark --schedule`: how long the scheduler's seat takes to answer a move.
extension BenchmarkCommand {
    /// For each puzzle: the seat set up with a goal (the exploration's last outcome: the guide is
    /// computed once), then moves through its states, depth first, each timed with all a key
    /// costs: the move, the goal judged, a hint, and the screen laid out at 80×24.
    func benchmarkSchedule(_ puzzles: [Puzzle]) {
        let clock = ContinuousClock()
        let width = max(puzzles.map(\.name.count).max() ?? 0, 6)
        print("schedule: one move = play it, judge the goal, take a hint, lay out the screen at 80×24")
        print("puzzle".padding(toLength: width, withPad: " ", startingAt: 0) + "    states   setup     moves    median       p99     worst")
        var worst = 0.0
        var all: [Double] = []
        for puzzle in puzzles {
            let exploration = Explorer().explore(puzzle.program)
            guard exploration.isComplete, let goal = exploration.outcomes.last else { continue }
            let setupStart = clock.now
            let start = Playthrough(exploration: exploration, goal: .outcome(goal))
            let setup = Self.microseconds(clock.now - setupStart)
            var samples: [Double] = []
            var stack = [start]
            while let play = stack.popLast(), samples.count < scheduleMoves {
                for move in play.moves {
                    var next = play
                    let moveStart = clock.now
                    next.play(move.number)
                    _ = next.hint()
                    _ = ScheduleScreen(title: puzzle.name, code: puzzle.code, play: next).lines(width: 80, height: 24)
                    samples.append(Self.microseconds(clock.now - moveStart))
                    stack.append(next)
                }
            }
            guard !samples.isEmpty else { continue }
            all += samples
            samples.sort()
            worst = max(worst, samples.last!)
            print(puzzle.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: " %9d %6.1f ms %7d %7.2f ms %7.2f ms %7.2f ms", exploration.statesExplored, setup / 1000, samples.count,
                         samples[samples.count / 2] / 1000, samples[min(samples.count - 1, samples.count * 99 / 100)] / 1000, samples.last! / 1000))
        }
        all.sort()
        if !all.isEmpty {
            print(String(format: "all: %d moves, median %.2f ms, p99 %.2f ms, worst %.2f ms", all.count, all[all.count / 2] / 1000,
                         all[min(all.count - 1, all.count * 99 / 100)] / 1000, worst / 1000))
        }
    }
}
