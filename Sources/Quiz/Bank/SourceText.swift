import ConcurrencyModel
import Foundation

/// Text files as a compiler reads them: UTF-8 or a problem at the first byte that is not, and
/// lines broken where YAML and Swift break them (`\n`, `\r\n`, a lone `\r`), so that a quoted
/// line and its caret match the line and column a parser reports.
public enum SourceText {
    /// The text of `data`, or where it stops being UTF-8.
    public static func decode(_ data: Data, file: String) -> Result<String, Problem> {
        let bytes = [UInt8](data)
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return .success(String(decoding: bytes, as: UTF8.self))
            case .error:
                return .failure(badByte(at: offset, in: bytes, file: file))
            }
        }
    }

    private static func badByte(at offset: Int, in bytes: [UInt8], file: String) -> Problem {
        let before = bytes[..<offset]
        let lineStart = before.lastIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }).map { $0 + 1 } ?? 0
        let line = lines(String(decoding: before, as: UTF8.self)).count
        let lineEnd = bytes[offset...].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? bytes.count
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        let hex = String(format: "0x%02X", bytes[offset])
        return Problem(
            .error, "the file is not UTF-8 text: byte \(hex) here starts no UTF-8 character (save the file as UTF-8)",
            at: SourceLocation(file: file, line: line, column: column),
            sourceLine: String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self))
    }

    /// The lines of `text`, broken at `\n`, `\r\n` and a lone `\r` (not kept). Split as bytes:
    /// splitting Characters costs grapheme breaking, a tenth of loading the bank.
    public static func lines(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var lines: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
                start = index + 1
            }
            index += 1
        }
        lines.append(String(decoding: bytes[start...], as: UTF8.self))
        return lines
    }
}
