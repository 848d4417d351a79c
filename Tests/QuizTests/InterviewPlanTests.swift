import Foundation
import Testing
@testable import Quiz

@Suite struct InterviewPlanTests {
    @Test func questionsRiseInLevelAcrossTopicsAndRepeatForASeed() throws {
        let bank = BankTests.bank
        let chosen = InterviewPlan.questions(from: bank, count: 8, seed: 3)
        #expect(chosen.count == 8)
        #expect(chosen.map(\.level) == chosen.map(\.level).sorted())
        #expect(chosen.first?.level == 1 && chosen.last?.level == 3)
        #expect(Set(chosen.flatMap(\.tags)).count >= 6)
        #expect(chosen.allSatisfy { !FollowUps.isFollowUp($0, in: bank) })
        #expect(InterviewPlan.questions(from: bank, count: 8, seed: 3).map(\.id) == chosen.map(\.id))
        #expect(Set(chosen.map(\.id)).count == 8)
    }
}
