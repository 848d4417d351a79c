import ConcurrencyModel

/// RFC 4180 CSV: fields holding a comma, a quote or a line break are quoted, quotes doubled. Answers
/// and code hold all three.
enum CSV {
    struct Row {
        /// The line the row starts on, 1-based, for messages.
        var line: Int
        var fields: [String]
        /// The byte offset at which each field starts, to place a problem with it.
        var offsets: [Int]
    }

    static func line(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Every row; a blank line between rows is skipped. An unterminated quote is a problem at
    /// the quote that opens it.
    static func rows(_ places: TextPlaces) throws -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var offsets: [Int] = []
        var field: [UInt8] = []
        var fieldStart = 0
        var openingQuote: Int?
        var line = 1
        var rowLine = 1
        let bytes = places.bytes
        var index = 0
        func endField(next: Int) {
            fields.append(String(decoding: field, as: UTF8.self))
            offsets.append(fieldStart)
            field.removeAll(keepingCapacity: true)
            fieldStart = next
        }
        func endRow(next: Int) {
            endField(next: next)
            if !(fields.count == 1 && fields[0].isEmpty) { rows.append(Row(line: rowLine, fields: fields, offsets: offsets)) }
            fields.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if openingQuote != nil {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        openingQuote = nil
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): openingQuote = index
                case UInt8(ascii: ","): endField(next: index + 1)
                case UInt8(ascii: "\r"): break
                case UInt8(ascii: "\n"):
                    endRow(next: index + 1)
                    line += 1
                    rowLine = line
                default: field.append(byte)
                }
            }
            index += 1
        }
        if let openingQuote { throw ProblemList([places.problem("a quoted field is never closed", at: openingQuote)]) }
        if !field.isEmpty || !fields.isEmpty { endRow(next: bytes.count) }
        return rows
    }
}
