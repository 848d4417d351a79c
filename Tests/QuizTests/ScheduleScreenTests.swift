import ConcurrencyModel
import Quiz
import Testing

@Suite struct ScheduleScreenTests {
    static let serialAsyncAsync = "serialQueue.async {\n    print(1)\n}\nprint(2)\nserialQueue.async {\n    print(3)\n}\nprint(4)\n"

    @Test func scratch() throws {
        let exploration = Explorer().explore(try SnippetCompiler.compile(Self.serialAsyncAsync).get())
        var play = Playthrough(exploration: exploration, goal: .outcome(Outcome(lines: ["2", "4", "3", "1"], end: .finished)))
        for choice in [1, 1, 1, 1, 1] {
            play.play(choice)
        }
        var screen = ScheduleScreen(title: "serial-async-async", code: Self.serialAsyncAsync, play: play)
        screen.message = ("hint: something", .warning)
        for line in screen.lines(width: 80, height: 24) { print("|" + line.text + "|") }
    }
}
