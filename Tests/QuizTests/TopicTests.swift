import Testing
@testable import Quiz

@Suite struct TopicTests {
    @Test func theTaxonomyIsShortAndUnambiguous() {
        // GCD and OperationQueue, then Swift concurrency: about fifteen topics each side at most.
        #expect((15...30).contains(Topic.all.count))
        let names = Topic.all.map(\.name)
        #expect(Set(names).count == names.count)
        // An alias names one topic only, and never another topic's name.
        let aliases = Topic.all.flatMap(\.aliases)
        #expect(Set(aliases).count == aliases.count)
        #expect(Set(aliases).isDisjoint(with: names))
    }

    /// The bank's old tags and likely typos lead to the topic meant.
    @Test func suggestionsNameTheNearestTopic() {
        #expect(Topic.suggestions(for: "race-condition").first?.name == "data-races")
        #expect(Topic.suggestions(for: "priority-inversion").first?.name == "qos")
        #expect(Topic.suggestions(for: "deadlock").first?.name == "deadlocks")
        #expect(Topic.suggestions(for: "semaphors").first?.name == "semaphores")
        #expect(Topic.suggestions(for: "Groups").first?.name == "groups")
        #expect(Topic.suggestions(for: "xyzzy").isEmpty)
        // Swift concurrency's words, and the GCD additions.
        #expect(Topic.suggestions(for: "actor").first?.name == "actors")
        #expect(Topic.suggestions(for: "MainActor").first?.name == "main-actor")
        #expect(Topic.suggestions(for: "async-let").first?.name == "structured-concurrency")
        #expect(Topic.suggestions(for: "task-group").first?.name == "structured-concurrency")
        #expect(Topic.suggestions(for: "nonisolated").first?.name == "isolation")
        #expect(Topic.suggestions(for: "continuation").first?.name == "continuations")
        #expect(Topic.suggestions(for: "AsyncStream").first?.name == "async-sequences")
        #expect(Topic.suggestions(for: "mutex").first?.name == "locks")
        #expect(Topic.suggestions(for: "lock").first?.name == "locks")
        #expect(Topic.suggestions(for: "timer").first?.name == "dispatch-sources")
        #expect(Topic.suggestions(for: "settarget").first?.name == "target-queues")
        #expect(Topic.unknownMessage("deadlock") == "no topic 'deadlock'; did you mean 'deadlocks'? ('gcdquiz tags' lists them all)")
        #expect(Topic.unknownMessage("xyzzy").hasPrefix("no topic 'xyzzy'; the topics are: serial-queues, "))
    }

    @Test func anUnknownTagIsAnErrorAtItsPlace() {
        let text = """
            id: demo
            title: A demo
            level: 1
            tags: [serial-queues, race]
            source: a test
            code: print(1)
            explanation: x
            """
        let (question, problems) = QuestionParser.parse(text, file: "q.yaml")
        #expect(question == nil)
        #expect(problems.count == 1)
        #expect(problems.first?.location?.line == 4)
        #expect(problems.first?.location?.column == 23)
        #expect(problems.first?.message.hasPrefix("unknown tag 'race' (did you mean 'data-races'?); known topics: serial-queues, concurrent-queues") == true)
    }
}

extension TopicTests {
    /// The topics the 2026 interview asks about are in the taxonomy, with GCD's additions.
    @Test func swiftConcurrencyAndTheGCDAdditionsAreTopics() {
        for name in ["tasks", "actors", "main-actor", "isolation", "structured-concurrency", "cancellation", "continuations",
                     "async-sequences", "sendable", "locks", "target-queues", "dispatch-sources"] {
            #expect(Topic.named(name) != nil, "\(name)")
        }
    }

    /// `gcdquiz tags` shows each topic on one line of 80 columns.
    @Test func eachTopicIsSaidInOneShortLine() {
        #expect(Topic.all.allSatisfy { $0.covers.count <= 53 && !$0.covers.contains("\n") })
    }
}
