import ConcurrencyModel

/// Byte offsets in an imported file turned into the places a diagnostic shows: line, column (in
/// characters, as the other diagnostics count them) and the line's text for the caret.
struct TextPlaces {
    let file: String
    let bytes: [UInt8]
    /// The byte offset at which each line starts.
    private let lineStarts: [Int]

    init(_ text: String, file: String) {
        self.file = file
        bytes = Array(text.utf8)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The problem `message` at byte `offset`.
    func problem(_ message: String, at offset: Int) -> Problem {
        let offset = min(max(offset, 0), bytes.count)
        // The last line starting at or before `offset`.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        var end = low + 1 < lineStarts.count ? lineStarts[low + 1] - 1 : bytes.count
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let column = String(decoding: bytes[start..<min(offset, max(end, start))], as: UTF8.self).count + 1
        return Problem(.error, message, at: SourceLocation(file: file, line: low + 1, column: column),
                       sourceLine: String(decoding: bytes[start..<max(end, start)], as: UTF8.self))
    }
}
