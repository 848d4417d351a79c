import Mustache

/// A set of Mustache templates parsed once, with the content types they name registered first.
struct TemplateSet: Sendable {
    private let library: MustacheLibrary

    /// The templates are constants of this module, so a parse error is a bug the tests catch.
    init(_ templates: [String: String]) {
        ContentTypes.registerOnce()
        var library = MustacheLibrary()
        for (name, text) in templates.sorted(by: { $0.key < $1.key }) {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("template '\(name)' does not parse: \(error)")
            }
        }
        self.library = library
    }

    func render(_ object: Any, _ name: String) -> String {
        guard let text = library.render(object, withTemplate: name) else {
            preconditionFailure("no template named '\(name)'")
        }
        return text
    }

    static let html = TemplateSet(HTMLTemplates.partials.merging(ExportTemplates.fragments) { first, _ in first }.merging([
        "document": HTMLTemplates.document, "sheetSection": HTMLTemplates.sheetSection, "keySection": HTMLTemplates.keySection,
    ]) { first, _ in first })

    static let markdown = TemplateSet(MarkdownTemplates.partials.merging([
        "document": MarkdownTemplates.document, "sheetSection": MarkdownTemplates.sheetSection,
        "keySection": MarkdownTemplates.keySection,
    ]) { first, _ in first })
}

/// The escapings the formats need beyond Mustache's own HTML and TEXT.
enum ContentTypes {
    /// Registers once per process (Mustache keeps content types in a global table).
    static func registerOnce() {
        _ = registration
    }

    private static let registration: Void = {
        MustacheContentTypes.register(MarkdownText(), named: "MARKDOWN")
        MustacheContentTypes.register(GIFTText(), named: "GIFT")
        MustacheContentTypes.register(AnkiField(), named: "ANKI")
    }()

    /// The text with each character `replacement` has a replacement for replaced.
    static func replacing(_ text: String, _ replacement: (Character) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            if let replaced = replacement(character) {
                result += replaced
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Markdown text: characters that would start emphasis, code, links or HTML are
/// backslash-escaped (CommonMark: any ASCII punctuation may be).
struct MarkdownText: MustacheContentType {
    func escapeText(_ text: String) -> String {
        ContentTypes.replacing(text) { character in
            switch character {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "#", "|": "\\" + String(character)
            case "\n": " "
            default: nil
            }
        }
    }
}
