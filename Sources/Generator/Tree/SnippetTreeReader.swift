import ConcurrencyModel
import SwiftParser
import SwiftSyntax

/// Reads a snippet's Swift source into a `SnippetTree` with swift-syntax: dispatches with a
/// trailing closure and prints of a literal become nodes the generator can change; everything
/// else is kept as written (comments dropped, each statement on one line, bodies nested).
public enum SnippetTreeReader {
    /// Nil when the source does not parse.
    public static func read(_ source: String) -> SnippetTree? {
        let file = Parser.parse(source: source)
        guard !file.hasError else { return nil }
        return SnippetTree(statements(file.statements))
    }

    static func statements(_ items: CodeBlockItemListSyntax) -> [Statement] {
        items.map { statement(Syntax($0.item)) }
    }

    static func statement(_ node: Syntax) -> Statement {
        if let call = node.as(FunctionCallExprSyntax.self) {
            if let label = printedLabel(call) { return .print(label) }
            if let dispatch = dispatch(call) { return .dispatch(dispatch) }
        }
        // `actor Counter { … }`, a class, a struct: the members are its body, read like statements.
        if let group = node.asProtocol(DeclGroupSyntax.self) {
            let brace = group.memberBlock.leftBrace.position
            let header = text(node.tokens(viewMode: .sourceAccurate).prefix { $0.position < brace })
            let members = group.memberBlock.members.map { statement(Syntax($0.decl)) }
            return .compound([Clause(header: header, body: members)], trailer: "")
        }
        let bodies = BodyFinder.bodies(in: node)
        guard !bodies.isEmpty else { return .line(text(node.tokens(viewMode: .sourceAccurate))) }

        // Split the statement's tokens into the text around each body.
        var segments: [[TokenSyntax]] = [[]]
        var bodyIndex = 0
        for token in node.tokens(viewMode: .sourceAccurate) {
            if bodyIndex < bodies.count, bodies[bodyIndex].range.contains(token.position) {
                if token.endPosition == bodies[bodyIndex].range.upperBound {
                    bodyIndex += 1
                    segments.append([])
                }
                continue
            }
            segments[segments.count - 1].append(token)
        }
        let clauses = bodies.enumerated().map { index, body in
            Clause(header: text(segments[index]), parameters: body.parameters, body: statements(body.statements))
        }
        return .compound(clauses, trailer: text(segments.last ?? []))
    }

    /// `print(1)` or `print("a")`.
    static func printedLabel(_ call: FunctionCallExprSyntax) -> Label? {
        guard call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "print",
            call.trailingClosure == nil, call.arguments.count == 1,
            let argument = call.arguments.first, argument.label == nil
        else { return nil }
        if let integer = argument.expression.as(IntegerLiteralExprSyntax.self), let value = Int(integer.literal.text) {
            return .number(value)
        }
        if let string = argument.expression.as(StringLiteralExprSyntax.self), string.openingQuote.text == "\"",
            string.segments.count == 1, let segment = string.segments.first?.as(StringSegmentSyntax.self),
            !segment.content.text.contains("\\"), !segment.content.text.isEmpty
        {
            return .text(segment.content.text)
        }
        return nil
    }

    /// `queue.sync { … }`, `queue.async(group: g, flags: .barrier) { … }`.
    static func dispatch(_ call: FunctionCallExprSyntax) -> Dispatch? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
            let mode = DispatchMode(rawValue: member.declName.baseName.text),
            let closure = call.trailingClosure, closure.signature == nil, call.additionalTrailingClosures.isEmpty
        else { return nil }
        var barrier = false
        var group: String?
        for argument in call.arguments {
            switch argument.label?.text {
            case "flags" where argument.expression.trimmedDescription == ".barrier":
                barrier = true
            case "group" where mode == .async:
                guard let name = argument.expression.as(DeclReferenceExprSyntax.self) else { return nil }
                group = name.baseName.text
            default:
                return nil
            }
        }
        return Dispatch(queue: text(base.tokens(viewMode: .sourceAccurate)), mode: mode, barrier: barrier,
                        group: group, body: statements(closure.statements))
    }

    /// Tokens on one line, a single space where the source had any whitespace or comment.
    static func text(_ tokens: some Sequence<TokenSyntax>) -> String {
        var result = ""
        var previous: TokenSyntax?
        for token in tokens {
            if let previous, !previous.trailingTrivia.isEmpty || !token.leadingTrivia.isEmpty {
                result += " "
            }
            result += token.text
            previous = token
        }
        return result
    }
}

/// The bodies directly inside a statement (closures and `{ }` blocks, not those nested in them).
private final class BodyFinder: SyntaxVisitor {
    struct Body {
        var range: Range<AbsolutePosition>
        var parameters: String?
        var statements: CodeBlockItemListSyntax
    }

    private var found: [Body] = []

    static func bodies(in node: Syntax) -> [Body] {
        let finder = BodyFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        let parameters = node.signature.map { SnippetTreeReader.text($0.tokens(viewMode: .sourceAccurate)) }
        found.append(Body(range: node.leftBrace.position..<node.rightBrace.endPosition, parameters: parameters, statements: node.statements))
        return .skipChildren
    }

    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        found.append(Body(range: node.leftBrace.position..<node.rightBrace.endPosition, parameters: nil, statements: node.statements))
        return .skipChildren
    }
}
