import Foundation

/// A class (`sheet --roster FILE`): one student a line, `name, id` and optionally a seed, with or
/// without a header row (`name,id,seed`). Every student gets a variant of their own, in the
/// roster's order; the map of who has which (`roster-map.csv`) is written beside the sheets, for
/// grading.
public enum Roster {
    /// The students of a roster file, or why it cannot be used (file:line).
    public static func read(_ url: URL) throws(SheetError) -> [Student] {
        try parse(CSVTable.read(url), file: url.path)
    }

    static func parse(_ table: CSVTable, file: String) throws(SheetError) -> [Student] {
        var rows = table.rows
        if let first = rows.first, CSVTable.normalized(first.fields[0]) == "name" { rows.removeFirst() }
        guard !rows.isEmpty else { throw .badInput("\(file): the roster has no students (one a line: name, id, optionally a seed)") }
        var students: [Student] = []
        var lines: [String: Int] = [:]
        for row in rows {
            let fields = row.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            guard (2...3).contains(fields.count) else {
                throw .badInput("\(file):\(row.line): a student is 'name, id' or 'name, id, seed', not \(fields.count) field\(fields.count == 1 ? "" : "s")")
            }
            guard !fields[0].isEmpty, !fields[1].isEmpty else { throw .badInput("\(file):\(row.line): a student needs a name and an id") }
            if let earlier = lines[fields[1]] {
                throw .badInput("\(file):\(row.line): the id '\(fields[1])' is also on line \(earlier): each student needs an id of their own")
            }
            lines[fields[1]] = row.line
            var seed: UInt64?
            if fields.count == 3 && !fields[2].isEmpty {
                guard let value = UInt64(fields[2]) else {
                    throw .badInput("\(file):\(row.line): the seed '\(fields[2])' is not a whole number from 0 to \(UInt64.max)")
                }
                seed = value
            }
            students.append(Student(name: fields[0], id: fields[1], seed: seed))
        }
        guard students.count <= 500 else { throw .badInput("\(file): \(students.count) students; a roster has at most 500") }
        return students
    }

    /// `roster-map.csv`: per student, the variant and the seed that make it again (`check
    /// --variant N --seed S`).
    public static func map(_ sheet: Sheet) -> String {
        CSVTable.line(["name", "id", "variant", "seed"]) + sheet.variants.compactMap { variant in
            variant.student.map { CSVTable.line([$0.name, $0.id, String(variant.number), String(variant.seed)]) }
        }.joined()
    }
}
