import ConcurrencyModel
import Foundation
import LiveRun
import Quiz
import Testing

/// An outcome reads the same in every JSON document: a live one too, with its own endings, and
/// with a document's own fields beside the shared ones.
@Suite struct OutcomeJSONTests {
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aLiveOutcomeKeepsItsEndingAndIsWrittenAsALearnerPredictsIt() throws {
        let finished = OutcomeJSON(LiveOutcome(lines: ["1", "2"], end: .finished))
        #expect(finished.end == "finished")
        #expect(finished.notation == "1 2")
        #expect(finished.reason == nil)
        for end in [LiveEnd.deadlock, .crash, .timeout] {
            let stopped = OutcomeJSON(LiveOutcome(lines: ["1"], end: end), reason: "why")
            #expect(stopped.end == end.rawValue)
            #expect(stopped.notation == "1 deadlock")
            #expect(stopped.reason == "why")
        }
    }

    @Test func aLiveOutcomeReadsAsTheModelsSameOutcome() throws {
        let model = OutcomeJSON(Outcome(lines: ["a b", "2"], end: .deadlock), reason: "trap")
        let live = OutcomeJSON(LiveOutcome(lines: ["a b", "2"], end: .deadlock), reason: "trap")
        #expect(try Self.encoded(model) == Self.encoded(live))
    }

    @Test func aDocumentsFieldsSitBesideTheOutcomesInOneObject() throws {
        struct Counts: Encodable { var count: Int }
        let entry = OutcomeWith(OutcomeJSON(Outcome(lines: ["1"], end: .finished)), Counts(count: 3))
        #expect(try Self.encoded(entry) == #"{"count":3,"end":"finished","lines":["1"],"notation":"1"}"#)
    }
}
