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

/// Writes a sheet as files: per variant its question sheet and its answer key, plus every
/// variant's sheets in one file (to print at once) and every key in one file.
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

    /// `sheet-ID`, `key-ID` per variant, then `sheets` and `keys`, each with the format's extension.
    public func render(_ sheet: Sheet) -> [OutputFile] {
        let templates = format == .html ? TemplateSet.html : TemplateSet.markdown
        let parts = PartsCache()
        let sheets = sheet.variants.map { templates.render(SheetSectionView($0, of: sheet, parts: parts), "sheetSection") }
        let keys = sheet.variants.map { templates.render(KeySectionView($0, of: sheet, parts: parts), "keySection") }
        var files: [OutputFile] = []
        for (index, variant) in sheet.variants.enumerated() {
            files.append(file("sheet-\(variant.id)", document(sheet, [sheets[index]], isKey: false, variant: variant.id, templates)))
            files.append(file("key-\(variant.id)", document(sheet, [keys[index]], isKey: true, variant: variant.id, templates)))
        }
        files.append(file("sheets", document(sheet, sheets, isKey: false, variant: nil, templates)))
        files.append(file("keys", document(sheet, keys, isKey: true, variant: nil, templates)))
        return files
    }

    private func file(_ base: String, _ text: String) -> OutputFile {
        OutputFile(name: base + "." + format.rawValue, contents: Data(text.utf8))
    }

    private struct DocumentView {
        var documentTitle: String
        var css: String
        var bodyClass: String
        var sections: [String]
    }

    private func document(_ sheet: Sheet, _ sections: [String], isKey: Bool, variant: String?, _ templates: TemplateSet) -> String {
        var title = sheet.title + (isKey ? " — answer key" : "")
        title += variant.map { " — variant \($0)" } ?? " — all \(sheet.variants.count) variants"
        let view = DocumentView(documentTitle: title, css: PrintStyle.css(paper: paper, isKey: isKey),
                                bodyClass: (isKey ? "key" : "sheet") + " paper-" + paper.rawValue, sections: sections)
        return templates.render(view, "document")
    }
}
