import Foundation
import Quiz

/// A class graded: every student's answers against their own variant, and what the class did
/// with each question and topic.
public struct ClassGrades: Sendable {
    public struct StudentGrades: Sendable {
        public var student: Student
        public var variant: Variant
        /// In the order of the student's sheet.
        public var items: [ItemGrade]

        public var points: Double { items.map(\.points).reduce(0, +) }
        public var maxPoints: Int { items.map(\.maxPoints).reduce(0, +) }
        public var percent: Double { maxPoints == 0 ? 0 : 100 * points / Double(maxPoints) }
    }

    /// What the class did with one bank question (its generated twins counted with it).
    public struct QuestionStats: Sendable {
        public var id: String
        public var title: String
        public var kind: Question.Kind
        public var tags: [String]
        public var answered: Int
        public var students: Int
        /// The mean share of the points, 0…1.
        public var success: Double
        public var fullMarks: Int
        /// The most common wrong answers, most common first, with the rule each breaks.
        public var commonMistakes: [(mistake: ItemGrade.Mistake, count: Int)]
    }

    public struct TopicStats: Sendable {
        public var topic: String
        /// The mean share of the points on the questions of this topic, 0…1.
        public var mean: Double
        public var questions: Int
    }

    public var title: String
    public var students: [StudentGrades]
    public var questions: [QuestionStats]
    public var topics: [TopicStats]
    /// How many students scored in each tenth: 0–10%, 10–20%, …, 90–100% (100% in the last).
    public var histogram: [Int]

    /// Grades every submission against its variant of `sheet`.
    public init(_ submissions: [Submission], sheet: Sheet) {
        title = sheet.title
        students = submissions.map { submission in
            let variant = sheet.variants[submission.variant - 1]
            return StudentGrades(student: submission.student, variant: variant,
                                 items: variant.items.map { ItemGrade(submission.answers[$0.number] ?? "", for: $0) })
        }
        var byQuestion: [String: [ItemGrade]] = [:]
        for grade in students.flatMap(\.items) { byQuestion[grade.item.bankQuestionID, default: []].append(grade) }
        let count = students.count
        questions = sheet.questionIDs.compactMap { id in
            guard let grades = byQuestion[id], let first = grades.first else { return nil }
            var mistakes: [ItemGrade.Mistake: Int] = [:]
            var order: [ItemGrade.Mistake] = []
            for mistake in grades.flatMap(\.mistakes) {
                if mistakes[mistake] == nil { order.append(mistake) }
                mistakes[mistake, default: 0] += 1
            }
            let common = order.enumerated().sorted { left, right in
                let (a, b) = (mistakes[left.element] ?? 0, mistakes[right.element] ?? 0)
                return a == b ? left.offset < right.offset : a > b
            }.prefix(5).map { ($0.element, mistakes[$0.element] ?? 0) }
            let bankQuestion = first.item.question.isGenerated ? nil : first.item.question
            return QuestionStats(
                id: id, title: bankQuestion?.title ?? first.item.question.title, kind: first.item.question.kind,
                tags: first.item.question.tags, answered: grades.filter { $0.verdict != .blank }.count, students: count,
                success: grades.map { $0.maxPoints == 0 ? 0 : $0.points / Double($0.maxPoints) }.reduce(0, +) / Double(max(grades.count, 1)),
                fullMarks: grades.filter { $0.verdict == .right }.count, commonMistakes: common)
        }
        var topicShares: [String: [Double]] = [:]
        var topicQuestions: [String: Set<String>] = [:]
        for grade in students.flatMap(\.items) {
            for tag in grade.item.question.tags {
                topicShares[tag, default: []].append(grade.maxPoints == 0 ? 0 : grade.points / Double(grade.maxPoints))
                topicQuestions[tag, default: []].insert(grade.item.bankQuestionID)
            }
        }
        topics = topicShares.keys.sorted().map { topic in
            let shares = topicShares[topic] ?? []
            return TopicStats(topic: topic, mean: shares.reduce(0, +) / Double(max(shares.count, 1)), questions: topicQuestions[topic]?.count ?? 0)
        }
        var bins = Array(repeating: 0, count: 10)
        for student in students { bins[min(9, Int(student.percent / 10))] += 1 }
        histogram = bins
    }

    /// The class's mean score, in percent.
    public var meanPercent: Double {
        students.isEmpty ? 0 : students.map(\.percent).reduce(0, +) / Double(students.count)
    }
}
