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
        guard let text = library.render(Self.context(object), withTemplate: name) else {
            preconditionFailure("no template named '\(name)'")
        }
        return text
    }

    /// The view as nested dictionaries and arrays, made with one reflection per value. Mustache
    /// reflects a struct anew for every name it looks up (and every name it does not find there
    /// before it looks further out), which made reflection most of a sheet's time; a dictionary
    /// answers by hashing. Nil properties are left out, as Mustache would skip them; a question's
    /// `PreparedParts` are merged in, already converted.
    static func context(_ value: Any) -> Any {
        contextOrNil(value) ?? value
    }

    private static func contextOrNil(_ value: Any) -> Any? {
        if value is String || value is Bool || value is Int || value is UInt64 { return value }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct?:
            var fields: [String: Any] = [:]
            for child in mirror.children {
                if let parts = child.value as? PreparedParts {
                    fields.merge(parts.entries) { own, _ in own }
                    continue
                }
                guard let label = child.label, let field = contextOrNil(child.value) else { continue }
                fields[label] = field
            }
            return fields
        case .collection?:
            return mirror.children.compactMap { contextOrNil($0.value) }
        case .optional?:
            return mirror.children.first.flatMap { contextOrNil($0.value) }
        case .dictionary?:
            return (value as? [String: Any])?.compactMapValues(contextOrNil) ?? value
        default:
            return value
        }
    }

    static let html = TemplateSet(HTMLTemplates.partials.merging(ExportTemplates.fragments) { first, _ in first }.merging([
        "document": HTMLTemplates.document, "sheetSection": HTMLTemplates.sheetSection, "keySection": HTMLTemplates.keySection,
        "notesSection": HTMLTemplates.notesSection,
    ]) { first, _ in first })

    static let markdown = TemplateSet(MarkdownTemplates.partials.merging([
        "document": MarkdownTemplates.document, "sheetSection": MarkdownTemplates.sheetSection,
        "keySection": MarkdownTemplates.keySection, "notesSection": MarkdownTemplates.notesSection,
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
