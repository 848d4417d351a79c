import Foundation
import Quiz

/// One student's answers, by question number on their own variant.
public struct Submission: Sendable {
    public var student: Student
    /// The 1-based number of the variant the student was given.
    public var variant: Int
    /// Answers by question number; a question not there was left blank.
    public var answers: [Int: String]
}

/// Reads a class's answers: gcdquiz's own CSV (one answer a row: student, question number, answer
/// as the sheet asks for it) or Moodle's quiz responses report (one attempt a row, `Response N`
/// columns holding the texts of the answers chosen).
public enum ClassAnswers {
    /// `student,question,answer` rows (a header row names them; `id` or `student` for the
    /// student, matched against the roster's ids, or a variant's number without a roster).
    /// Every student of the roster is graded, with no answers if the file has none.
    public static func read(_ table: CSVTable, file: String, sheet: Sheet) throws(SheetError) -> [Submission] {
        guard let header = table.rows.first else { throw .badInput("\(file): no answers (a header row, then student,question,answer rows)") }
        guard let studentColumn = CSVTable.column(header.fields, ["student", "id", "student id", "variant"]),
              let questionColumn = CSVTable.column(header.fields, ["question", "question number", "number"]),
              let answerColumn = CSVTable.column(header.fields, ["answer", "response"]) else {
            throw .badInput("\(file):\(header.line): the header must name the columns student, question and answer (found: \(header.fields.joined(separator: ", ")))")
        }
        var submissions: [Submission] = sheet.variants.compactMap { variant in
            variant.student.map { Submission(student: $0, variant: variant.number, answers: [:]) }
        }
        var index: [String: Int] = Dictionary(uniqueKeysWithValues: submissions.enumerated().map { ($1.student.id, $0) })
        var places: [String: Int] = [:]
        for row in table.rows.dropFirst() {
            let fields = row.fields
            let width = max(studentColumn, questionColumn, answerColumn) + 1
            guard fields.count >= width - (answerColumn == width - 1 ? 1 : 0) else {
                throw .badInput("\(file):\(row.line): \(fields.count) field(s), but the header names \(header.fields.count)")
            }
            let who = fields[studentColumn].trimmingCharacters(in: .whitespaces)
            let answer = answerColumn < fields.count ? fields[answerColumn] : ""
            let position: Int
            if let known = index[who] {
                position = known
            } else if !sheet.hasRoster, let number = Int(who), let variant = sheet.variants.first(where: { $0.number == number }) {
                position = submissions.count
                index[who] = position
                submissions.append(Submission(student: Student(name: "variant \(variant.id)", id: who), variant: number, answers: [:]))
            } else {
                let known = sheet.hasRoster ? "the roster's ids (roster-map.csv)" : "a variant's number, 1 to \(sheet.variants.count)"
                throw .badInput("\(file):\(row.line): no student '\(who)': the student column holds \(known)")
            }
            let variant = sheet.variants[submissions[position].variant - 1]
            guard let number = Int(fields[questionColumn].trimmingCharacters(in: .whitespaces)), (1...variant.items.count).contains(number) else {
                throw .badInput("\(file):\(row.line): question '\(fields[questionColumn])': a question number of the student's sheet, 1 to \(variant.items.count)")
            }
            let key = "\(who)#\(number)"
            if let earlier = places[key] {
                throw .badInput("\(file):\(row.line): a second answer of '\(who)' to question \(number) (the first is on line \(earlier))")
            }
            places[key] = row.line
            submissions[position].answers[number] = answer
        }
        return submissions
    }

    /// Moodle's responses report, downloaded as CSV, of a quiz made from `export --format moodle`
    /// with its questions in the export's order: `Response N` is item N. A response is the texts
    /// of the answers chosen, separated by "; ", or "-" for none; each text is read back as the
    /// letter of that answer in the export's order, an essay's as it is.
    public static func readMoodle(_ table: CSVTable, file: String, items: [SheetItem]) throws(SheetError) -> [Submission] {
        guard let header = table.rows.first else { throw .badInput("\(file): empty") }
        var responseColumns: [Int: Int] = [:]
        for (column, name) in header.fields.enumerated() {
            let words = name.split(separator: " ")
            if words.count == 2, words[0].lowercased() == "response", let number = Int(words[1]) { responseColumns[number] = column }
        }
        guard !responseColumns.isEmpty else {
            throw .badInput("\(file):\(header.line): no 'Response 1', 'Response 2'… columns: download Moodle's responses report (Results → Responses) as CSV")
        }
        if let beyond = responseColumns.keys.first(where: { $0 > items.count }) {
            throw .badInput("\(file):\(header.line): 'Response \(beyond)', but the export has \(items.count) question(s): export the same questions (same filters and --seed) as the quiz was made of")
        }
        let idColumn = CSVTable.column(header.fields, ["ID number", "idnumber"])
        let emailColumn = CSVTable.column(header.fields, ["Email address", "email"])
        let firstColumn = CSVTable.column(header.fields, ["First name", "firstname"])
        let lastColumn = CSVTable.column(header.fields, ["Last name", "Surname", "lastname"])
        var submissions: [Submission] = []
        for row in table.rows.dropFirst() {
            let field = { (column: Int?) -> String in
                column.flatMap { $0 < row.fields.count ? row.fields[$0].trimmingCharacters(in: .whitespaces) : nil } ?? ""
            }
            let name = [field(firstColumn), field(lastColumn)].filter { !$0.isEmpty }.joined(separator: " ")
            let id = [field(idColumn), field(emailColumn), name].first { !$0.isEmpty } ?? "row \(row.line)"
            // Moodle ends some reports with an "Overall average" row, which is no student.
            if name.lowercased().hasPrefix("overall average") || id.lowercased().hasPrefix("overall average") { continue }
            var answers: [Int: String] = [:]
            for (number, column) in responseColumns {
                let response = field(column)
                guard response != "-", !response.isEmpty else { continue }
                answers[number] = try letters(of: response, in: items[number - 1], place: "\(file):\(row.line): Response \(number)")
            }
            submissions.append(Submission(student: Student(name: name.isEmpty ? id : name, id: id), variant: 1, answers: answers))
        }
        return submissions
    }

    /// A Moodle response as the letters of its answers in the export's order (an essay as it is).
    static func letters(of response: String, in item: SheetItem, place: String) throws(SheetError) -> String {
        let texts: [String]
        switch item.answer {
        case .short: return response
        // As the export writes an outcome: its lines in the notation, then how it ends.
        case .trace: texts = item.traceOptions.map { OutcomeView($0.outcome).printed.text + " " + OutcomeView($0.outcome).ending }
        case .choice: texts = item.optionOrder.map { Prose.plain(Prose.runs(item.question.options[$0].text)) }
        }
        let offered = texts.map(normalized)
        var letters: [String] = []
        var parts = response.components(separatedBy: "; ")[...]
        while !parts.isEmpty {
            // An answer's own text may hold "; ": take the fewest parts that make an answer.
            var found: Int?
            for count in 1...parts.count {
                let joined = normalized(parts.prefix(count).joined(separator: "; "))
                if let index = offered.firstIndex(of: joined) {
                    found = index
                    parts = parts.dropFirst(count)
                    break
                }
            }
            guard let index = found else {
                throw .badInput("\(place) holds '\(String(parts.joined(separator: "; ").prefix(60)))', which question \(item.number) ('\(item.question.id)') does not offer: is the quiz made of the export's questions, in the export's order?")
            }
            letters.append(Letters.letter(index))
        }
        return letters.joined(separator: ", ")
    }

    /// Text as Moodle's `html_to_text` leaves it, compared without regard to spacing.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
