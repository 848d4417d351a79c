import Foundation
import Testing
@testable import Quiz

@Suite struct InterviewPlanTests {
    @Test func questionsRiseInLevelAcrossTopicsAndRepeatForASeed() throws {
        let bank = BankTests.bank
        let chosen = InterviewPlan.questions(from: bank, count: 8, seed: 3)
        #expect(chosen.count == 8)
        #expect(chosen.map(\.level) == chosen.map(\.level).sorted())
        #expect(chosen.first?.level == 1 && chosen.last?.level == Question.levels.upperBound)
        #expect(Set(chosen.flatMap(\.tags)).count >= 6)
        #expect(chosen.allSatisfy { !FollowUps.isFollowUp($0, in: bank) })
        #expect(InterviewPlan.questions(from: bank, count: 8, seed: 3).map(\.id) == chosen.map(\.id))
        #expect(Set(chosen.map(\.id)).count == 8)
    }

    /// A question answered in the drill minutes ago tests memory: the interview asks another of
    /// its level when the bank has one, and one seen last week before one seen today.
    @Test func questionsNotSeenLatelyComeFirst() throws {
        let bank = BankTests.bank
        let now = Date()
        let first = InterviewPlan.questions(from: bank, count: 8, seed: 3, now: now)
        let justSeen = Dictionary(uniqueKeysWithValues: first.map { ($0.id, now.addingTimeInterval(-180)) })
        let second = InterviewPlan.questions(from: bank, count: 8, seed: 3, lastSeen: justSeen, now: now)
        #expect(second.count == 8)
        #expect(Set(second.map(\.id)).isDisjoint(with: first.map(\.id)))
        #expect(second.map(\.level) == first.map(\.level))

        // Everything of level 1 seen: those seen a week or more ago come before today's.
        let levelOne = bank.questions.filter { $0.level == 1 && !FollowUps.isFollowUp($0, in: bank) }
        var seen: [String: Date] = [:]
        for (index, question) in levelOne.enumerated() {
            seen[question.id] = index % 2 == 0 ? now.addingTimeInterval(-600) : now.addingTimeInterval(-3 * 86_400)
        }
        let third = InterviewPlan.questions(from: bank, count: 3, seed: 5, lastSeen: seen, now: now)
        let asked = try #require(third.first)
        #expect(asked.level == 1)
        #expect(seen[asked.id] == now.addingTimeInterval(-3 * 86_400))
        #expect(InterviewPlan.recency(now.addingTimeInterval(-8 * 86_400), now: now) == 0)
    }
}
