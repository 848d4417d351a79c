import ArgumentParser
import Foundation
import Progress
import Quiz

/// Times the progress database at the size a keen learner reaches: recording one answer, what the
/// drill's first prompt needs from the store, and `gcdquiz progress` as a whole process. Meant for
/// release builds (`make bench-progress`); tests never assert timings.
struct ProgressBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark-progress",
        abstract: "Time the progress database over a synthetic log (default 10,000 answers); use a release build: make bench-progress.")

    @OptionGroup var bank: BankOptions

    @Option(name: .long, help: "Answers in the synthetic log.")
    var reviews = 10_000

    @Option(name: .long, help: "Measurements of each kind (the median is shown).")
    var samples = 15

    @Option(name: .long, help: ArgumentHelp("Keep the synthetic database at this path (to look at its report).", valueName: "path"))
    var keep: String?

    func validate() throws {
        if !(1...1_000_000).contains(reviews) { throw ValidationError("--reviews must be between 1 and 1000000") }
        if !(1...1000).contains(samples) { throw ValidationError("--samples must be between 1 and 1000") }
    }

    func run() throws {
        let clock = ContinuousClock()
        var started = clock.now
        let bank = try self.bank.load(compilation: .onDemand)
        let bankMilliseconds = Self.milliseconds(clock.now - started)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-benchmark-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/progress.sqlite"

        guard let store = ProgressStore.open(at: path).store else { throw CommandFailure.unexpected("cannot create \(path)") }
        #if DEBUG
        print("note: this is a debug build; figures for the record come from 'make bench-progress' (release)")
        #endif

        let log = Self.syntheticLog(reviews, questions: bank.questions, now: Date())
        started = clock.now
        try store.merge(log)
        print("wrote \(reviews) answers over \(bank.questions.count) questions in \(Self.format(Self.milliseconds(clock.now - started))) ms (one transaction)")
        // The import leaves the card states to be derived again: the first reader does it, once.
        started = clock.now
        _ = try store.history()
        let rebuild = Self.milliseconds(clock.now - started)
        print("")
        print("what                                               median       max")
        Self.line("derive the card states from the whole log (once)", [rebuild])

        var recordTimes: [Double] = []
        for number in 0..<max(samples * 10, 50) {
            let question = bank.questions[number % bank.questions.count]
            let review = Review(of: question, grade: .exact, answer: "benchmark", seconds: 1, mode: .drill)
            let start = clock.now
            try store.record(review)
            recordTimes.append(Self.milliseconds(clock.now - start))
        }
        Self.line("record one answer (a committed transaction)", recordTimes, target: 5)

        var open: [Double] = [], load: [Double] = [], derive: [Double] = [], total: [Double] = []
        for _ in 0..<samples {
            let start = clock.now
            guard let fresh = ProgressStore.open(at: path).store else { throw CommandFailure.unexpected("cannot reopen \(path)") }
            let opened = clock.now
            let history = try fresh.history()
            let loaded = clock.now
            let plan = ReviewPlan(questions: bank.questions, history: history)
            _ = plan.session.first
            let done = clock.now
            open.append(Self.milliseconds(opened - start))
            load.append(Self.milliseconds(loaded - opened))
            derive.append(Self.milliseconds(done - loaded))
            total.append(Self.milliseconds(done - start))
        }
        Self.line("first prompt, the store's part: open + check", open)
        Self.line("  read the card states (kept up to date)", load)
        Self.line("  plan the session", derive)
        Self.line("  together", total, target: 150)
        Self.line("  (loading the bank, for comparison)", [bankMilliseconds])

        // The bank index cache of this benchmark's own: warm after the first run, except where
        // each run gets an empty one (what the first report after an edit of every file costs).
        let cache = folder + "/cache"
        for (label, extra, cold) in [("gcdquiz progress (whole process)", [String](), false),
                                     ("  without the bank index cache", [], true),
                                     ("gcdquiz progress --json", ["--json"], false),
                                     ("gcdquiz progress --html FILE", ["--html", folder + "/report.html"], false)] {
            var times: [Double] = []
            for sample in 0..<samples {
                let cacheHome = cold ? cache + "-cold-\(sample)" : cache
                let start = clock.now
                try Self.runSelf(["progress", "--progress", path, "--bank", bank.root] + extra, environment: ["XDG_CACHE_HOME": cacheHome])
                times.append(Self.milliseconds(clock.now - start))
            }
            Self.line(label, times, target: extra.isEmpty && !cold ? 200 : nil)
        }
        if let keep {
            guard let kept = ProgressStore.open(at: keep).store else { throw CommandFailure.badInput("cannot write \(keep)") }
            try kept.merge(try store.reviews())
            print("kept the database as \(keep)")
        }
    }

    /// `count` answers spread over the last 180 days, most of them right, some after help.
    static func syntheticLog(_ count: Int, questions: [Question], now: Date) -> [Review] {
        var generator = SeededGenerator(seed: 12)
        let grades: [Question.Kind: [Grade]] = [.trace: [.exact, .exact, .exact, .incomplete, .wrong], .choice: [.right, .right, .partial, .wrong],
                                                .short: [.right, .partial, .wrong], .line: [.right, .right, .wrong]]
        return (0..<count).map { _ in
            let question = questions.randomElement(using: &generator)!
            let date = now.addingTimeInterval(-Double.random(in: 0..<(180 * 86_400), using: &generator))
            var review = Review(of: question, grade: grades[question.kind]!.randomElement(using: &generator)!,
                                answer: "1 2 3 4", seconds: Double.random(in: 5..<90, using: &generator), mode: .drill, at: date,
                                seed: generator.next())
            review.hints = Int.random(in: 0..<10, using: &generator) == 0 ? 1 : 0
            return review
        }
    }

    static func runSelf(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw CommandFailure.unexpected("gcdquiz \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }

    static func line(_ label: String, _ times: [Double], target: Double? = nil) {
        let sorted = times.sorted()
        let median = sorted[sorted.count / 2]
        var text = label.padding(toLength: 48, withPad: " ", startingAt: 0)
            + String(repeating: " ", count: max(0, 10 - format(median).count)) + format(median) + " ms"
            + String(repeating: " ", count: max(0, 7 - format(sorted.last!).count)) + format(sorted.last!) + " ms"
        if let target { text += "  (target ≤ \(Int(target)) ms" + (median <= target ? ")" : ": MISSED)") }
        print(text)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
}
