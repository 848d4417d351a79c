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
        public var wrong = 0
        /// Passed or out of time: not known in the interview, and said apart from wrong.
        public var noAnswer = 0

        public init(topic: String, right: Int = 0, partial: Int = 0, wrong: Int = 0, noAnswer: Int = 0) {
            self.topic = topic
            self.right = right
            self.partial = partial
            self.wrong = wrong
            self.noAnswer = noAnswer
        }

        var asked: Int { right + partial + wrong + noAnswer }
        /// Right 1, partly right ½, the rest 0, over the questions asked.
        var share: Double { (Double(right) + Double(partial) / 2) / Double(max(asked, 1)) }
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
                Self.count(answer.grade, into: &line)
                if let index = lines.firstIndex(where: { $0.topic == topic }) { lines[index] = line } else { lines.append(line) }
            }
        }
        return lines
    }

    /// Every answer counted: right, partly right, wrong and no answer, each on its own.
    public var tally: TopicLine {
        var line = TopicLine(topic: "all")
        for answer in answers { Self.count(answer.grade, into: &line) }
        return line
    }

    private static func count(_ grade: Grade, into line: inout TopicLine) {
        switch grade {
        case .exact, .right, .reached: line.right += 1
        case .incomplete, .partial: line.partial += 1
        case .wrong, .gaveUp: line.wrong += 1
        case .unanswered, .skipped: line.noAnswer += 1
        }
    }

    /// Right counts 1, partly right ½; wrong, a pass or no answer 0 (the README's scoring).
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
            (first.share, -(first.wrong + first.noAnswer), first.topic) < (second.share, -(second.wrong + second.noAnswer), second.topic)
        }?.topic
    }

    /// "2 right, 1 partly right, 1 wrong, 1 no answer": the counts that are not zero.
    public var counts: String {
        let tally = tally
        let parts = [(tally.right, "right"), (tally.partial, "partly right"), (tally.wrong, "wrong"), (tally.noAnswer, "no answer")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.joined(separator: ", ")
    }

    /// "score 2.5 of 4 (63%)"
    public var scoreText: String {
        let points = score == score.rounded() ? String(Int(score)) : String(format: "%.1f", score)
        return "score \(points) of \(answers.count) (\(Int((share * 100).rounded()))%)"
    }

    /// One line: ready (80% and more), nearly (from 50%) or not yet, with the counts and the
    /// score they make.
    public var verdict: String {
        let figures = "\(counts); \(scoreText)"
        switch share {
        case 1: return "Ready: all \(answers.count) right."
        case 0.8...: return "Ready: \(figures)."
        case 0.5..<0.8: return "Nearly ready: \(figures). Go over the questions to review and try again."
        default:
            guard let weakest else { return "Not ready yet: \(figures)." }
            return "Not ready yet: \(figures). Practise \(weakest) first ('gcdquiz drill --tag \(weakest)')."
        }
    }
}
