import Foundation
import Testing

/// Every screen fits a terminal of 80×24, its width measured in columns (an East Asian wide
/// character takes two): the commands' output, and the drill's `:run`, `:right`, `:skip`,
/// `:list`, Tab completion and a snippet taller than the screen.
@Suite(.serialized) struct ScreenWidthEndToEndTests {
    /// The columns a line takes: East Asian wide characters two, the rest one.
    static func columns(_ line: Substring) -> Int {
        line.unicodeScalars.reduce(0) { total, scalar in
            let value = scalar.value
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
                || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
                || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value) || (0x20000...0x3FFFD).contains(value)
            return total + (wide ? 2 : 1)
        }
    }

    /// The lines wider than 80 columns, leaving out the prompts (libedit redraws the line being
    /// edited in place, which the plain transcript runs together).
    /// The lines of a transcript wider than 80 columns. A carriage return starts the line again,
    /// as on a terminal: a progress line redrawn in place is as wide as its widest drawing.
    static func tooWide(_ transcript: String) -> [String] {
        transcript.split(whereSeparator: \.isNewline).map { PseudoTerminal.plain(String($0)) }
            .filter { !$0.contains("> ") && columns(Substring($0)) > 80 }
    }

    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GCDQUIZ_BANK")
        return environment
    }

    /// A short question whose text is Chinese, without spaces to break it at.
    static let chinese = """
        id: chinese-text
        kind: short
        title: 优先级反转
        level: 1
        tags: [qos]
        source: 课堂练习 iOS 并发编程 — GCD & Operation 优先级反转 信号量 实用工具队列 用户发起队列
        question: |
          一个在实用工具队列上的块和一个在用户发起队列上的块都在循环前后调用信号量的等待和发出信号，信号量的初始值为一。请解释可能发生的优先级反转，以及为什么系统无法提升持有者的优先级。
        answer: 高优先级的任务等待低优先级的任务。
        key_ideas:
        - idea: 高优先级等待低优先级
          accept: [等待]
        explanation: 信号量没有所有者。

        """

    @Test(arguments: [["list"], ["show", "CHINESE"], ["solve", "group-unbalanced-enter-hangs"], ["solve", "race-global-and-main-group"], ["solve", "actor-calls-from-main-tasks", "--witness"],
                      ["run", "main-sync-from-main-thread", "--runs", "20"], ["tags"], ["explain", "serial-async-in-sync", "--outcome", "1 2 3 4"]])
    func aCommandFitsEightyColumns(_ arguments: [String]) throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("chinese-text.yaml")
        try Self.chinese.write(to: file, atomically: true, encoding: .utf8)
        let terminal = try PseudoTerminal(arguments: arguments.map { $0 == "CHINESE" ? file.path : $0 } + ["--bank", Binary.packageRoot.appendingPathComponent("Questions").path],
                                          environment: Self.environment, size: (80, 24))
        #expect(terminal.waitForExit(timeout: 60) == 0, "\(terminal.screen.suffix(400))")
        #expect(Self.tooWide(terminal.transcript).isEmpty, "\(Self.tooWide(terminal.transcript))")
        if arguments == ["show", "CHINESE"] {
            // Wrapped, not cut: all of it is there.
            #expect(terminal.screen.split(whereSeparator: \.isNewline).joined().contains("为什么系统无法提升持有者的优先级"))
        }
    }

    @Test func theDrillFitsEightyColumns() throws {
        let state = try Binary.temporaryFolder()
        let bank = try DrillEndToEndTests.fixtureBank([
            "serial-queue/serial-async-async", "sync-async/sync-vs-async", "operation-queues/cancel-all-while-suspended",
            "serial-queue/serial-sync-sync",
        ])
        defer {
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: bank)
        }
        let terminal = try PseudoTerminal(arguments: ["--bank", bank.path, "--seed", "1", "--live-runs", "0"],
                                          environment: DrillEndToEndTests.environment(state: state), size: (80, 24))
        #expect(terminal.waitFor("answer> "))
        #expect(terminal.screen.contains("──── 1/4 ────"))
        #expect(terminal.screen.contains("let concurrentQueue = DispatchQueue(label: \"concurrentQueue\","))

        // :skip: the next question is number 2, not 1 again.
        var mark = terminal.screen.count
        terminal.type(":skip\r")
        #expect(terminal.waitFor("──── 2/4 ────", after: mark))

        // A snippet of 24 lines: its title is said again above the prompt.
        mark = terminal.screen.count
        terminal.type(":goto cancel-all-while-suspended\r")
        #expect(terminal.waitFor("(3/4: cancelAllOperations on a suspended queue)", after: mark))

        // :run streams and fits: its bars shrink, its footer wraps.
        mark = terminal.screen.count
        terminal.type(":run 300\r")
        #expect(terminal.waitFor("coverage:", after: mark, timeout: 60))
        #expect(terminal.waitFor("answer> ", after: mark))

        // :right after :again overrules the scored answer, and says so within 80 columns.
        mark = terminal.screen.count
        terminal.type(":goto sync-vs-async\r")
        #expect(terminal.waitFor("answer> ", after: mark))
        terminal.type("no idea\r")
        #expect(terminal.waitFor("next> ", after: mark))
        mark = terminal.screen.count
        terminal.type(":again\r")
        #expect(terminal.waitFor("answer> ", after: mark))
        terminal.type("sync blocks the caller until the block is done; async returns immediately\r")
        #expect(terminal.waitFor("Practice: this answer does not count", after: mark))
        mark = terminal.screen.count
        terminal.type(":right\r")
        #expect(terminal.waitFor("Your scored answer counts as right (the grader said wrong", after: mark))

        // Tab lists the candidates in columns, each id whole.
        mark = terminal.screen.count
        terminal.type(":goto s\t")
        #expect(terminal.waitFor("serial-sync-sync", after: mark))
        #expect(terminal.waitFor("sync-vs-async", after: mark))
        terminal.type("\u{15}:list\r")
        #expect(terminal.waitFor("▶ sync-vs-async", after: mark))

        terminal.type(":quit\r")
        #expect(terminal.waitForExit(timeout: 30) == 0)
        #expect(Self.tooWide(terminal.transcript).isEmpty, "\(Self.tooWide(terminal.transcript))")
    }
}
