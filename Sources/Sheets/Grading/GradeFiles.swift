import Foundation
import Quiz

/// A graded class as files: per student their scores and feedback, and the class report as text,
/// CSV, JSON and an HTML page with charts.
///
/// - `scores.csv`: a row per student: name, id, variant, seed, the points of each question (in the
///   order the questions were chosen), total, out of, percent;
/// - `feedback.csv`: a row per student and question: the answer as read, the points, the verdict
///   and what was wrong, in the key's words; `feedback-ID.txt` the same for one student;
/// - `report.txt`, `report.csv` (a row per question), `report.json` (everything), `report.html`.
public enum GradeFiles {
    public static func files(_ grades: ClassGrades) -> [OutputFile] {
        var files = [
            OutputFile(name: "scores.csv", contents: Data(scores(grades).utf8)),
            OutputFile(name: "feedback.csv", contents: Data(feedbackTable(grades).utf8)),
            OutputFile(name: "report.txt", contents: Data(text(grades).utf8)),
            OutputFile(name: "report.csv", contents: Data(questionTable(grades).utf8)),
            OutputFile(name: "report.json", contents: json(grades)),
            OutputFile(name: "report.html", contents: Data(GradeHTML.render(grades).utf8)),
        ]
        var used: Set<String> = []
        for student in grades.students {
            var name = "feedback-" + fileSafe(student.student.id) + ".txt"
            var extra = 2
            while !used.insert(name).inserted {
                name = "feedback-" + fileSafe(student.student.id) + "-\(extra).txt"
                extra += 1
            }
            files.append(OutputFile(name: name, contents: Data(feedback(student, title: grades.title).utf8)))
        }
        return files
    }

    /// An id as part of a file name: letters, digits, `.`, `-` and `_` kept, the rest `_`.
    static func fileSafe(_ id: String) -> String {
        let kept = String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        return kept.trimmingCharacters(in: CharacterSet(charactersIn: ".")).isEmpty ? "student" : kept
    }

    static func points(_ value: Double) -> String { TickScoring.number(value) }

    static func percent(_ value: Double) -> String { String(format: "%.1f", value) }

    static func scores(_ grades: ClassGrades) -> String {
        let ids = grades.questions.map(\.id)
        var text = CSVTable.line(["name", "id", "variant", "seed"] + ids + ["total", "out of", "percent"])
        for student in grades.students {
            let byQuestion = Dictionary(student.items.map { ($0.item.bankQuestionID, $0.points) }) { first, _ in first }
            text += CSVTable.line([student.student.name, student.student.id, student.variant.id, String(student.variant.seed)]
                + ids.map { byQuestion[$0].map(points) ?? "" }
                + [points(student.points), String(student.maxPoints), percent(student.percent)])
        }
        return text
    }

    static func feedbackTable(_ grades: ClassGrades) -> String {
        var text = CSVTable.line(["name", "id", "variant", "number", "question", "answer", "points", "out of", "verdict", "feedback"])
        for student in grades.students {
            for grade in student.items {
                text += CSVTable.line([student.student.name, student.student.id, student.variant.id, String(grade.item.number),
                                       grade.item.question.id, grade.answer, points(grade.points), String(grade.maxPoints),
                                       grade.verdict.rawValue, grade.feedback.joined(separator: " ")])
            }
        }
        return text
    }

    /// One student's result, to hand back.
    static func feedback(_ student: ClassGrades.StudentGrades, title: String) -> String {
        var text = "\(title)\n\(student.student.name) (\(student.student.id)) · variant \(student.variant.id) · seed \(student.variant.seed)\n"
        text += "Score: \(points(student.points)) of \(student.maxPoints) (\(percent(student.percent))%)\n\n"
        for grade in student.items {
            text += "\(grade.item.number). \(grade.item.question.title): \(points(grade.points)) of \(grade.maxPoints) (\(grade.verdict.rawValue))\n"
            if !grade.answer.trimmingCharacters(in: .whitespaces).isEmpty { text += "   Your answer: \(grade.answer)\n" }
            for line in grade.feedback { text += "   " + line + "\n" }
        }
        return text
    }

    static func questionTable(_ grades: ClassGrades) -> String {
        var text = CSVTable.line(["question", "title", "kind", "tags", "answered", "students", "success percent", "full marks", "common mistakes"])
        for question in grades.questions {
            let mistakes = question.commonMistakes.map { "\($0.mistake.answer) ×\($0.count) (\($0.mistake.rule))" }.joined(separator: "; ")
            text += CSVTable.line([question.id, question.title, question.kind.rawValue, question.tags.joined(separator: " "), String(question.answered),
                                   String(question.students), percent(100 * question.success), String(question.fullMarks), mistakes])
        }
        return text
    }

    /// The class report for a terminal and `report.txt`.
    public static func text(_ grades: ClassGrades) -> String {
        var text = "\(grades.title): \(grades.students.count) student\(grades.students.count == 1 ? "" : "s"), mean \(percent(grades.meanPercent))%\n\n"
        text += "Questions (share of the points the class earned, full marks):\n"
        for question in grades.questions {
            text += "  \(percent(100 * question.success).leftPadded(5))%  \(question.fullMarks)/\(question.students) full  \(question.id): \(question.title)\n"
            for (mistake, count) in question.commonMistakes.prefix(3) {
                text += "           \(count)× \(mistake.answer) — \(mistake.rule)\n"
            }
        }
        text += "\nTopics (mean share of the points):\n"
        for topic in grades.topics.sorted(by: { $0.mean < $1.mean }) {
            text += "  \(percent(100 * topic.mean).leftPadded(5))%  \(topic.topic) (\(topic.questions) question\(topic.questions == 1 ? "" : "s"))\n"
        }
        text += "\nScores:\n"
        for (index, count) in grades.histogram.enumerated() {
            let range = index == 9 ? "90–100%" : "\(index * 10)–\(index * 10 + 10)%"
            text += "  \(range.leftPadded(8)) \(String(repeating: "█", count: count)) \(count)\n"
        }
        return text
    }

    struct JSONDocument: Encodable {
        struct StudentEntry: Encodable {
            var name: String
            var id: String
            var variant: String
            var seed: UInt64
            var points: Double
            var outOf: Int
            var percent: Double
            var answers: [AnswerEntry]
        }

        struct AnswerEntry: Encodable {
            var number: Int
            var question: String
            var bankQuestion: String
            var answer: String
            var points: Double
            var outOf: Int
            var verdict: String
            var feedback: [String]
        }

        struct QuestionEntry: Encodable {
            var id: String
            var title: String
            var kind: String
            var tags: [String]
            var answered: Int
            var students: Int
            var success: Double
            var fullMarks: Int
            var commonMistakes: [MistakeEntry]
        }

        struct MistakeEntry: Encodable {
            var answer: String
            var rule: String
            var count: Int
        }

        struct TopicEntry: Encodable {
            var topic: String
            var mean: Double
            var questions: Int
        }

        var schema = jsonSchemaVersion
        var title: String
        var meanPercent: Double
        var students: [StudentEntry]
        var questions: [QuestionEntry]
        var topics: [TopicEntry]
        var histogram: [Int]
    }

    static func json(_ grades: ClassGrades) -> Data {
        let round = { (value: Double) in (value * 1000).rounded() / 1000 }
        let document = JSONDocument(
            title: grades.title, meanPercent: round(grades.meanPercent),
            students: grades.students.map { student in
                .init(name: student.student.name, id: student.student.id, variant: student.variant.id, seed: student.variant.seed,
                      points: student.points, outOf: student.maxPoints, percent: round(student.percent),
                      answers: student.items.map { grade in
                          .init(number: grade.item.number, question: grade.item.question.id, bankQuestion: grade.item.bankQuestionID,
                                answer: grade.answer, points: grade.points, outOf: grade.maxPoints, verdict: grade.verdict.rawValue,
                                feedback: grade.feedback)
                      })
            },
            questions: grades.questions.map { question in
                .init(id: question.id, title: question.title, kind: question.kind.rawValue, tags: question.tags, answered: question.answered,
                      students: question.students, success: round(question.success), fullMarks: question.fullMarks,
                      commonMistakes: question.commonMistakes.map { .init(answer: $0.mistake.answer, rule: $0.mistake.rule, count: $0.count) })
            },
            topics: grades.topics.map { .init(topic: $0.topic, mean: round($0.mean), questions: $0.questions) },
            histogram: grades.histogram)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(document)) ?? Data()) + Data("\n".utf8)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
