import DispatchModel
import Yams

/// Reads one question file. Every problem found is reported with its line and column, so that an
/// instructor sees all of them at once; a file with an error yields no question.
public enum QuestionParser {
    /// The fields a question file may have. Documented in the README ("Question files").
    public static let fields: [String: String] = [
        "id": "a unique name: lower-case letters, digits and '-'",
        "kind": "trace (predict the output), choice or short; default trace",
        "title": "one line shown above the question",
        "level": "1, 2 or 3",
        "tags": "a list of concepts, e.g. [serial, sync]",
        "source": "where the material comes from",
        "code": "the snippet, written against the prelude (trace questions)",
        "explanation": "shown after the answer; names the rules at work",
    ]

    static let required = ["id", "title", "level", "tags", "source", "explanation"]

    public static func parse(_ text: String, file: String) -> (question: Question?, problems: [Problem]) {
        var context = Context(file: file, text: text)
        let question = context.parse()
        return (context.problems.isEmpty ? question : nil, context.problems)
    }

    private struct Context {
        let file: String
        let text: String
        let lines: [String]
        var problems: [Problem] = []

        init(file: String, text: String) {
            self.file = file
            self.text = text
            self.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }

        mutating func report(_ message: String, line: Int, column: Int) {
            let index = line - 1
            problems.append(Problem(
                .error, message, at: SourceLocation(file: file, line: line, column: column),
                sourceLine: lines.indices.contains(index) ? lines[index] : nil))
        }

        mutating func report(_ message: String, at node: Node) {
            report(message, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        }

        mutating func parse() -> Question? {
            let root: Node
            do {
                guard let node = try Yams.compose(yaml: text) else {
                    report("the file is empty: a question needs \(QuestionParser.required.joined(separator: ", "))", line: 1, column: 1)
                    return nil
                }
                root = node
            } catch let error as YamlError {
                reportYAML(error)
                return nil
            } catch {
                report("cannot read YAML: \(error)", line: 1, column: 1)
                return nil
            }
            guard let mapping = root.mapping else {
                report("a question file is a mapping of fields (id:, title:, …)", at: root)
                return nil
            }

            var values: [String: Node] = [:]
            for (key, value) in mapping {
                guard let name = key.scalar?.string else {
                    report("field names are plain words", at: key)
                    continue
                }
                if QuestionParser.fields[name] == nil {
                    let known = QuestionParser.fields.keys.sorted().joined(separator: ", ")
                    report("unknown field '\(name)' (known fields: \(known))", at: key)
                    continue
                }
                if values[name] != nil {
                    report("field '\(name)' appears twice", at: key)
                    continue
                }
                values[name] = value
            }
            for name in QuestionParser.required where values[name] == nil {
                report("missing field '\(name)' (\(QuestionParser.fields[name]!))", line: root.mark?.line ?? 1, column: root.mark?.column ?? 1)
            }

            let id = string("id", values)
            if let id, let node = values["id"], !Self.isValidID(id) {
                report("id '\(id)' must be lower-case letters, digits and '-'", at: node)
            }
            var kind = Question.Kind.trace
            if let name = string("kind", values), let node = values["kind"] {
                if let parsed = Question.Kind(rawValue: name) {
                    kind = parsed
                } else {
                    report("unknown kind '\(name)' (one of trace, choice, short)", at: node)
                }
            }
            let title = string("title", values)
            let level = integer("level", values)
            if let level, let node = values["level"], !(1...3).contains(level) {
                report("level must be 1, 2 or 3, not \(level)", at: node)
            }
            let tags = stringList("tags", values)
            if let tags, tags.isEmpty, let node = values["tags"] {
                report("tags must name at least one concept", at: node)
            }
            let source = string("source", values)
            let explanation = string("explanation", values)
            let code = string("code", values)
            if kind == .trace && values["code"] == nil {
                report("a trace question needs 'code': the snippet to predict", line: root.mark?.line ?? 1, column: root.mark?.column ?? 1)
            }
            for (name, value) in [("title", title), ("source", source), ("explanation", explanation), ("code", code)] {
                if let value, value.allSatisfy(\.isWhitespace), let node = values[name] {
                    report("'\(name)' is empty", at: node)
                }
            }

            guard problems.isEmpty, let id, let title, let level, let tags, let source, let explanation else {
                return nil
            }
            return Question(
                id: id, kind: kind, title: title, level: level, tags: tags, source: source,
                explanation: explanation, code: code, file: file,
                codeOrigin: values["code"].map(codeOrigin))
        }

        /// Where the snippet's first line and column sit in the file. A block scalar (`code: |`)
        /// starts on the line after its indicator, indented like its first non-blank line.
        func codeOrigin(_ node: Node) -> CodeOrigin {
            let line = node.mark?.line ?? 1
            let column = node.mark?.column ?? 1
            let style = node.scalar?.style
            if style == .literal || style == .folded {
                let body = lines.dropFirst(line)
                let firstText = body.first { (text: String) in !text.allSatisfy(\.isWhitespace) }
                let indent = firstText.map { $0.prefix { $0 == " " }.count } ?? 0
                return CodeOrigin(firstLine: line + 1, columnOffset: indent, fileLines: lines)
            }
            let quote = (style == .singleQuoted || style == .doubleQuoted) ? 1 : 0
            return CodeOrigin(firstLine: line, columnOffset: column - 1 + quote, fileLines: lines)
        }

        static func isValidID(_ id: String) -> Bool {
            !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
        }

        mutating func string(_ name: String, _ values: [String: Node]) -> String? {
            guard let node = values[name] else { return nil }
            guard let scalar = node.scalar else {
                report("'\(name)' must be text", at: node)
                return nil
            }
            return scalar.string
        }

        mutating func integer(_ name: String, _ values: [String: Node]) -> Int? {
            guard let node = values[name] else { return nil }
            guard let value = node.scalar.flatMap({ Int($0.string) }) else {
                report("'\(name)' must be a whole number", at: node)
                return nil
            }
            return value
        }

        mutating func stringList(_ name: String, _ values: [String: Node]) -> [String]? {
            guard let node = values[name] else { return nil }
            guard let sequence = node.sequence else {
                report("'\(name)' must be a list, e.g. [serial, sync]", at: node)
                return nil
            }
            var items: [String] = []
            for item in sequence {
                guard let text = item.scalar?.string, !text.isEmpty else {
                    report("each of '\(name)' must be a word", at: item)
                    continue
                }
                items.append(text)
            }
            return items
        }

        mutating func reportYAML(_ error: YamlError) {
            switch error {
            case .scanner(let context, let problem, let mark, _),
                .parser(let context, let problem, let mark, _),
                .composer(let context, let problem, let mark, _):
                let detail = context.map { " (\($0.text) at line \($0.mark.line))" } ?? ""
                report("YAML: \(problem)\(detail)", line: mark.line, column: mark.column)
            case .duplicatedKeysInMapping(let duplicates, let context):
                report("a field appears twice: \(duplicates.sorted().joined(separator: ", "))", line: context.mark.line, column: context.mark.column)
            case .reader(let problem, _, _, _):
                report("YAML: \(problem)", line: 1, column: 1)
            default:
                report("YAML: \(error)", line: 1, column: 1)
            }
        }
    }
}
