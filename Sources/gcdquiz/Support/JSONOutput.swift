import Foundation

/// Writes a value as pretty JSON with stable key order, for scripts.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) throws {
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        Output.write(data)
    }

    /// Prints `document`, whose array field `key` is empty, as if that field held `elements`:
    /// the same bytes as encoding them all at once, but written one element at a time.
    static func print<T: Encodable, Element: Encodable>(_ document: T, streaming key: String, elements: some Sequence<Element>) throws {
        let encoder = Self.encoder
        let whole = String(decoding: try encoder.encode(document), as: UTF8.self)
        let empty = "\"\(key)\" : [\n\n  ]"
        guard let range = whole.range(of: empty) else {
            preconditionFailure("\(T.self) has no empty top-level array '\(key)' to stream")
        }
        Output.write(whole[..<range.lowerBound] + "\"\(key)\" : [")
        var first = true
        for element in elements {
            let text = String(decoding: try encoder.encode(element), as: UTF8.self)
            let indented = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
            Output.write((first ? "\n" : ",\n") + indented)
            first = false
        }
        Output.write((first ? "\n\n  ]" : "\n  ]") + whole[range.upperBound...] + "\n")
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
