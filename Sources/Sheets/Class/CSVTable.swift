import Foundation

/// RFC 4180 CSV as a class's files use it (a roster, answers, Moodle's responses report, the
/// reports written back): a field holding a comma, a quote or a line break is quoted, quotes
/// doubled. A UTF-8 byte order mark (spreadsheets write one) is skipped.
public struct CSVTable: Sendable {
    public struct Row: Sendable {
        /// The line the row starts on, 1-based, for messages.
        public var line: Int
        public var fields: [String]
    }

    public var rows: [Row]

    /// Every row of `text`; a blank line between rows is skipped. An unterminated quote is an
    /// error at the line its field starts on.
    public init(_ text: String, file: String) throws(SheetError) {
        var rows: [Row] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var line = 1
        var rowLine = 1
        var quoteLine = 1
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var index = 0
        func endRow() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            if !(fields.count == 1 && fields[0].trimmingCharacters(in: .whitespaces).isEmpty) {
                rows.append(Row(line: rowLine, fields: fields))
            }
            fields.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inQuotes = true
                    quoteLine = line
                case UInt8(ascii: ","):
                    fields.append(String(decoding: field, as: UTF8.self))
                    field.removeAll(keepingCapacity: true)
                case UInt8(ascii: "\r"): break
                case UInt8(ascii: "\n"):
                    endRow()
                    line += 1
                    rowLine = line
                default: field.append(byte)
                }
            }
            index += 1
        }
        if inQuotes { throw .badInput("\(file):\(quoteLine): a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty { endRow() }
        self.rows = rows
    }

    /// Reads a CSV file; one that cannot be read is bad input.
    public static func read(_ url: URL) throws(SheetError) -> CSVTable {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .badInput("cannot read '\(url.path)': \(error.localizedDescription)")
        }
        return try CSVTable(text, file: url.path)
    }

    /// One line of CSV, quoted where needed, ending in CRLF as RFC 4180 has it.
    public static func line(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }

    /// The index of the first header field matching one of `names` (case and spaces ignored).
    public static func column(_ header: [String], _ names: [String]) -> Int? {
        let wanted = Set(names.map(normalized))
        return header.firstIndex { wanted.contains(normalized($0)) }
    }

    static func normalized(_ name: String) -> String {
        name.lowercased().filter { !$0.isWhitespace && $0 != "_" && $0 != "-" }
    }
}
