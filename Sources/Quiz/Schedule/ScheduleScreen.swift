import ConcurrencyModel

/// The scheduler's seat as one screen: the snippet with each thread's place marked, what every
/// thread does or waits for, what every queue holds, the timers, the clock, the output so far,
/// the goal and where it stands, and the moves the model allows, numbered. Laid out for a
/// terminal of any size from 80×24 up: when everything does not fit, the parts a learner needs
/// least give way first (the snippet's far lines, then wrapped sentences), never the moves.
public struct ScheduleScreen {
    public enum Mode: Sendable {
        /// The learner picks every move.
        case play
        /// A schedule is replayed (`explain --step`): Enter takes its next move, marked `scripted`.
        case replay
        /// A state shown, not played (a live run's stuck state): no goal, no moves, no keys.
        case still
    }

    public var title: String
    public var code: String
    public var play: Playthrough
    public var mode: Mode
    /// The move a replayed schedule takes next.
    public var scripted: Int?
    /// The move the last hint named.
    public var hinted: Int?
    /// A reply to the last key (a hint, a refusal), shown above the moves under its label.
    public var message: (label: String, text: String, role: ScreenLine.Role)?

    public init(title: String, code: String, play: Playthrough, mode: Mode = .play) {
        self.title = title
        self.code = code
        self.play = play
        self.mode = mode
    }

    /// The screen in at most `height` lines of at most `width` columns.
    public func lines(width: Int, height: Int) -> [ScreenLine] {
        let width = max(width, 40)
        var sections = parts(width: width)
        var sizes = sections.map(\.natural)
        // What gives way, in order, until it fits: each step lowers one part to a size.
        let squeezes: [(Part.Kind, Int)] = [
            (.code, 8), (.last, 0), (.code, 6), (.extras, 1), (.runners, -1), (.executors, -1), (.reasons, -1),
            (.message, 1), (.goal, 1), (.code, 3), (.moves, -1), (.extras, 0), (.executors, 1), (.runners, 1),
            (.reasons, 1), (.code, 1), (.ending, 1), (.message, 0), (.code, 0), (.output, 1),
        ]
        for (kind, size) in squeezes where sizes.reduce(0, +) > height {
            guard let index = sections.firstIndex(where: { $0.kind == kind }) else { continue }
            // -1: one line per row.
            let target = size < 0 ? sections[index].rows : size
            sizes[index] = max(min(sizes[index], target), sections[index].minimum)
        }
        var lines: [ScreenLine] = []
        for index in sections.indices {
            lines += sections[index].render(sizes[index])
        }
        return Array(lines.prefix(height)).map { $0.truncated(to: width) }
    }

    // MARK: The parts

    /// A part of the screen: its natural size, the least it can be squeezed to, and how it looks
    /// at a given size.
    struct Part {
        enum Kind { case header, goal, reasons, code, runners, executors, extras, output, last, ending, message, moves, keys }
        var kind: Kind
        var natural: Int
        var minimum: Int
        /// Its logical rows (sentences), which each keep one line when squeezed to `-1`.
        var rows: Int
        var render: (Int) -> [ScreenLine]
    }

    private func parts(width: Int) -> [Part] {
        let narrator = play.narrator
        var parts: [Part] = []
        parts.append(fixed(.header, [header(width: width)]))
        if mode != .still { parts.append(rows(.goal, "goal", [goalRow()], width: width, minimum: 1)) }
        parts.append(rows(.reasons, "because", narrator.reasons(for: play.status).map { reason in
            Row(body: reason.reason + " (rule: " + reason.rule.statement + ")", role: .warning)
        }, width: width, minimum: 0))
        parts.append(codePart(width: width))
        parts.append(rows(.runners, "threads", play.runners.map { runner in
            Row(body: narrator.words(for: runner), role: runner.isWaiting ? .warning : .plain)
        }, width: width, minimum: min(play.runners.count, 1)))
        parts.append(rows(.executors, "queues", play.executors.map { executor in
            Row(body: narrator.title(of: executor) + ": " + narrator.contents(of: executor), role: .plain)
        }, width: width, minimum: 0))
        parts.append(rows(.extras, "", extras(), width: width, minimum: 0))
        parts.append(rows(.output, "output", [Row(body: play.output.isEmpty ? "(nothing yet)" : play.output.map(AnswerNotation.quoteIfNeeded).joined(separator: " "),
                                                  role: play.output.isEmpty ? .dim : .plain)], width: width, minimum: 1))
        parts.append(rows(.last, "did", lastRow().map { [$0] } ?? [], width: width, minimum: 0))
        parts.append(rows(.ending, "ended", play.ending.map { ending in
            [Row(body: narrator.words(for: ending), role: ending == .finished ? .good : .bad)]
        } ?? [], width: width, minimum: 0))
        parts.append(rows(.message, message?.label ?? "", message.map { [Row(body: $0.text, role: $0.role)] } ?? [], width: width, minimum: 0))
        if mode != .still {
            parts.append(movesPart(width: width))
            parts.append(fixed(.keys, [ScreenLine([.init(text: Self.label("keys"), role: .heading)] + keys().spans)]))
        }
        return parts
    }

    /// A part's name in the left column, padded to its width.
    static func label(_ name: String) -> String {
        name.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
    }

    static let labelWidth = 8

    private func fixed(_ kind: Part.Kind, _ lines: [ScreenLine]) -> Part {
        Part(kind: kind, natural: lines.count, minimum: lines.count, rows: lines.count) { _ in lines }
    }

    private func header(width: Int) -> ScreenLine {
        var right = "move \(play.moveCount)"
        if let clock = play.clock { right += " · " + play.narrator.clock(clock) }
        let left = switch mode {
        case .play: "schedule · " + title
        case .replay: "replay · " + title
        case .still: "state · " + title
        }
        let room = max(width - right.count - 1, 1)
        let shown = left.count > room ? String(left.prefix(room - 1)) + "…" : left
        return ScreenLine([.init(text: shown, role: .heading), .init(text: String(repeating: " ", count: width - shown.count - right.count), role: .plain),
                           .init(text: right, role: .dim)])
    }

    private func goalRow() -> Row {
        let narrator = play.narrator
        guard let goal = play.goal else {
            return Row(body: narrator.words(for: play.status), role: .dim)
        }
        let role: ScreenLine.Role = switch play.status {
        case .reached: .good
        case .outOfReach: .bad
        case .none, .unguided, .open: .plain
        }
        return Row(body: narrator.words(for: goal) + " — " + narrator.words(for: play.status), role: role)
    }

    private func extras() -> [Row] {
        let narrator = play.narrator
        var rows: [Row] = []
        let timers = play.timers.map(narrator.words(for:))
        if !timers.isEmpty { rows.append(Row(head: [.init(text: Self.label("timers"), role: .heading)], body: timers.joined(separator: "; "), role: .plain)) }
        let objects = play.objects.map(narrator.words(for:))
        if !objects.isEmpty { rows.append(Row(head: [.init(text: Self.label("sync"), role: .heading)], body: objects.joined(separator: " · "), role: .plain)) }
        for race in play.races {
            rows.append(Row(head: [.init(text: Self.label("race"), role: .heading)], body: narrator.subject(of: race) + ": " + narrator.accesses(of: race, articles: true), role: .bad))
        }
        return rows
    }

    private func lastRow() -> Row? {
        let steps = play.lastSteps
        guard !steps.isEmpty else { return nil }
        let narrator = play.narrator
        let said = steps.map { taken in
            Self.did(taken.step, narrator: narrator) + (taken.automatic ? Self.whyByItself(taken.step) : "")
        }
        return Row(body: said.joined(separator: "; then "), role: .dim)
    }

    /// Who did what: "main prints 1". A job's start names its executor as the one that acts
    /// ("actor c runs the next job"), so the thread comes first on its own: "on worker 1, actor
    /// c runs the next job: task 2 goes on", not "worker 1 on c actor c runs…".
    private static func did(_ step: ScheduleStep, narrator: Narrator) -> String {
        switch step.event {
        case .runsTask, .runsTaskAhead: "on \(narrator.thread(step.thread)), \(narrator.action(step))"
        default: narrator.who(step) + " " + narrator.action(step)
        }
    }

    /// Why the playthrough took a step without asking (`Playthrough.isForced`).
    private static func whyByItself(_ step: ScheduleStep) -> String {
        if case .runsTask = step.event { return " (by itself: no other job wants its thread)" }
        return " (by itself: only it sees that step)"
    }

    private func keys() -> ScreenLine {
        let count = play.moves.count
        var parts: [String] = []
        switch mode {
        case .replay, .still:
            if scripted != nil { parts.append("Enter next") }
            if count > 0 { parts.append(count == 1 ? "1 pick" : "1–\(Self.key(count)) pick") }
            parts += ["u back", "r restart", "q quit"]
        case .play:
            if count > 0 { parts.append(count == 1 ? "1 move" : "1–\(Self.key(count)) move") }
            parts += ["u undo", "r restart", "h hint", "g goal", "q quit"]
        }
        return ScreenLine(parts.joined(separator: " · "), .key)
    }

    /// The key that picks move `number`: 1–9, then letters no other key uses.
    public static func key(_ number: Int) -> String {
        number <= 9 ? String(number) : (number - 10 < moveLetters.count ? String(moveLetters[moveLetters.index(moveLetters.startIndex, offsetBy: number - 10)]) : "")
    }

    /// The move a key picks, if any.
    public static func move(forKey key: Character) -> Int? {
        if let digit = key.wholeNumberValue, digit >= 1 { return digit }
        return moveLetters.firstIndex(of: key).map { moveLetters.distance(from: moveLetters.startIndex, to: $0) + 10 }
    }

    /// Letters for moves 10 and up: none of the keys' own (u, r, h, g, q, n, b).
    static let moveLetters = "acdefijklmopstvwxyz"

    // MARK: The snippet

    private func codePart(width: Int) -> Part {
        let source = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let lines = source.last == "" ? Array(source.dropLast()) : source
        var markers: [Int: [String]] = [:]
        for runner in play.runners { if let line = runner.line { markers[line, default: []].append(play.narrator.thread(runner.thread)) } }
        let numberWidth = String(lines.count).count
        let rendered: [ScreenLine] = lines.enumerated().map { index, text in
            let number = index + 1
            let here = markers[number]
            let gutter = (here != nil ? "▶" : " ") + String(repeating: " ", count: numberWidth - String(number).count) + "\(number) "
            var line = ScreenLine([.init(text: gutter, role: here != nil ? .marker : .dim)])
            let marker = here.map { "  ◀ " + $0.joined(separator: ", ") } ?? ""
            let room = width - gutter.count - marker.count
            let code = text.count > room ? String(text.prefix(max(room - 1, 0))) + "…" : text
            line = line + (code, here != nil ? .currentCode : .code)
            if !marker.isEmpty { line = line + (marker, .marker) }
            return line
        }
        let marked = lines.indices.filter { markers[$0 + 1] != nil }
        return Part(kind: .code, natural: rendered.count, minimum: 0, rows: rendered.count) { size in
            Self.window(rendered, size: size, around: marked)
        }
    }

    /// `size` lines of the snippet, chosen to show the lines where threads are.
    static func window(_ lines: [ScreenLine], size: Int, around marked: [Int]) -> [ScreenLine] {
        guard size < lines.count else { return lines }
        guard size > 0 else { return [] }
        let first = marked.min() ?? 0
        let last = marked.max() ?? 0
        var start: Int
        if last - first + 1 <= size {
            // Every marked line, with the room left shared above and below.
            start = first - (size - (last - first + 1)) / 2
        } else {
            start = first
        }
        start = min(max(start, 0), lines.count - size)
        return Array(lines[start..<start + size])
    }

    // MARK: The moves

    private func movesPart(width: Int) -> Part {
        let narrator = play.narrator
        let moves = play.moves
        guard !moves.isEmpty else { return rows(.moves, "moves", [], width: width, minimum: 0) }
        let movers = moves.map(narrator.mover)
        let moverWidth = movers.map(\.count).max() ?? 0
        let keyWidth = moves.map { Self.key($0.number).count }.max() ?? 1
        let rowsOfMoves = moves.enumerated().map { index, move -> Row in
            let mark = move.number == scripted ? "▶" : (move.number == hinted ? "★" : " ")
            let key = Self.key(move.number)
            let head: [ScreenLine.Span] = [
                .init(text: mark, role: .marker),
                .init(text: String(repeating: " ", count: max(keyWidth - key.count, 0)) + key, role: .key),
                .init(text: "  " + movers[index].padding(toLength: moverWidth, withPad: " ", startingAt: 0) + "  ", role: .plain),
            ]
            let line = move.step?.span.map { " (line \($0.line))" } ?? ""
            return Row(head: head, body: narrator.action(move) + line, role: move.step == nil ? .dim : .plain)
        }
        return rows(.moves, "moves", rowsOfMoves, width: width, minimum: moves.count)
    }

    // MARK: Rows of sentences

    /// A sentence after a fixed head, wrapped under itself.
    struct Row {
        var head: [ScreenLine.Span] = []
        var body: String
        var role: ScreenLine.Role
    }

    /// A part made of rows, named by `label` in the left column of its first line (rows with a
    /// head of their own go without): each row keeps at least one line (cut with "…"); the
    /// lines left are given to the rows in order, to wrap them whole. Squeezed below one line a
    /// row, the last line says how many rows are left out.
    private func rows(_ kind: Part.Kind, _ label: String, _ rows: [Row], width: Int, minimum: Int) -> Part {
        let rows = rows.enumerated().map { index, row in
            guard !label.isEmpty else { return row }
            var labelled = row
            labelled.head = [.init(text: Self.label(index == 0 ? label : ""), role: .heading)] + row.head
            return labelled
        }
        let wrapped: [[ScreenLine]] = rows.map { row in
            let headWidth = row.head.reduce(0) { $0 + $1.text.count }
            let bodyLines = ScreenWrap.lines(row.body, width: max(width - headWidth, 10), indent: 0)
            return bodyLines.enumerated().map { index, text in
                let head = index == 0 ? row.head : [.init(text: String(repeating: " ", count: headWidth), role: .plain)]
                return ScreenLine(head + [.init(text: text, role: row.role)])
            }
        }
        let natural = wrapped.reduce(0) { $0 + $1.count }
        return Part(kind: kind, natural: natural, minimum: minimum, rows: rows.count) { size in
            guard size > 0 else { return [] }
            if size < wrapped.count {
                let shown = wrapped.prefix(size - 1).map { Self.squeezed($0, to: 1, width: width) }.flatMap { $0 }
                return shown + [ScreenLine(Self.label("") + "… and \(wrapped.count - (size - 1)) more", .dim)]
            }
            var room = size - wrapped.count
            return wrapped.flatMap { lines -> [ScreenLine] in
                let extra = min(lines.count - 1, room)
                room -= extra
                return Self.squeezed(lines, to: 1 + extra, width: width)
            }
        }
    }

    /// A wrapped row in `count` lines, its last one cut when the row needs more.
    private static func squeezed(_ lines: [ScreenLine], to count: Int, width: Int) -> [ScreenLine] {
        guard lines.count > count else { return lines }
        var kept = Array(lines.prefix(count))
        let rest = lines[count...].map { $0.text.drop { $0 == " " } }.joined(separator: " ")
        kept[count - 1] = (kept[count - 1] + (" " + rest, kept[count - 1].spans.last?.role ?? .plain)).truncated(to: width)
        return kept
    }
}

extension Runner {
    /// Waits before its next step: shown as such.
    var isWaiting: Bool {
        if case .waits = activity { return true }
        return false
    }
}
