import ArgumentParser
import Foundation
import Progress

/// Records synthetic answers, one committed transaction each, and says so after each commit: the
/// tests start it as a child process to check that two writers both record everything and that a
/// process killed after two answers keeps them.
struct RecordAnswersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-answers", abstract: "Internal: record synthetic answers into a progress database (tests).",
        shouldDisplay: false)

    @OptionGroup var store: ProgressOptions

    @Option(name: .long, help: "How many answers.")
    var count = 1

    @Option(name: .long, help: "The question id they answer.")
    var question = "serial-async-async"

    @Option(name: .long, help: "Wait this many milliseconds after each answer.")
    var pause = 0

    func run() throws {
        let opening = try store.open()
        guard let store = opening.store, store.isWritable else { throw CommandFailure.badInput("the progress database cannot be written") }
        for number in 1...max(count, 1) {
            try store.record(Review(
                questionID: question, contentHash: "synthetic", kind: .trace, grade: number % 3 == 0 ? .wrong : .exact,
                answer: "answer \(number)", seconds: 1, mode: .drill, topics: ["serial-queues"]))
            Output.write("recorded \(number)\n")  // one write(2): the tests read it at once
            if pause > 0 { usleep(UInt32(pause) * 1000) }
        }
    }
}
