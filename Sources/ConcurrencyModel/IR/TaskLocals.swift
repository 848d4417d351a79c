/// Task-local values: `@TaskLocal static var id = 0` of a type, bound with
/// `Ctx.$id.withValue(v) { … }` and read as `Ctx.id` (SE-0311; swiftlang/swift `TaskLocal.swift`,
/// `TaskLocal.cpp`). A binding belongs to the running task (or, outside any task, to the thread);
/// `Task { }` copies its creator's bindings when it is made, `async let` and group children see
/// their parent's, `Task.detached { }` starts with none.

public struct TaskLocalID: Hashable, Sendable, Codable, CustomStringConvertible {
    public var index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "tl\(index)" }
}

/// One `@TaskLocal static var` of the snippet.
public struct TaskLocalDecl: Hashable, Sendable, Codable {
    /// As the snippet writes it: `Ctx.id`.
    public var name: String
    /// Its default value: what a read finds where nothing is bound.
    public var initial: Value
    public var span: SourceSpan

    public init(name: String, initial: Value, span: SourceSpan) {
        self.name = name
        self.initial = initial
        self.span = span
    }
}

public enum TaskLocalAction: Hashable, Sendable, Codable {
    /// The start of `withValue(v) { … }`: `v` is bound until the matching `unbind`.
    case bind(TaskLocalID, Expression)
    /// The end of `withValue`'s body: the innermost binding goes.
    case unbind(TaskLocalID)
    /// `Ctx.id`: the innermost binding's value, else the default, into `into`.
    case read(TaskLocalID, into: VariableID)
}
