import ConcurrencyModel
import Foundation
import Quiz

/// The scheduler's seat at a terminal: the full screen redrawn after every key, or, when input
/// or output is not a terminal, the screen printed after every line of commands read (`1 2 u h`,
/// `g 2 1 4 3`, `q`), for scripts and tests. All of its terminal I/O is here.
final class ScheduleSeat {
    private(set) var screen: ScheduleScreen
    private let style: TerminalStyle
    /// The schedule a replay follows, as the learner's move numbers.
    private let script: [Int]?
    private(set) var hintsUsed = 0
    /// How the goal was first settled: reached, or shown out of reach of every schedule (it may
    /// have been undone since).
    private(set) var settledAs: GoalStatus?
    var settled: Bool { settledAs != nil }
    private let printable: PrintableLines

    /// A question's goal, which `g` may not change.
    private let goalIsFixed: Bool

    init(title: String, code: String, play: Playthrough, script: [Int]? = nil, goalIsFixed: Bool = false, style: TerminalStyle) {
        screen = ScheduleScreen(title: title, code: code, play: play, mode: script == nil ? .play : .replay)
        self.style = style
        self.script = script
        self.goalIsFixed = goalIsFixed
        printable = PrintableLines(exploration: play.exploration)
        noteStatus()
    }

    var play: Playthrough { screen.play }

    /// What the learner can ask for.
    enum Action: Equatable {
        case move(Int)
        /// Enter: the replay's next move, or the only move there is.
        case next
        case undo
        case restart
        case hint
        case goal(String)
        case quit
        case unknown(String)
    }

    /// Plays at the terminal until the learner leaves; false when it is not a terminal (nothing
    /// was done: use `runReadingLines`).
    func runAtTerminal() -> Bool {
        guard isatty(STDOUT_FILENO) == 1, let keys = RawKeyInput() else { return false }
        defer { keys.close() }
        while true {
            draw(keys.size)
            let action: Action
            switch keys.next() {
            case .character(let character):
                if character == "g" {
                    guard let text = readGoal(keys) else { continue }
                    action = .goal(text)
                } else {
                    action = Self.action(forKey: character)
                }
            case .enter: action = .next
            case .backspace, .left: action = .undo
            case .right: action = .next
            case .up, .down: continue
            case .escape, .interrupt, .end: action = .quit
            }
            if !perform(action) { return true }
        }
    }

    /// Plays from lines of commands on standard input, printing the screen after each line.
    func runReadingLines() {
        let width = style.width ?? 80
        printScreen(width: width)
        while let line = Swift.readLine(strippingNewline: true) {
            for action in Self.actions(inLine: line) where !perform(action) { return }
            printScreen(width: width)
        }
    }

    /// Prints the screen at every move of the replay, from the start to where it ends.
    func printReplay() {
        let width = style.width ?? 80
        printScreen(width: width)
        while let next = nextScripted, perform(.move(next)) {
            printScreen(width: width)
        }
    }

    // MARK: Actions

    static func action(forKey key: Character) -> Action {
        switch key {
        case "u", "b": return .undo
        case "r": return .restart
        case "h", "?": return .hint
        case "q": return .quit
        case "n", " ": return .next
        default: return ScheduleScreen.move(forKey: key).map(Action.move) ?? .unknown(String(key))
        }
    }

    /// A line of commands: words, each a key's (`3`, `u`, `h`, `q`); `g GOAL` takes the rest of
    /// the line; an empty line is Enter.
    static func actions(inLine line: String) -> [Action] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return [.next] }
        if trimmed == "g" || trimmed.hasPrefix("g ") { return [.goal(String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces))] }
        return trimmed.split(separator: " ").map { word in
            if let number = Int(word) { return .move(number) }
            if word.count == 1, let key = word.first { return action(forKey: key) }
            return .unknown(String(word))
        }
    }

    /// Does what the learner asked; false to leave.
    func perform(_ action: Action) -> Bool {
        screen.message = nil
        screen.hinted = nil
        switch action {
        case .move(let number):
            guard screen.play.play(number) else {
                let count = screen.play.moves.count
                screen.message = ("note", count == 0 ? "no move is left: u takes one back, r starts again" : "no move \(number) here: pick 1–\(count)", .warning)
                return true
            }
        case .next:
            if let scripted = nextScripted {
                screen.play.play(scripted)
            } else if screen.play.moves.count == 1 {
                screen.play.play(1)
            } else {
                screen.message = ("note", screen.play.moves.isEmpty ? "the run has ended: u takes a move back, r starts again, q leaves"
                                  : "pick a move by its number", .warning)
                return true
            }
        case .undo:
            if !screen.play.undo() { screen.message = ("note", "nothing to take back: this is the start", .warning) }
        case .restart:
            screen.play.restart()
        case .hint:
            let hint = screen.play.hint()
            if case .nothing = hint {} else { hintsUsed += 1 }
            if case .move(let move, _) = hint { screen.hinted = move.number }
            screen.message = ("hint", play.narrator.words(for: hint), .warning)
            return true
        case .goal(let text):
            guard !goalIsFixed else {
                screen.message = ("note", "this question's goal stays as it is", .warning)
                return true
            }
            settledAs = nil
            guard !text.isEmpty else {
                screen.play.setGoal(nil)
                screen.message = ("note", "goal cleared", .dim)
                return true
            }
            do {
                screen.play.setGoal(try ScheduleGoal.read(text, printable: printable))
            } catch {
                screen.message = ("note", "cannot read that goal: \(error.message); write an outcome (2 1 4 3, 1 deadlock), deadlock, crash or race", .bad)
                return true
            }
        case .quit:
            return false
        case .unknown(let key):
            screen.message = ("note", "'\(key)' does nothing here: " + keyHelp, .warning)
            return true
        }
        noteStatus()
        return true
    }

    private var keyHelp: String {
        "a move's number, u undo, r restart, h hint, g goal, q quit"
    }

    /// The replay's next move, while the learner follows it.
    private var nextScripted: Int? {
        guard let script else { return nil }
        let done = screen.play.choices
        guard done.count < script.count, Array(script.prefix(done.count)) == done else { return nil }
        return script[done.count]
    }

    /// Says what the state of the goal means for what to do next.
    private func noteStatus() {
        screen.scripted = nextScripted
        screen.mode = script != nil && (screen.scripted != nil || screen.play.choices == script) ? .replay : .play
        if screen.play.status.isSettled, settledAs == nil { settledAs = screen.play.status }
        if case .reached = screen.play.status {
            screen.message = ("note", "reached: u takes moves back, r plays again, q leaves", .good)
        } else if screen.play.status.isSettled {
            screen.message = ("note", "that is the answer: no schedule does it, and here is why; q leaves", .good)
        } else if case .outOfReach = screen.play.status, screen.message == nil {
            screen.message = ("note", "h says where the goal was still reachable; u takes moves back, r starts again", .dim)
        }
    }

    // MARK: Drawing

    private func draw(_ size: (columns: Int, rows: Int)) {
        let lines = screen.lines(width: size.columns, height: size.rows)
        var frame = "\u{1B}[H"
        frame += lines.map { Self.paint($0, style: style) + "\u{1B}[K" }.joined(separator: "\r\n")
        frame += "\u{1B}[J"
        Output.write(frame)
    }

    private func printScreen(width: Int) {
        let lines = screen.lines(width: width, height: .max)
        print(lines.map { Self.paint($0, style: style) }.joined(separator: "\n"))
        print("")
    }

    /// `g`: the goal typed on the last line (Enter takes it, Esc gives up); nil when given up.
    private func readGoal(_ keys: RawKeyInput) -> String? {
        var text = ""
        while true {
            let size = keys.size
            var lines = screen.lines(width: size.columns, height: size.rows - 1)
            lines.append(ScreenLine("goal> " + text + "▏", .key))
            Output.write("\u{1B}[H" + lines.map { Self.paint($0, style: style) + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
            switch keys.next() {
            case .character(let character): text.append(character)
            case .backspace: if !text.isEmpty { text.removeLast() }
            case .enter: return text
            case .escape, .interrupt, .end: return nil
            case .left, .right, .up, .down: continue
            }
        }
    }

    /// A line in the terminal's colours.
    static func paint(_ line: ScreenLine, style: TerminalStyle) -> String {
        line.spans.map { span in
            switch span.role {
            case .plain, .code: span.text
            case .dim: style.dim(span.text)
            case .heading, .currentCode, .key: style.bold(span.text)
            case .marker: style.cyan(span.text)
            case .good: style.green(span.text)
            case .bad: style.red(span.text)
            case .warning: style.yellow(span.text)
            }
        }.joined()
    }

    // MARK: The result

    /// One line on what the learner did, for after the screen: "reached 2 1 4 3 at move 8, with
    /// 1 hint; moves 1 1 1 2 2 1 1 1".
    var summary: String {
        let play = screen.play
        let goal = play.goal.map { ScheduleGoal.text($0) }
        let moves = play.choices.isEmpty ? "no move" : "moves " + play.choices.map(String.init).joined(separator: " ")
        let hints = hintsUsed == 0 ? "" : ", with \(hintsUsed) hint\(hintsUsed == 1 ? "" : "s")"
        guard let goal else { return "left at move \(play.moveCount)\(hints); \(moves)" }
        switch settledAs {
        case .reached?: return "reached \(goal)\(hints); \(moves)"
        case .some: return "showed that no schedule does \(goal)\(hints); \(moves)"
        case nil: return "left at move \(play.moveCount) without reaching \(goal)\(hints); \(moves)"
        }
    }
}
