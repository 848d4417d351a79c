import Foundation
import Quiz

/// The end of a mock interview: per topic right/partial/wrong, time per answer against the
/// limit, the questions to review, and a one-line verdict.
public struct Readiness: Sendable {
    public struct Answer: Sendable {
        public var questionID: String
        public var title: String
        public var topics: [String]
        /// `unanswered` when the time ran out, `skipped` for `:skip`.
        public var grade: Grade
        public var seconds: Double

        public init(questionID: String, title: String, topics: [String], grade: Grade, seconds: Double) {
            self.questionID = questionID
            self.title = title
            self.topics = topics
            self.grade = grade
            self.seconds = seconds
        }
    }

    public struct TopicLine: Sendable, Equatable {
        public var topic: String
        public var right = 0
        public var partial = 0
        /// Wrong, out of time or skipped: not known in the interview.
        public var wrong = 0
    }

    public var answers: [Answer]
    /// The time allowed for each question.
    public var limit: Double

    public init(answers: [Answer], limit: Double) {
        self.answers = answers
        self.limit = limit
    }

    /// Topics in the order first asked.
    public var topics: [TopicLine] {
        var lines: [TopicLine] = []
        for answer in answers {
            for topic in answer.topics {
                var line = lines.first { $0.topic == topic } ?? TopicLine(topic: topic)
                switch answer.grade {
                case .exact, .right, .reached: line.right += 1
                case .incomplete, .partial: line.partial += 1
                case .wrong, .unanswered, .skipped, .gaveUp: line.wrong += 1
                }
                if let index = lines.firstIndex(where: { $0.topic == topic }) { lines[index] = line } else { lines.append(line) }
            }
        }
        return lines
    }

    /// Right counts 1, partial ½; a skip or no answer counts 0.
    public var score: Double { answers.map { $0.grade.points ?? 0 }.reduce(0, +) }

    public var share: Double { answers.isEmpty ? 0 : score / Double(answers.count) }

    /// The mean time of the answers given in time.
    public var meanSeconds: Double? {
        let given = answers.filter { $0.grade != .unanswered && $0.grade != .skipped }
        return given.isEmpty ? nil : given.map(\.seconds).reduce(0, +) / Double(given.count)
    }

    public var outOfTime: Int { answers.filter { $0.grade == .unanswered }.count }

    /// What was not fully right, in the order asked.
    public var toReview: [Answer] { answers.filter { !$0.grade.isRight } }

    /// The topic answered worst (the lowest share right, then the most missed).
    public var weakest: String? {
        topics.min { first, second in
            func share(_ line: TopicLine) -> Double {
                (Double(line.right) + Double(line.partial) / 2) / Double(max(line.right + line.partial + line.wrong, 1))
            }
            return (share(first), -first.wrong, first.topic) < (share(second), -second.wrong, second.topic)
        }?.topic
    }

    /// One line: ready, nearly or not yet, and why.
    public var verdict: String {
        let score = String(format: score == score.rounded() ? "%.0f" : "%.1f", score)
        let of = "\(score) of \(answers.count)"
        switch share {
        case 1: return "Ready: all \(answers.count) right."
        case 0.8...: return "Ready: \(of) right, and the rest close."
        case 0.5..<0.8: return "Nearly ready: \(of) right; go over the questions to review and try again."
        default:
            guard let weakest else { return "Not ready yet: \(of) right." }
            return "Not ready yet: \(of) right; practise \(weakest) first ('gcdquiz drill --tag \(weakest)')."
        }
    }
}
