import Foundation

/// The format of a sheet's files (`--format`).
public enum SheetFormat: String, Sendable, CaseIterable {
    case html
    case md
    /// Made from the HTML with WeasyPrint.
    case pdf
}

/// A file to write, named relative to the output folder.
public struct OutputFile: Sendable, Equatable {
    public var name: String
    public var contents: Data

    public init(name: String, contents: Data) {
        self.name = name
        self.contents = contents
    }
}

/// Writes a sheet as files: per variant its question sheet and its answer key, the answer notes
/// (why each answer is right, once for every variant), every variant's sheets in one file (to
/// print at once), and every key followed by the notes in one file.
public struct SheetRenderer {
    public enum TextFormat: String, Sendable {
        case html
        case md
    }

    public var format: TextFormat
    public var paper: Paper

    public init(format: TextFormat, paper: Paper) {
        self.format = format
        self.paper = paper
    }

    /// The names of the files `render` writes, without extension, in its order: `sheet-ID` and
    /// `key-ID` per variant, then `sheets`, `keys` and `notes`.
    public static func fileNames(_ sheet: Sheet) -> [String] {
        sheet.variants.flatMap { ["sheet-\($0.id)", "key-\($0.id)"] } + ["sheets", "keys", "notes"]
    }

    public func render(_ sheet: Sheet) -> [OutputFile] {
        let templates = format == .html ? TemplateSet.html : TemplateSet.markdown
        let parts = PartsCache()
        let answerNotes = AnswerNotes(sheet)
        let sheets = sheet.variants.map { templates.render(SheetSectionView($0, of: sheet, parts: parts), "sheetSection") }
        let keys = sheet.variants.map { templates.render(KeySectionView($0, of: sheet, notes: answerNotes, parts: parts), "keySection") }
        let notes = templates.render(NotesSectionView(answerNotes, of: sheet, parts: parts), "notesSection")
        var texts: [String] = []
        for (index, variant) in sheet.variants.enumerated() {
            texts.append(document(sheet, [sheets[index]], .sheet, variant: variant.id, templates))
            texts.append(document(sheet, [keys[index]], .key, variant: variant.id, templates))
        }
        texts.append(document(sheet, sheets, .sheet, variant: nil, templates))
        texts.append(document(sheet, keys + [notes], .key, variant: nil, templates))
        texts.append(document(sheet, [notes], .notes, variant: nil, templates))
        return zip(Self.fileNames(sheet), texts).map { name, text in
            OutputFile(name: name + "." + format.rawValue, contents: Data(text.utf8))
        }
    }

    /// What a file holds, for its title and style.
    private enum DocumentKind {
        case sheet
        case key
        case notes
    }

    private struct DocumentView {
        var documentTitle: String
        var css: String
        var bodyClass: String
        var sections: [String]
    }

    private func document(_ sheet: Sheet, _ sections: [String], _ kind: DocumentKind, variant: String?, _ templates: TemplateSet) -> String {
        let title = switch kind {
        case .sheet: sheet.title + (variant.map { " — variant \($0)" } ?? " — all \(sheet.variants.count) variants")
        case .key: sheet.title + " — answer key" + (variant.map { " — variant \($0)" } ?? " — all \(sheet.variants.count) variants, with the notes")
        case .notes: sheet.title + " — answer notes"
        }
        let isKey = kind != .sheet
        let view = DocumentView(documentTitle: title, css: PrintStyle.css(paper: paper, isKey: isKey),
                                bodyClass: (isKey ? "key" : "sheet") + " paper-" + paper.rawValue, sections: sections)
        return templates.render(view, "document")
    }
}
