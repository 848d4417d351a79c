/// The paper a sheet is printed on (`--paper`).
public enum Paper: String, Sendable, CaseIterable {
    case a4
    case letter

    /// The CSS page size.
    var cssSize: String {
        switch self {
        case .a4: "A4"
        case .letter: "letter"
        }
    }
}

/// The print style sheet: black on white, serif text and monospace code at sizes readable at
/// 100% on A4 and Letter, one variant per printed section, a question never split across pages
/// when it fits on one. The running header and footer (CSS paged media, which WeasyPrint
/// implements) give every page the title, the variant and seed, a name and date line, and
/// "Page n of m".
enum PrintStyle {
    /// Chinese, Japanese and Korean text (a snippet may print it) in the Noto CJK fonts
    /// (Debian's `fonts-noto-cjk`, which `make deps` installs), after the Latin fonts.
    static let sans = "\"DejaVu Sans\", Arial, \"Noto Sans CJK SC\", sans-serif"
    static let serif = "\"DejaVu Serif\", Georgia, \"Times New Roman\", \"Noto Serif CJK SC\", serif"
    static let mono = "\"DejaVu Sans Mono\", Menlo, Consolas, \"Noto Sans Mono CJK SC\", monospace"

    /// - Parameter duplex: a file holding several variants starts each on a right-hand page
    ///   (for browsers and for WeasyPrint when it lays out a whole book itself).
    static func css(paper: Paper, duplex: Bool = false) -> String {
        """
            @page {
              size: \(paper.cssSize);
              margin: 17mm 15mm 19mm 15mm;
              @top-left { content: string(sheet-title); font: 8.5pt \(sans); width: 55%; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
              @top-right { content: string(variant-line); font: 8.5pt \(sans); width: 45%; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
              @bottom-left { content: string(page-footer); font: 8.5pt \(sans); }
              @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8.5pt \(sans); }
            }
            html { color: #000; background: #fff; }
            body { font: 10.5pt/1.4 \(serif); margin: 0 auto; max-width: 180mm; }
            .sheet-title { string-set: sheet-title attr(data-running), page-footer attr(data-footer); bookmark-label: attr(data-bookmark); font: bold 15pt/1.2 \(sans); margin: 0 0 1mm 0; }
            .variant-line { string-set: variant-line content(text); font: 9.5pt \(sans); margin: 0 0 3mm 0; }
            .variant + .variant { break-before: page; }
            .sheet-header { border-bottom: 0.8pt solid #000; padding-bottom: 2mm; margin-bottom: 4mm; }
            .name-line { margin: 4mm 0 2mm 0; font: 10.5pt \(sans); }
            .blank { display: inline-block; width: 35mm; border-bottom: 0.6pt solid #000; margin: 0 6mm 0 2mm; }
            .blank.wide { width: 80mm; }
            .totals { margin: 0; font: 9pt \(sans); }
            .prelude { margin-bottom: 5mm; }
            .prelude p { margin: 1mm 0; font-size: 9.5pt; }
            h2 { font: bold 11pt/1.3 \(sans); margin: 0 0 2mm 0; }
            .qnum { display: inline-block; min-width: 7mm; }
            .points { font-weight: normal; font-size: 9.5pt; }
            .question p.qid { font: 8pt \(mono); margin: -1.5mm 0 1.5mm 7mm; }
            .question { break-inside: avoid; margin: 0 0 6mm 0; }
            .question.note { break-inside: auto; }
            .notes-heading { font: bold 12pt/1.3 \(sans); border-top: 0.8pt solid #000; padding-top: 2mm; margin: 6mm 0 3mm 0; break-after: avoid; }
            .key-answer { margin-bottom: 4mm; }
            .key-answer h2 .qid { font: normal 8pt \(mono); margin-left: 2mm; white-space: nowrap; }
            .key-answer .outcome-item { white-space: nowrap; margin-right: 3mm; }
            .key-answer .scoring { font-size: 9pt; }
            h2, .answer, .label, p.qid { break-after: avoid; }
            li, tr, .scoring { break-inside: avoid; }
            .question p { margin: 1.5mm 0; }
            code, pre { font-family: \(mono); }
            code { font-size: 9.5pt; }
            pre.code { font-size: 8.8pt; line-height: 1.35; border: 0.6pt solid #000; padding: 1.5mm 2.5mm; margin: 2mm 0; white-space: pre-wrap; break-inside: avoid; }
            pre.code .line { display: block; min-height: 1.35em; padding-left: 5ch; text-indent: -5ch; }
            pre.code .ln { display: inline-block; width: 2.6ch; text-indent: 0; text-align: right; padding-right: 1ch; margin-right: 1.4ch; border-right: 0.6pt solid #000; }
            .instruction { font-style: italic; }
            .answer-lines .writing-line { height: 8mm; border-bottom: 0.5pt solid #000; }
            ul.options { list-style: none; padding-left: 2mm; margin: 2mm 0; }
            ul.options li { margin: 1.8mm 0; position: relative; padding-left: 12mm; }
            ul.options .box { position: absolute; left: 0; top: 0.25em; width: 3.4mm; height: 3.4mm; border: 0.8pt solid #000; }
            ul.options .letter { position: absolute; left: 5.5mm; }
            .letter { display: inline-block; min-width: 5mm; font-weight: bold; }
            code.outcome { border: 0.5pt solid #000; padding: 0 1mm; }
            .ending { font-style: italic; }
            ul.option-key, ul.near-misses, ul.key-ideas { padding-left: 5mm; margin: 1mm 0; }
            ul.option-key li, ul.near-misses li { margin: 1.2mm 0; }
            .because { display: block; margin-left: 4mm; }
            .rule { font-style: italic; }
            table.outcomes { border-collapse: collapse; margin: 1mm 0 2mm 0; font-size: 9.5pt; }
            table.outcomes td { border: 0.5pt solid #000; padding: 0.5mm 2mm; vertical-align: top; }
            .count { text-align: right; }
            .race { font-weight: bold; }
            .scoring { border-left: 2pt solid #000; padding-left: 2mm; }
            .explanation .label, .live .label { font-weight: bold; margin-bottom: 0; }
            .source { font-size: 8.5pt; }
            @media screen { body { padding: 10mm; } .variant + .variant { border-top: 2pt dashed #000; margin-top: 10mm; padding-top: 10mm; } }
            """ + (duplex ? "\n@media print { .variant + .variant { break-before: right; } }" : "")
    }
}
