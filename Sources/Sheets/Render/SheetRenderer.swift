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
    /// Printed on both sides: in a file of several variants each starts on a right-hand page.
    public var duplex: Bool

    public init(format: TextFormat, paper: Paper, duplex: Bool = true) {
        self.format = format
        self.paper = paper
        self.duplex = duplex
    }

    /// The names of the files `render` writes, without extension, in its order: `sheet-ID` and
    /// `key-ID` per variant, then `sheets`, `keys` and `notes`.
    public static func fileNames(_ sheet: Sheet) -> [String] {
        files(sheet).map(\.name)
    }

    /// Each file's document title (its HTML `title`), by name without extension.
    public static func titles(_ sheet: Sheet) -> [String: String] {
        Dictionary(uniqueKeysWithValues: files(sheet).map { ($0.name, title(of: $0, in: sheet)) })
    }

    /// The books a sheet's PDFs are put together as, by file name: every variant's sheet; every
    /// key, then the notes.
    public static func books(_ sheet: Sheet) -> [(documents: [String], combined: String)] {
        let ids = sheet.variants.map(\.id)
        return [(ids.map { "sheet-\($0)" }, "sheets"), (ids.map { "key-\($0)" } + ["notes"], "keys")]
    }

    public func render(_ sheet: Sheet) -> [OutputFile] {
        let templates = format == .html ? TemplateSet.html : TemplateSet.markdown
        let parts = PartsCache()
        let answerNotes = AnswerNotes(sheet)
        let sheets = sheet.variants.map { templates.render(SheetSectionView($0, of: sheet, parts: parts), "sheetSection") }
        let keys = sheet.variants.map { templates.render(KeySectionView($0, of: sheet, notes: answerNotes, parts: parts), "keySection") }
        let notes = templates.render(NotesSectionView(answerNotes, of: sheet, parts: parts), "notesSection")
        return Self.files(sheet).map { file in
            let sections = switch (file.kind, file.variant) {
            case (.sheet, let variant?): [sheets[variant]]
            case (.key, let variant?): [keys[variant]]
            case (.sheet, nil): sheets
            case (.key, nil): keys + [notes]
            case (.notes, _): [notes]
            }
            let text = document(sections, kind: file.kind, title: Self.title(of: file, in: sheet), duplex: duplex && file.variant == nil, templates)
            return OutputFile(name: file.name + "." + format.rawValue, contents: Data(text.utf8))
        }
    }

    /// What a file holds, for its title and style.
    private enum DocumentKind {
        case sheet
        case key
        case notes
    }

    /// One file `render` writes: its name, what it holds, and for a variant's own file the
    /// variant's index (nil for a file of every variant).
    private struct PlannedFile {
        var name: String
        var kind: DocumentKind
        var variant: Int?
    }

    private static func files(_ sheet: Sheet) -> [PlannedFile] {
        sheet.variants.indices.flatMap { index in
            [PlannedFile(name: "sheet-\(sheet.variants[index].id)", kind: .sheet, variant: index),
             PlannedFile(name: "key-\(sheet.variants[index].id)", kind: .key, variant: index)]
        } + [PlannedFile(name: "sheets", kind: .sheet), PlannedFile(name: "keys", kind: .key), PlannedFile(name: "notes", kind: .notes)]
    }

    private static func title(of file: PlannedFile, in sheet: Sheet) -> String {
        let variant = file.variant.map { " — variant \(sheet.variants[$0].id)" }
        return switch file.kind {
        case .sheet: sheet.title + (variant ?? " — all \(sheet.variants.count) variants")
        case .key: sheet.title + " — answer key" + (variant ?? " — all \(sheet.variants.count) variants, with the notes")
        case .notes: sheet.title + " — answer notes"
        }
    }

    private struct DocumentView {
        var documentTitle: String
        var css: String
        var bodyClass: String
        var sections: [String]
    }

    private func document(_ sections: [String], kind: DocumentKind, title: String, duplex: Bool, _ templates: TemplateSet) -> String {
        let isKey = kind != .sheet
        let view = DocumentView(documentTitle: title, css: PrintStyle.css(paper: paper, duplex: duplex),
                                bodyClass: (isKey ? "key" : "sheet") + " paper-" + paper.rawValue, sections: sections)
        return templates.render(view, "document")
    }
}
