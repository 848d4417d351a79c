import ConcurrencyModel
import Yams

/// Reads one question file. Every problem found is reported with its line and column, so that an
/// instructor sees all of them at once; a file with an error yields no question.
public enum QuestionParser {
    /// The fields a question file may have. Documented in the README ("Question files").
    public static let fields: [String: String] = [
        "id": "a unique name: lower-case letters, digits and '-'",
        "kind": "trace (predict the output), choice, short, schedule (be the scheduler) or line (which line to change); default trace",
        "title": "one line shown above the question",
        "level": "1 (first week) to 4 (the hardest interview question)",
        "tags": "a list of topics from the taxonomy ('gcdquiz tags'), e.g. [serial-queues, sync-async]",
        "source": "where the material comes from",
        "code": "the snippet, written against the prelude (trace, schedule and line questions)",
        "goal": "schedule: what the learner makes the snippet do by picking moves: an outcome (2 1 4 3, 1 deadlock), deadlock, crash or race",
        "explanation": "shown after the answer; names the rules at work",
        "question": "what a choice or short question asks (a line question has a default)",
        "options": "choice: a list of {text, correct: true (on the right ones), why (on the wrong ones)}",
        "answer": "short: the model answer shown after grading",
        "key_ideas": "short: a list of {idea, accept: [phrases, 'a + b', '/regex/']}",
        "mode": "trace, schedule and line: the Swift language mode the answer is for, 5, 6 or '6 + NonisolatedNonsendingByDefault' (default: 6 with Swift concurrency, else 5)",
        "follows": "the id of the question this one is asked right after, in the drill",
        "generated": "true for a puzzle written by 'gcdquiz generate'",
    ]

    static let required = ["id", "title", "level", "tags", "source", "explanation"]

    public static func parse(_ text: String, file: String) -> (question: Question?, problems: [Problem]) {
        // A byte-order mark, as some editors save UTF-8, is no part of the text (libyaml would
        // take it for content and miss the first field). Invisible, so columns go without it.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.unicodeScalars.dropFirst()) : text
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
            // Broken where YAML breaks lines (a lone CR too), so that quoted lines match its marks.
            self.lines = SourceText.lines(text)
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
                // Plain strings (no implicit tags: the fields are read as text and checked here, and tag
                // resolution runs regular expressions), UTF-8 said outright (the default reads the
                // environment): together a third of loading the bank.
                guard let node = try Yams.compose(yaml: text, .basic, .default, .utf8) else {
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
            var keys: [String: Node] = [:]
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
                keys[name] = key
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
                    report("unknown kind '\(name)' (one of trace, choice, short, schedule, line)", at: node)
                }
            }
            let title = string("title", values)
            let level = integer("level", values)
            if let level, let node = values["level"], !Question.levels.contains(level) {
                report("level must be 1, 2, 3 or 4, not \(level)", at: node)
            }
            let tags = stringList("tags", values)
            if let tags, tags.isEmpty, let node = values["tags"] {
                report("tags must name at least one topic", at: node)
            }
            for item in values["tags"]?.sequence ?? [] {
                if let tag = item.scalar?.string, !tag.isEmpty, Topic.named(tag) == nil {
                    report("unknown tag '\(tag)'\(Self.nearest(tag)); known topics: " + Topic.all.map(\.name).joined(separator: ", "), at: item)
                }
            }
            let source = string("source", values)
            let explanation = string("explanation", values)
            let code = string("code", values)
            let rootLine = root.mark?.line ?? 1
            let rootColumn = root.mark?.column ?? 1
            if kind.hasCode && values["code"] == nil {
                let what = switch kind {
                case .schedule: "the snippet to schedule"
                case .line: "the snippet whose culprit line the learner names"
                case .trace, .choice, .short: "the snippet to predict"
                }
                report("a \(kind.rawValue) question needs 'code': \(what)", line: rootLine, column: rootColumn)
            }
            let allowed: [Question.Kind: Set<String>] = [
                .trace: ["code"], .choice: ["question", "options"], .short: ["question", "answer", "key_ideas"], .schedule: ["code", "goal"],
                .line: ["code", "question"],
            ]
            for name in ["code", "question", "options", "answer", "key_ideas", "goal"] where values[name] != nil && !allowed[kind]!.contains(name) {
                report("'\(name)' does not belong in a \(kind.rawValue) question", at: values[name]!)
            }
            for name in allowed[kind]! where values[name] == nil && name != "code" && !(kind == .line && name == "question") {
                report("a \(kind.rawValue) question needs '\(name)' (\(QuestionParser.fields[name]!))", line: rootLine, column: rootColumn)
            }
            let goal = string("goal", values)
            var mode: LanguageMode?
            if let node = values["mode"] {
                if !kind.hasCode {
                    report("'mode' does not belong in a \(kind.rawValue) question", at: node)
                } else if let text = node.scalar?.string, let parsed = LanguageMode(parsing: text) {
                    mode = parsed
                } else {
                    report("unknown mode \(node.scalar.map { "'\($0.string)'" } ?? "(not a scalar)"): write \(LanguageMode.accepted)", at: node)
                }
            }
            let prompt = string("question", values)
            let modelAnswer = string("answer", values)
            let follows = string("follows", values)
            var isGenerated = false
            if let node = values["generated"] {
                if let flag = node.scalar.flatMap({ Bool($0.string) }) {
                    isGenerated = flag
                } else {
                    report("'generated' is true or false", at: node)
                }
            }
            if !isGenerated, let source, let node = values["source"] {
                checkSourceNamesItsMaterial(source, at: node)
            }
            var options: [ChoiceOption] = []
            if let node = values["options"] { options = parseOptions(node) }
            var keyIdeas: [KeyIdea] = []
            if let node = values["key_ideas"] { keyIdeas = parseKeyIdeas(node) }
            for (name, value) in [("title", title), ("source", source), ("explanation", explanation), ("code", code),
                                  ("question", prompt), ("answer", modelAnswer), ("goal", goal)] {
                if let value, value.allSatisfy(\.isWhitespace), let node = values[name] {
                    report("'\(name)' is empty", at: node)
                }
            }

            guard problems.isEmpty, let id, let title, let level, let tags, let source, let explanation else {
                return nil
            }
            var question = Question(
                id: id, kind: kind, title: title, level: level, tags: tags, source: source,
                explanation: explanation, code: code, file: file,
                codeOrigin: values["code"].map(codeOrigin))
            question.prompt = prompt
            question.goal = goal
            question.mode = mode
            question.options = options
            question.modelAnswer = modelAnswer
            question.keyIdeas = keyIdeas
            question.follows = follows
            for (name, key) in keys {
                guard let mark = key.mark else { continue }
                question.fieldPlaces[name] = FieldPlace(
                    location: SourceLocation(file: file, line: mark.line, column: mark.column),
                    text: lines.indices.contains(mark.line - 1) ? lines[mark.line - 1] : "")
            }
            question.isGenerated = isGenerated
            return question
        }

        /// A source must name what a reader can find (a talk, a tutorial, slides, a proposal), not
        /// the project's own seed files ("seed 004"), which mean nothing outside it. A generated
        /// puzzle's "with seed 42" is the generator's seed and is left alone (it is not checked here).
        mutating func checkSourceNamesItsMaterial(_ source: String, at node: Node) {
            guard let match = Self.seedCitation(in: source) else { return }
            let cited = String(source[match])
            let message = "source cites '\(cited)', one of the project's seed files, which a reader cannot find: "
                + "name the talk, tutorial, slides or proposal itself (e.g. WWDC 2016, Concurrent Programming With GCD in Swift 3)"
            // At the citation itself: the first line from the value's start that holds it.
            let first = (node.mark?.line ?? 1) - 1
            for index in lines.indices where index >= first {
                if let hit = Self.seedCitation(in: lines[index]) {
                    let column = lines[index].distance(from: lines[index].startIndex, to: hit.lowerBound) + 1
                    report(message, line: index + 1, column: column)
                    return
                }
            }
            report(message, at: node)
        }

        /// Where "seed 004" (or "Seeds 1", any case, a whole word) is in `text`: a citation of the
        /// seed files the bank was first written from.
        static func seedCitation(in text: String) -> Range<String.Index>? {
            text.firstMatch(of: /(?i)\bseeds?\s+\d+\b/)?.range
        }

        /// `options:` of a choice question: at least two, at least one correct, each with text.
        mutating func parseOptions(_ node: Node) -> [ChoiceOption] {
            guard let sequence = node.sequence else {
                report("'options' must be a list of {text, correct, why}", at: node)
                return []
            }
            var options: [ChoiceOption] = []
            for item in sequence {
                guard let mapping = item.mapping else {
                    report("each option is a mapping: {text: …, correct: true, why: …}", at: item)
                    continue
                }
                var text: String?
                var correct = false
                var why: String?
                for (key, value) in mapping {
                    switch key.scalar?.string {
                    case "text":
                        text = value.scalar?.string
                    case "correct":
                        guard let flag = value.scalar.flatMap({ Bool($0.string) }) else {
                            report("'correct' is true or false", at: value)
                            continue
                        }
                        correct = flag
                    case "why":
                        why = value.scalar?.string
                    default:
                        report("unknown option field '\(key.scalar?.string ?? "?")' (text, correct, why)", at: key)
                    }
                }
                guard let text, !text.allSatisfy(\.isWhitespace) else {
                    report("an option needs 'text'", at: item)
                    continue
                }
                options.append(ChoiceOption(text: text, isCorrect: correct, why: why))
            }
            if options.count < 2 {
                report("a choice question needs at least two options", at: node)
            } else if options.count > OptionLetter.all.count {
                report("a choice question has at most \(OptionLetter.all.count) options (a to z), not \(options.count)", at: node)
            } else if !options.contains(where: \.isCorrect) {
                report("no option is marked 'correct: true'", at: node)
            }
            return options
        }

        /// `key_ideas:` of a short question: each an idea with at least one accepted phrasing.
        mutating func parseKeyIdeas(_ node: Node) -> [KeyIdea] {
            guard let sequence = node.sequence, !sequence.isEmpty else {
                report("'key_ideas' must be a non-empty list of {idea, accept}", at: node)
                return []
            }
            var ideas: [KeyIdea] = []
            for item in sequence {
                guard let mapping = item.mapping, let idea = mapping["idea"]?.scalar?.string,
                    let accept = mapping["accept"]?.sequence
                else {
                    report("each key idea is a mapping: {idea: …, accept: [phrases]}", at: item)
                    continue
                }
                var phrases: [String] = []
                for phrase in accept {
                    guard let text = phrase.scalar?.string, !text.allSatisfy(\.isWhitespace) else {
                        report("an accepted phrasing must be text", at: phrase)
                        continue
                    }
                    if let problem = ShortAnswerGrader.checkPattern(text) {
                        report(problem, at: phrase)
                        continue
                    }
                    phrases.append(text)
                }
                if phrases.isEmpty {
                    report("the key idea '\(idea)' accepts nothing: give at least one phrasing", at: item)
                    continue
                }
                ideas.append(KeyIdea(idea: idea, accept: phrases))
            }
            return ideas
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

        /// " (did you mean 'x'?)" when a topic is near `tag`.
        static func nearest(_ tag: String) -> String {
            Topic.suggestions(for: tag).first.map { " (did you mean '\($0.name)'?)" } ?? ""
        }

        /// The line and column of the character at `offset` in `text`, lines broken as
        /// `SourceText.lines` breaks them.
        static func place(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
            var line = 1
            var column = 1
            for character in text.prefix(max(offset, 0)) {
                if character == "\n" || character == "\r" || character == "\r\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            return (line, column)
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
            // The fields are read without YAML's implicit types, so its nulls come as text.
            if scalar.style == .plain, Self.nullWords.contains(scalar.string) {
                report("'\(name)' is null ('\(scalar.string)' is YAML for no value): write the \(name), or quote it to mean the text", at: node)
                return nil
            }
            return scalar.string
        }

        /// What YAML's core schema reads as null in a plain scalar (the empty one is reported as
        /// an empty field).
        static let nullWords: Set<String> = ["~", "null", "Null", "NULL"]

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
                report("'\(name)' must be a list, e.g. [serial-queues, sync-async]", at: node)
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
            case .reader(let problem, let offset, let value, let yaml):
                let (line, column) = Self.place(ofCharacter: offset ?? 0, in: yaml)
                let character = value >= 0 ? " (U+\(String(format: "%04X", value)))" : ""
                report("YAML: \(problem)\(character)", line: line, column: column)
            default:
                report("YAML: \(error)", line: 1, column: 1)
            }
        }
    }
}

