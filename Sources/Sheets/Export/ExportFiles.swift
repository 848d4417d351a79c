import Foundation
import Mustache

/// Moodle XML: one multichoice question per choice and trace question (a trace puzzle asks to
/// select every outcome that can happen, among near misses the model rules out), one essay per
/// short question with the model answer as information for the grader.
enum MoodleXML {
    static let template = TemplateSet(["moodle": ExportTemplates.moodle])

    static func render(_ items: [SheetItem]) -> String {
        template.render(["questions": items.map(ExportQuestionView.init)], "moodle")
    }
}

/// GIFT, for Moodle's plain-text import. An essay's model answer becomes its general feedback
/// (GIFT has no field for grader information).
enum GIFT {
    static let template = TemplateSet(["gift": ExportTemplates.gift])

    static func render(_ items: [SheetItem]) -> String {
        template.render(["questions": items.map(ExportQuestionView.init)], "gift")
    }
}

/// GIFT's escaping, as Moodle's own GIFT writer does it (`repchar` in question/format/gift/
/// format.php): a backslash before `\ ~ = # { } :`, a newline as `\n` (so a question stays one
/// paragraph and code keeps its lines), carriage returns dropped.
struct GIFTText: MustacheContentType {
    func escapeText(_ text: String) -> String {
        ContentTypes.replacing(text) { character in
            switch character {
            case "\\", "~", "=", "#", "{", "}", ":": "\\" + String(character)
            case "\n", "\r\n": "\\n"
            case "\r": ""
            default: nil
            }
        }
    }
}

/// One Anki note per question: the question on the front, the computed answer and the
/// explanation on the back, a GUID made from the question's id, and the question's tags under
/// `gcdquiz::`.
enum AnkiText {
    struct NoteView {
        var guid: String
        var front: String
        var back: String
        var tags: String
    }

    static let template = TemplateSet(["anki": ExportTemplates.anki])

    static func render(_ items: [SheetItem]) -> String {
        let html = TemplateSet.html
        let notes = items.map { item in
            let parts = PreparedParts(item)
            var asked = SheetQuestionView(item, parts: parts)
            asked.listChoices = true
            let key = KeyQuestionView(item, parts: parts)
            let answer: String = switch item.answer {
            case .trace: html.render(key, "exportTraceAnswer")
            case .choice: html.render(key, "exportChoiceAnswer")
            case .short: html.render(key, "exportShortAnswer")
            }
            let tags = (["gcdquiz", "gcdquiz::\(item.question.kind.rawValue)"] + item.question.tags.map { "gcdquiz::" + $0 })
                .map { $0.replacingOccurrences(of: " ", with: "_") }
            return NoteView(
                guid: "gcdquiz-" + item.question.id,
                front: leftAligned("<p><strong>" + html.render(["text": item.question.title], "plainText") + "</strong></p>" + html.render(asked, "exportQuestion")),
                back: leftAligned(answer + "<p><strong>Why</strong></p>" + html.render(key, "exportExplanation")),
                tags: tags.joined(separator: " "))
        }
        return template.render(["notes": notes], "anki")
    }

    /// Anki's Basic card centres its text, which suits a word but not code or a list of outcomes.
    static func leftAligned(_ html: String) -> String {
        "<div style=\"text-align: left\">" + html + "</div>"
    }
}

/// A field of Anki's tab-separated import, from HTML: no tab and no newline may stay in it (they
/// separate fields and notes). A newline inside `<pre>` becomes `<br>`; elsewhere it is only
/// white space between tags and becomes a space. Tabs become `&#9;`.
struct AnkiField: MustacheContentType {
    func escapeText(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        var inPre = false
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("<pre") {
                inPre = true
            } else if rest.hasPrefix("</pre>") {
                inPre = false
            }
            let character = text[index]
            switch character {
            case "\n", "\r\n": escaped += inPre ? "<br>" : " "
            case "\r": break
            case "\t": escaped += "&#9;"
            default: escaped.append(character)
            }
            index = text.index(after: index)
        }
        return escaped
    }
}
