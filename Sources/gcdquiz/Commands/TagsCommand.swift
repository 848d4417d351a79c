import ArgumentParser
import Foundation
import Quiz

struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "The topics questions are tagged with: each with its question count and what it covers.")

    @OptionGroup var bank: BankOptions

    @Flag(name: .long, help: "Print JSON: {\"topics\": [{\"name\", \"count\", \"covers\"}, …]}.")
    var json = false

    func run() throws {
        let counts = try bank.load().topicCounts
        if json {
            try JSONOutput.print(TopicListJSON(topics: counts.map { .init(name: $0.topic.name, count: $0.count, covers: $0.topic.covers) }))
            return
        }
        let style = TerminalStyle.current(for: .standardOutput)
        let nameWidth = counts.map(\.topic.name.count).max() ?? 0
        for (topic, count) in counts {
            let name = topic.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            let number = String(count)
            let used = 2 + nameWidth + 2 + 3 + 2
            print("  \(style.bold(name))  \(String(repeating: " ", count: max(0, 3 - number.count)))\(number)  "
                + style.wrapped(topic.covers, firstLineWidth: used, indent: used))
        }
        print(style.dim("\(counts.count) topics; 'gcdquiz drill --tag TOPIC' practises one"))
    }
}

struct TopicListJSON: Encodable {
    struct Entry: Encodable {
        var name: String
        var count: Int
        var covers: String
    }
    var topics: [Entry]
}
