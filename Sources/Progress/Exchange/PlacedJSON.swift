/// JSON read with the byte offset of every value (RFC 8259), so that a problem in an imported log
/// is shown at its line and column: Foundation's parser says only that the data is not valid JSON,
/// or where in characters, and its decoder names a path, not a place.
struct PlacedJSON {
    indirect enum Value {
        case object([Member])
        case array([PlacedJSON])
        case string(String)
        /// The number as written: the reader decides what it may be (`1e400` is no Double).
        case number(String)
        case bool(Bool)
        case null
    }

    struct Member {
        var key: String
        var value: PlacedJSON
    }

    var value: Value
    /// Where the value starts, in bytes.
    var offset: Int

    /// Why the text is not JSON, and where.
    struct SyntaxError: Error {
        var message: String
        var offset: Int
    }

    /// Deeper nesting than this is refused rather than risk the stack.
    static let depthLimit = 256

    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> PlacedJSON {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw SyntaxError(message: "text after the end of the JSON document", offset: reader.index) }
        return value
    }

    /// What a value is, for messages: "a string", "a number", ….
    var kindName: String {
        switch value {
        case .object: "an object"
        case .array: "a list"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        func failure(_ message: String, at offset: Int? = nil) -> SyntaxError {
            SyntaxError(message: message, offset: offset ?? index)
        }

        func unexpected(_ wanted: String) -> SyntaxError {
            guard let byte = current else { return failure("the document ends where \(wanted) should be") }
            let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
            return failure("\(shown) where \(wanted) should be")
        }

        mutating func value(depth: Int) throws(SyntaxError) -> PlacedJSON {
            guard depth < PlacedJSON.depthLimit else { throw failure("nested more than \(PlacedJSON.depthLimit) deep") }
            let start = index
            switch current {
            case UInt8(ascii: "{"): return PlacedJSON(value: .object(try object(depth: depth)), offset: start)
            case UInt8(ascii: "["): return PlacedJSON(value: .array(try array(depth: depth)), offset: start)
            case UInt8(ascii: "\""): return PlacedJSON(value: .string(try string()), offset: start)
            case UInt8(ascii: "t"): try word("true"); return PlacedJSON(value: .bool(true), offset: start)
            case UInt8(ascii: "f"): try word("false"); return PlacedJSON(value: .bool(false), offset: start)
            case UInt8(ascii: "n"): try word("null"); return PlacedJSON(value: .null, offset: start)
            case let byte? where byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39):
                return PlacedJSON(value: .number(try number()), offset: start)
            default: throw unexpected("a value")
            }
        }

        mutating func word(_ text: String) throws(SyntaxError) {
            let start = index
            for expected in text.utf8 {
                guard current == expected else { throw failure("not a JSON value (true, false and null are lower-case words)", at: start) }
                index += 1
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> [Member] {
            index += 1
            var members: [Member] = []
            skipSpace()
            if current == UInt8(ascii: "}") {
                index += 1
                return members
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw unexpected("a quoted field name") }
                let key = try string()
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw unexpected("':'") }
                index += 1
                skipSpace()
                members.append(Member(key: key, value: try value(depth: depth + 1)))
                skipSpace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return members
                default: throw unexpected("',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> [PlacedJSON] {
            index += 1
            var items: [PlacedJSON] = []
            skipSpace()
            if current == UInt8(ascii: "]") {
                index += 1
                return items
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return items
                default: throw unexpected("',' or ']'")
                }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            let start = index
            index += 1
            var text: [UInt8] = []
            while true {
                guard let byte = current else { throw failure("a string that is never closed", at: start) }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    try escape(into: &text)
                case ..<0x20:
                    throw failure("a control character inside a string (write it as an escape, \\n or \\u00XX)")
                default:
                    text.append(byte)
                    index += 1
                }
            }
        }

        mutating func escape(into text: inout [UInt8]) throws(SyntaxError) {
            let start = index - 1
            guard let byte = current else { throw failure("a string that is never closed", at: start) }
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(start: start)
                if (0xD800..<0xDC00).contains(scalar) {
                    guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure("half a surrogate pair: \\u\(String(scalar, radix: 16, uppercase: true)) needs its low half next", at: start)
                    }
                    index += 2
                    let low = try hex4(start: start)
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("a surrogate pair whose second half is not a low surrogate", at: start) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw failure("half a surrogate pair: \\u\(String(scalar, radix: 16, uppercase: true)) comes without its high half", at: start)
                }
                text.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default:
                throw failure("an unknown escape '\\\(Character(Unicode.Scalar(byte)))' (known: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", at: start)
            }
        }

        mutating func hex4(start: Int) throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                    throw failure("\\u must be followed by four hexadecimal digits", at: start)
                }
                value = value * 16 + UInt32(digit)
                index += 1
            }
            return value
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = index
            func digits() -> Int {
                let first = index
                while let byte = current, byte >= 0x30 && byte <= 0x39 { index += 1 }
                return index - first
            }
            if current == UInt8(ascii: "-") { index += 1 }
            let integer = index
            guard digits() > 0 else { throw failure("a number needs digits", at: start) }
            if bytes[integer] == UInt8(ascii: "0") && index - integer > 1 { throw failure("a number does not start with 0", at: start) }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw failure("a number needs digits after its '.'", at: start) }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw failure("a number needs digits in its exponent", at: start) }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
