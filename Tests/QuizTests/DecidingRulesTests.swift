import ConcurrencyModel
import Quiz
import Testing

/// Hints put the rule that decides a puzzle first: the rules that forbid its near misses.
@Suite struct DecidingRulesTests {
    static func rules(_ id: String) throws -> [Rule] {
        let question = try #require(BankTests.bank.question(id: id))
        let program = try BankTests.bank.program(of: question).get()
        return DecidingRules.ordered(Explorer().explore(program))
    }

    @Test func aNotifyOnTheMainQueueIsDecidedByTheMainQueueNotByProgramOrder() throws {
        let rules = try Self.rules("work-item-notify-on-main")
        #expect(rules.first != .programOrder)
        #expect(rules.prefix(2).contains(.mainQueueNeedsIdleMainThread))
        // Every rule at work is still a hint, after the deciding ones.
        #expect(rules.contains(.programOrder))
    }

    @Test func aTrapIsDecidedByTheTrap() throws {
        #expect(try Self.rules("main-sync-from-main-thread").first == .trapEndsTheProcess)
        #expect(try Self.rules("serial-async-in-sync").contains(.serialOneAtATime))
    }
}
