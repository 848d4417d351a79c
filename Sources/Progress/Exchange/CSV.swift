/// RFC 4180 CSV: fields holding a comma, a quote or a line break are quoted, quotes doubled. Answers
/// and code hold all three.
enum CSV {
    struct Row {
        /// The line the row starts on, 1-based, for messages.
        var line: Int
        var fields: [String]
    }

    static func line(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Every row; a blank line between rows is skipped. An unterminated quote is an error.
    static func rows(_ text: String, name: String) throws -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var line = 1
        var rowLine = 1
        let bytes = Array(text.utf8)
        var index = 0
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRow() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { rows.append(Row(line: rowLine, fields: fields)) }
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
                case UInt8(ascii: "\""): inQuotes = true
                case UInt8(ascii: ","): endField()
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
        if inQuotes { throw LogExchange.Failure(description: "\(name):\(rowLine): a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty { endRow() }
        return rows
    }
}
