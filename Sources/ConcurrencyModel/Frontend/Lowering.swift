import SwiftSyntax

/// Walks a folded syntax tree and builds the IR. Each construct it does not know becomes a problem
/// at the construct's first character; lowering goes on so that every problem is reported at once.
struct Lowering {
    let converter: SourceLocationConverter
    let makeProblem: (String, Syntax) -> Problem

    var problems: [Problem] = []
    var queues: [QueueDecl] = Prelude.queues
    var blocks: [Block] = []
    var variables: [VariableDecl] = []
    var groups: [ObjectDecl] = []
    var semaphores: [SemaphoreDecl] = []
    var workItems: [WorkItemDecl] = []
    /// Work items declared optional and set on the next line (`var item: DispatchWorkItem?`,
    /// then `item = DispatchWorkItem { … }`): never nil after, so `item?` and `item!` are the item.
    var optionalWorkItems: Set<WorkItemID> = []
    /// Lowering the operand of an `await` that is an expression (`await (a + b)`): async lets
    /// and kept tasks it names are awaited where they stand.
    var awaitingExpression = false
    var operationQueues: [OperationQueueDecl] = []
    var operations: [OperationDecl] = []
    /// Statements a call lowers to after its own (addOperations' wait).
    var pendingStatements: [Statement] = []
    /// The variable each Mutex protects (`Lowering+Locks`).
    var mutexValues: [SemaphoreID: VariableID] = [:]
    /// Statements that must run before the statement being lowered: the calls its expressions
    /// make (`print(total())` calls `total` first, its value into a hidden variable).
    var hoisted: [Statement] = []
    /// What each scope being lowered runs where it ends, innermost last, in the order declared
    /// (they run last first): its `defer` blocks and the ends of its async lets. `isBody` marks a
    /// function's or closure's own scope, where a `return` stops running them.
    var deferScopes: [(isBody: Bool, cleanups: [ScopeCleanup])] = []
    /// Closures whose value is used (`let v = q.sync { … }`): the type their `return`s give, once
    /// the first one is seen.
    var valueClosures: [SyntaxIdentifier: StaticType?] = [:]
    /// The function whose body is being lowered: calling it again would recurse.
    var currentFunction: String?
    /// Names in scope, innermost last. The first scope is the top level.
    var scopes: [[String: Binding]] = [[:]]
    /// Each variable's type, fixed where it is declared.
    var variableTypes: [VariableID: StaticType] = [:]
    /// Variables declared with `let` (and loop variables, parameters): assigning them is an error.
    var constants: Set<VariableID> = []
    /// Top-level variables declared `nonisolated(unsafe)`: not on the main actor in Swift 6, so
    /// any code may touch them (and race on them) as swiftc lets it.
    var unsafeNonisolatedGlobals: Set<String> = []
    /// Which declared functions each function's body calls, to refuse recursion.
    var callGraph: [String: Set<String>] = [:]
    /// A value parameter's default (`_ s: String = "slow"`): a constant, used where a call leaves it out.
    var parameterDefaults: [VariableID: Expression] = [:]
    /// Each function's declaration, for lowering a specialized one at its calls.
    var functionSyntax: [String: FunctionDeclSyntax] = [:]
    /// The specialized functions whose bodies are being lowered, outermost first.
    var specializing: [String] = []
    /// Functions whose bodies have been lowered.
    var loweredFunctions: Set<String> = []
    /// How many times the code being lowered runs, from the known counts of the loops around it.
    var loopIterations: UInt64 = 1
    /// The classes and structs the snippet declares (`Lowering+Classes`).
    var typeDeclarations: [String: TypeDeclaration] = [:]
    /// The names of the classes, structs and actors the file declares at its top level: a
    /// function that makes one of their instances makes it afresh at each call.
    var declaredTypeNames: Set<String> = []
    /// Each instance's members, by the instance's name.
    var instanceScopes: [String: [String: Binding]] = [:]
    /// The operation each instance of an Operation subclass is.
    var instanceOperations: [String: OperationID] = [:]
    /// The instance whose stored properties are being declared: they are its shared variables.
    var memberPrefix: String?
    /// The bodies of computed properties, by qualified name (`counter.value`).
    var memberBodies: [String: CodeBlockItemListSyntax] = [:]
    /// Where the code of each task closure (and `MainActor.run` closure) runs, recorded as it is
    /// lowered (`Lowering+Tasks`).
    var closureContexts: [SyntaxIdentifier: (isolation: Isolation, isAsync: Bool)] = [:]
    /// Where the code being lowered runs, when no syntax around it says (an `async let`'s call).
    var asyncContext: (isolation: Isolation, isAsync: Bool)?
    /// Where the body of the function or method being lowered runs.
    var functionContext: (isolation: Isolation, isAsync: Bool)?
    /// The body being lowered is a nonsending function's, on its caller's actor for this call
    /// only: statically it is nonisolated, so a `Task { }` made in it inherits no actor.
    var inNonsendingBody = false
    /// Top-level functions declared more than once under one name, first declared first.
    var overloads: [String: [FunctionDecl]] = [:]
    /// Static functions by type and name (`API.fetch`), and the bodies still to lower.
    var staticFunctions: [String: [String: FunctionDecl]] = [:]
    var staticBodiesToLower: [String: FunctionDeclSyntax] = [:]
    /// Set while a static function's signature is declared: it is kept by type, not bound.
    var declaringStaticOf: String?
    /// The upcoming feature NonisolatedNonsendingByDefault is on: a plain `async` function runs
    /// on its caller's actor (`LanguageMode.runsNonisolatedAsyncOnCaller`).
    var nonsendingByDefault = false
    /// A plain nonisolated `async` function was declared: NonisolatedNonsendingByDefault would
    /// change where it runs.
    var hasPlainNonisolatedAsync = false
    /// `enum MyError: Error`: each error enum's cases (`Lowering+Errors`).
    var errorEnums: [String: [String]] = [:]
    /// `enum Phase { case idle, running }`: each plain enum's cases (`Lowering+Enums`).
    var plainEnums: [String: PlainEnum] = [:]
    /// `struct MyError: Error {}` types.
    var errorStructs: Set<String> = []
    /// Error types whose declaration was refused: their uses say nothing more.
    var refusedErrorTypes: Set<String> = []
    /// The functions (and methods) declared `throws`, by `FunctionCall.name`.
    var throwingFunctions: Set<String> = []
    /// The top-level code awaits somewhere, so it is an async context (`Lowering+AssumeIsolated`).
    var topLevelAwaits = false
    /// The puzzle is for Swift 5 mode, where a call unavailable from async code is only a warning.
    var swift5Mode = false
    /// The puzzle is for Swift 6 mode, where top-level variables are on the main actor
    /// (`Lowering+GlobalIsolation`).
    var globalsOnMainActor = false
    /// Top-level instances of the snippet's classes that are not `Sendable`, with their type
    /// and `let` or `var`: in Swift 6 they may not leave the main actor.
    var topLevelNonSendable: [String: (type: String, specifier: String)] = [:]
    /// Top-level instances of the snippet's `@MainActor` classes: their members are reached
    /// off the main actor only through `await`.
    var topLevelMainActorInstances: Set<String> = []
    /// The error types made whose printed text is Foundation's, per platform (URLError, NSError).
    var platformErrorTypes: Set<String> = []
    /// The prints of an error value, refused if such an error is made.
    var errorPrints: [Syntax] = []
    /// The call an `async let` runs, whose errors its `try await x` marks.
    var asyncLetCall: SyntaxIdentifier?
    /// The continuations (by index) of `withCheckedThrowingContinuation`, which `resume(throwing:)` may end.
    var throwingContinuations: Set<Int> = []
    /// The closures that cannot throw and were told so (once each, as swiftc does).
    var throwingClosuresReported: Set<SyntaxIdentifier> = []
    /// Actor declarations by type name, and the methods lowered for each instance.
    var actorSyntax: [String: ActorDeclSyntax] = [:]
    var actorInstances: [String: ActorInstance] = [:]
    var actorMethods: [String: FunctionDecl] = [:]
    /// The actor instance whose method's body is being lowered (`Lowering+ActorSelfCalls`).
    var currentActor: ActorInstance?
    /// The type of the value each kept task gives (`let t = Task { 42 }`, `async let x = f()`),
    /// by its hidden variable; absent: it gives none.
    var taskResultTypes: [VariableID: StaticType] = [:]
    /// Every `withTaskGroup` lowered so far.
    var taskGroups: [TaskGroupDecl] = []
    /// Every `withCheckedContinuation` lowered so far, and the type of the value each is resumed
    /// with (absent: none).
    var continuations: [ContinuationDecl] = []
    var streams: [StreamDecl] = []
    /// Every `@TaskLocal static var` declared (`Lowering+TaskLocals`), and each by `Type.name`.
    var taskLocals: [TaskLocalDecl] = []
    var taskLocalIDs: [String: (id: TaskLocalID, type: StaticType)] = [:]
    /// Top-level functions that return the AsyncStream they make, by name (`Lowering+StreamFunctions`).
    var streamFunctions: [String: FunctionDeclSyntax] = [:]
    /// Every timer source lowered so far (`Lowering+TimerSources`), with what the check at the
    /// end needs: the repeating schedules, and the sources something cancels.
    var timerSources: [TimerSourceDecl] = []
    var repeatingTimers: [(source: TimerSourceID, node: Syntax)] = []
    var cancelledTimers: Set<TimerSourceID> = []
    var resumedTimers: Set<TimerSourceID> = []
    var continuationTypes: [ContinuationID: StaticType] = [:]
    var resumedWithoutValue: Set<ContinuationID> = []
    /// The continuation last kept in a variable (`self.continuation = cont`), which names a held
    /// `resume()` in words.
    var lastKeptContinuation: ContinuationID?
    /// Queues an `activate()` names so far, in the text: `setTarget` must come before.
    var activated: Set<QueueID> = []

    /// What a name in the snippet stands for.
    enum Binding {
        case queue(QueueID)
        case variable(VariableID)
        case group(GroupID)
        case semaphore(SemaphoreID)
        case workItem(WorkItemID)
        case operationQueue(OperationQueueID)
        case operation(OperationID)
        case function(FunctionDecl)
        /// An instance of a class or struct the snippet declares: its members are in
        /// `instanceScopes` under this name.
        case instance(String)
        /// A task kept in a variable (`let t = Task { }`) or an `async let`: the hidden variable.
        case task(VariableID)
        /// An instance of an actor the snippet declares.
        case actor(ActorInstance)
        /// The parameter of a `withTaskGroup` body, with the type its children give (nil: Void).
        case taskGroup(TaskGroupID, child: StaticType?)
        /// The parameter of a `withCheckedContinuation` body.
        case continuation(ContinuationID)
        /// An AsyncStream, and the type of its elements.
        case stream(StreamID, element: StaticType)
        /// An AsyncStream's continuation (its build closure's parameter, or makeStream's).
        case streamContinuation(StreamID, element: StaticType)
        /// A `DispatchSourceTimer` (`DispatchSource.makeTimerSource(queue:)`).
        case timerSource(TimerSourceID)
        /// A closure passed for a closure parameter, with the names it sees where it was written.
        case closure(ClosureExprSyntax, scopes: [[String: Binding]], parameters: [StaticType])
        /// A range of Int kept in a `let`: the hidden constants holding its bounds.
        case range(lower: VariableID, upper: VariableID, inclusive: Bool)
    }

    /// A function the snippet declares: its body, its parameters in order, and the type of the
    /// value it returns (nil: it returns nothing).
    struct FunctionDecl {
        var name: String
        var body: BlockID
        var parameters: [Parameter]
        var returns: StaticType?
        /// It declares queues, groups, semaphores, work items or operations of its own.
        var makesObjects = false
        /// The instance whose method (or computed property) this is.
        var instance: String?
        /// A computed property: read without parentheses.
        var isProperty = false
        /// Where an `async` function's body runs (nil: a synchronous function, on the caller's thread).
        var isolation: Isolation?
        /// An `async` function that runs on its caller's executor, without a hop
        /// (`nonisolated(nonsending)`, SE-0461); its body is lowered at each call, in the
        /// caller's isolation.
        var runsOnCaller = false
        /// A synchronous `@MainActor` function (or a method of a `@MainActor` type): it runs on
        /// its caller's thread, which must be on the main actor, and a task or closure made in
        /// its body inherits the main actor.
        var isMainActorSync = false

        /// Where the body runs, as `context(of:)` asks it.
        var bodyContext: (isolation: Isolation, isAsync: Bool)? {
            if let isolation { return (isolation, true) }
            return isMainActorSync ? (.mainActor, false) : nil
        }

        /// Lowered at each call (`Lowering+Functions`): it makes objects, or takes them, or it is
        /// a method (its instance's members in scope).
        var isSpecialized: Bool {
            makesObjects || instance != nil || runsOnCaller || parameters.contains { if case .object = $0 { true } else { false } }
        }

        enum Parameter {
            /// A value of the subset's types, in a variable of the body.
            case value(label: String?, variable: VariableID)
            /// A queue, group, … the caller names: the body's name for it.
            case object(label: String?, name: String, kind: ObjectKind)

            var label: String? {
                switch self {
                case .value(let label, _), .object(let label, _, _): label
                }
            }
        }

        /// The objects a function may take.
        enum ObjectKind {
            case queue, group, semaphore, workItem, operationQueue, operation
            /// `completion: @escaping ([String]) -> Void`: a synchronous closure returning
            /// nothing, with parameters of these types; each call runs the closure passed.
            case closure(parameters: [StaticType])

            init?(typeName: String) {
                switch typeName {
                case "DispatchQueue": self = .queue
                case "DispatchGroup": self = .group
                case "DispatchSemaphore": self = .semaphore
                case "DispatchWorkItem": self = .workItem
                case "OperationQueue": self = .operationQueue
                case "Operation", "BlockOperation": self = .operation
                default: return nil
                }
            }

            var typeName: String {
                switch self {
                case .queue: "DispatchQueue"
                case .group: "DispatchGroup"
                case .semaphore: "DispatchSemaphore"
                case .workItem: "DispatchWorkItem"
                case .operationQueue: "OperationQueue"
                case .operation: "Operation"
                case .closure(let parameters): "(" + parameters.map(\.description).joined(separator: ", ") + ") -> Void"
                }
            }
        }
    }

    init(converter: SourceLocationConverter, makeProblem: @escaping (String, Syntax) -> Problem) {
        self.converter = converter
        self.makeProblem = makeProblem
        for (index, queue) in Prelude.queues.enumerated() where queue.kind != .main {
            scopes[0][queue.name] = .queue(QueueID(index: index))
        }
    }

    mutating func lower(_ file: SourceFileSyntax) -> Program {
        let entry = BlockID(index: 0)
        blocks.append(Block(statements: []))
        topLevelAwaits = Self.topLevelAwaits(file)
        declaredTypeNames = Self.declaredTypeNames(in: file.statements)
        declareTypes(in: file.statements)
        declareFunctions(in: file.statements)
        if globalsOnMainActor {
            for finding in SentCaptures.findings(in: file) { report(finding.message, finding.node) }
        }
        blocks[0].statements = lowerItems(file.statements)
        var program = Program(queues: queues, blocks: blocks, entry: entry, variables: variables, groups: groups,
                              semaphores: semaphores, workItems: workItems, operationQueues: operationQueues, operations: operations)
        program.taskGroups = taskGroups
        program.continuations = continuations
        program.streams = streams
        program.timerSources = timerSources
        program.taskLocals = taskLocals
        checkRepeatingTimers()
        program.dependsOnNonsendingDefault = hasPlainNonisolatedAsync
        refusePlatformErrorPrints()
        return program
    }

    var isTopLevel: Bool { scopes.count == 1 }
    /// Declaring an instance's stored properties: they are shared, and named after it.
    var isMemberScope: Bool { memberPrefix != nil && scopes.count == objectScopeDepth }
    /// `counter.count` for an instance's property, the name itself otherwise.
    func memberName(_ name: String) -> String { isMemberScope ? "\(memberPrefix!).\(name)" : name }
    /// The scope depth where queues, groups, semaphores, work items and operations may be made:
    /// the top level's, or the own scope of a function specialized at a top-level call
    /// (`Lowering+Functions`), which makes them afresh for that call.
    var objectScopeDepth = 1
    var mayDeclareObjects: Bool { scopes.count == objectScopeDepth }

    func lookup(_ name: String) -> Binding? {
        for scope in scopes.reversed() {
            if let binding = scope[name] { return binding }
        }
        return nil
    }

    mutating func bind(_ name: String, _ binding: Binding) {
        scopes[scopes.count - 1][name] = binding
    }

    /// Lowers a closure or loop body into a new block with its own scope. A closure that runs
    /// once each time its statement runs (`runsOnce`: a dispatched block, a notify block, a
    /// task) may make objects where its statement may: each is then made once.
    mutating func lowerBlock(_ items: CodeBlockItemListSyntax, span: SourceSpan?, runsOnce: Bool = false,
                             prepare: (inout Lowering) -> Void = { _ in }) -> BlockID {
        let id = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: span))
        let outerObjectDepth = objectScopeDepth
        let makesObjects = runsOnce && mayDeclareObjects && loopIterations == 1
        scopes.append([:])
        if makesObjects { objectScopeDepth = scopes.count }
        prepare(&self)
        let statements = lowerItems(items)
        objectScopeDepth = outerObjectDepth
        scopes.removeLast()
        blocks[id.index].statements = statements
        return id
    }

    mutating func lowerItems(_ items: CodeBlockItemListSyntax) -> [Statement] {
        var statements: [Statement] = []
        deferScopes.append((isBody: Self.isBody(items), cleanups: []))
        let outerHoisted = hoisted
        defer { hoisted = outerHoisted }
        var skipping: SyntaxIdentifier?
        var errorExits: [(start: Int, child: VariableID, span: SourceSpan)] = []
        items: for (position, item) in zip(items.indices, items) {
            if item.id == skipping { continue }
            hoisted = []
            var lowered: [Statement] = []
            let next = items.index(after: position) < items.endIndex ? items[items.index(after: position)] : nil
            if let next, let declared = declareOptionalWorkItem(item, then: next) {
                statements += declared
                skipping = next.id
                continue
            }
            if let implicit = implicitReturn(item, in: items) {
                statements += implicit
                continue
            }
            switch item.item {
            case .decl(let decl):
                if let variable = decl.as(VariableDeclSyntax.self) {
                    let cleanupsBefore = deferScopes[deferScopes.count - 1].cleanups.count
                    lowered += declare(variable)
                    // An async let followed by code that can throw: the error's way out
                    // cancels and awaits it too (see `wrapErrorExits`).
                    let cleanups = deferScopes[deferScopes.count - 1].cleanups
                    if cleanups.count > cleanupsBefore, case .asyncLet(let child, let span) = cleanups[cleanups.count - 1],
                        items[items.index(after: position)...].contains(where: { Self.mayThrowOut($0) }) {
                        statements += hoisted + lowered
                        errorExits.append((start: statements.count, child: child, span: span))
                        continue
                    }
                } else if let function = decl.as(FunctionDeclSyntax.self) {
                    declareFunction(function)
                } else if let module = decl.as(ImportDeclSyntax.self) {
                    importModule(module)
                } else if let actor = decl.as(ActorDeclSyntax.self) {
                    declareActor(actor)
                } else if decl.is(ClassDeclSyntax.self) || decl.is(StructDeclSyntax.self) || decl.is(EnumDeclSyntax.self) {
                    if !isTopLevel { report("declare types at the top level of the snippet", Syntax(decl)) }
                } else {
                    unsupported(Syntax(decl))
                }
            case .expr(let expr):
                lowered += lowerStatement(expr)
            case .stmt(let stmt):
                if let expression = stmt.as(ExpressionStmtSyntax.self) {
                    lowered += lowerStatement(expression.expression)
                } else if let loop = stmt.as(WhileStmtSyntax.self) {
                    if let statement = lowerGroupNextBinding(loop.conditions, body: loop.body, loops: true, at: Syntax(loop)) {
                        lowered += statement.map { [$0] } ?? []
                    } else {
                        lowered += lowerWhile(loop)
                    }
                } else if let loop = stmt.as(RepeatStmtSyntax.self) {
                    lowered += lowerRepeat(loop)
                } else if let loop = stmt.as(ForStmtSyntax.self) {
                    lowered += lowerLoop(loop).map { [$0] } ?? []
                } else if let thrown = stmt.as(ThrowStmtSyntax.self) {
                    lowered += lowerThrow(thrown)
                } else if let handled = stmt.as(DoStmtSyntax.self) {
                    lowered += lowerDo(handled)
                } else if let exit = stmt.as(ReturnStmtSyntax.self) {
                    lowered += lowerReturn(exit)
                } else if let guardStatement = stmt.as(GuardStmtSyntax.self) {
                    lowered += lowerGuard(guardStatement).map { [$0] } ?? []
                } else if let deferred = stmt.as(DeferStmtSyntax.self) {
                    deferScopes[deferScopes.count - 1].cleanups.append(.deferred(deferred))
                } else if stmt.is(BreakStmtSyntax.self), items.parent?.is(SwitchCaseSyntax.self) == true {
                    // `break` leaves the switch: the case's statements after it never run.
                    statements += hoisted + lowered
                    break items
                } else if stmt.is(BreakStmtSyntax.self) || stmt.is(ContinueStmtSyntax.self) {
                    lowered += lowerLoopExit(stmt).map { [$0] } ?? []
                } else {
                    unsupported(Syntax(stmt))
                }
            }
            statements += hoisted + lowered
        }
        statements = wrapErrorExits(statements, errorExits)
        // The scope's `defer` blocks and async lets' ends, last first, where it ends (a `return`
        // runs them itself).
        statements += lowerCleanups(deferScopes.removeLast().cleanups)
        return insertPendingThrows(statements)
    }

    private mutating func lowerStatement(_ expr: ExprSyntax) -> [Statement] {
        if let statements = lowerWithValue(expr) ?? lowerCancellationHandler(expr) {
            return statements
        }
        if let statements = lowerCheckCancellation(expr) {
            return statements
        }
        // `try? await Task.sleep(…)` is a sleep that just ends when cancelled (below); other
        // `try?` and `try!` statements handle the errors of their call.
        if let attempt = expr.as(TryExprSyntax.self), attempt.questionOrExclamationMark != nil,
            !(attempt.questionOrExclamationMark?.tokenKind == .postfixQuestionMark && Self.isTaskSleep(attempt.expression)) {
            return lowerMarkedTry(attempt) { lowering, inner in lowering.lowerStatement(inner) }
        }
        if let attempt = expr.as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil {
            guard checkHandled(Syntax(attempt)) else { return [] }
            // A sleep that cancellation ends throws CancellationError.
            if Self.isTaskSleep(attempt.expression) {
                let statements = lowerStatement(attempt.expression)
                return statements.isEmpty ? [] : statements + [Statement(.throwing(.sleepCancelled), at: span(of: Syntax(attempt)))]
            }
            if !attempt.expression.is(AwaitExprSyntax.self) { return lowerStatement(attempt.expression) }
        }
        if let awaited = expr.as(AwaitExprSyntax.self) {
            return lowerAwait(awaited)
        }
        if let attempt = expr.as(TryExprSyntax.self), let awaited = attempt.expression.as(AwaitExprSyntax.self) {
            return lowerAwait(awaited)
        }
        if let branch = expr.as(IfExprSyntax.self) {
            if let statements = lowerErrorCastIf(branch) { return statements }
            if branch.elseBody == nil, let statement = lowerGroupNextBinding(branch.conditions, body: branch.body, loops: false, at: Syntax(branch)) {
                return statement.map { [$0] } ?? []
            }
            if branch.conditions.count == 1, case .expression(let condition)? = branch.conditions.first?.condition,
                let statements = lowerTimedWaitIf(condition, branch)
            {
                return statements
            }
            return lowerIf(branch).map { [$0] } ?? []
        }
        if let choice = expr.as(SwitchExprSyntax.self) {
            return lowerSwitch(choice).map { [$0] } ?? []
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self) {
            // `_ = await Task { … }.result`, `_ = try? await f()`: the wait, its value dropped.
            if infix.leftOperand.is(DiscardAssignmentExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self),
                let awaited = (infix.rightOperand.as(TryExprSyntax.self)?.expression ?? infix.rightOperand).as(AwaitExprSyntax.self) {
                return lowerAwait(awaited)
            }
            return lowerAssignment(infix).map { [$0] } ?? []
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            let base = member.base, case .semaphore(let lock)? = binding(of: base), let kind = semaphores[lock.index].lock
        {
            return lowerLockCall(lock, kind, method: member.declName.baseName.text, call: call, span: span(of: Syntax(call))) ?? []
        }
        if let call = expr.as(FunctionCallExprSyntax.self) {
            let statement = lowerCall(call)
            defer { pendingStatements.removeAll() }
            return (statement.map { [$0] } ?? []) + pendingStatements
        }
        // A flag on a line of its own (`workItem.isCancelled`, which a playground shows): Swift
        // warns that the value is unused, and reading it changes nothing.
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base,
            ["isCancelled", "isFinished", "isExecuting", "isReady"].contains(member.declName.baseName.text)
        {
            switch binding(of: base) {
            case .workItem?, .operation?: return []
            default: break
            }
        }
        unsupported(Syntax(expr))
        return []
    }

    // MARK: Declarations

    /// `let q = DispatchQueue(…)`, `let g = DispatchGroup()`, `let s = DispatchSemaphore(value:)`,
    /// or a variable with its initial value (which becomes an assignment statement).
    mutating func declare(_ declaration: VariableDeclSyntax) -> [Statement] {
        if isTopLevel, declaration.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) && $0.detail?.detail.text == "unsafe" }),
            let name = declaration.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            unsafeNonisolatedGlobals.insert(name)
        }
        if declaration.bindings.count == 1, let pair = declareStreamPair(declaration.bindings.first!, span: span(of: Syntax(declaration))) {
            return pair
        }
        if declaration.bindings.count == 1, let awaited = declareAwaitedTuple(declaration.bindings.first!) {
            return awaited
        }
        let asyncLet = declaration.isAsyncLet
        // `async let _ = f()`: a child task whose value nobody reads, cancelled and awaited where
        // its scope ends as any other.
        guard declaration.bindings.count == 1, let binding = declaration.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                ?? (asyncLet && binding.pattern.is(WildcardPatternSyntax.self) ? "_" : nil)
        else {
            unsupported(Syntax(declaration))
            return []
        }
        // `var o: Int?` starts as nil, as Swift's optional `var`s do.
        let impliedNil = binding.initializer == nil && declaration.bindingSpecifier.tokenKind == .keyword(.var)
            && binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true
        guard let written = binding.initializer?.value ?? (impliedNil ? ExprSyntax(NilLiteralExprSyntax()) : nil) else {
            report("'\(name)' needs an initial value", Syntax(binding))
            return []
        }
        // `let vm = await ViewModel()` on the main actor: swiftc only warns (nothing to await),
        // and the instance is made in place.
        let value = instantiationAwaitedInPlace(written) ?? written
        if asyncLet {
            return declareAsyncLet(name, value, span: span(of: Syntax(declaration)))
        }
        if let call = value.as(FunctionCallExprSyntax.self), isTaskCreation(call) {
            return declareTask(name, call, span: span(of: Syntax(declaration)))
        }
        if let statements = declareGroupAddition(name, value, span: span(of: Syntax(declaration))) {
            return statements
        }
        if let call = value.as(FunctionCallExprSyntax.self), let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            let actor = actorSyntax[type] {
            return declareActorInstance(name, actor, call, span: span(of: Syntax(declaration)))
        }
        if let statements = declareStream(name, value, span: span(of: Syntax(declaration))) {
            return statements
        }
        if let call = value.as(FunctionCallExprSyntax.self), isSpecificKeyCreation(call) {
            return declareSpecificKey(name, call, span: span(of: Syntax(declaration)))
        }
        if let statements = declareKeptClosure(name, value, declaration: declaration, binding: binding) {
            return statements
        }
        if let existing = scopes[scopes.count - 1][name] {
            let owner = isTopLevel && Prelude.queues.contains(where: { $0.name == name }) ? "the prelude" : "the snippet"
            _ = existing
            report("invalid redeclaration of '\(name)': \(owner) already declares it", Syntax(binding.pattern))
            return []
        }
        let span = self.span(of: Syntax(declaration))
        if let statements = declareRange(name, value, declaration: declaration, span: span) {
            return statements
        }
        if isQueueExpression(value) {
            guard mayDeclareObjects else {
                report("declare queues at the top level of the snippet or of a function (or in a block that runs once), not in a loop or a closure that may run more than once", Syntax(declaration))
                return []
            }
            if let call = value.as(FunctionCallExprSyntax.self), isDispatchQueueType(call.calledExpression) {
                guard let decl = newQueue(call, name: memberName(name)) else { return [] }
                queues.append(decl)
                bind(name, .queue(QueueID(index: queues.count - 1)))
            } else if let existing = resolveQueue(value) {
                bind(name, .queue(existing))
            }
            return []
        }
        if let statements = declareLock(name, value, span: span, declaration: Syntax(declaration)) {
            return statements
        }
        if let statements = declareTimerSource(name, value, span: span, declaration: Syntax(declaration)) {
            return statements
        }
        if let call = value.as(FunctionCallExprSyntax.self), let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            type == "DispatchGroup" || type == "DispatchSemaphore"
        {
            guard mayDeclareObjects else {
                report("declare \(type)s at the top level of the snippet or of a function", Syntax(declaration))
                return []
            }
            if type == "DispatchGroup" {
                guard call.arguments.isEmpty else {
                    report("DispatchGroup() takes no arguments", Syntax(call))
                    return []
                }
                groups.append(ObjectDecl(name: memberName(name), span: span))
                bind(name, .group(GroupID(index: groups.count - 1)))
            } else {
                guard call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "value",
                    let initial = integerLiteral(argument.expression), initial >= 0
                else {
                    report("write DispatchSemaphore(value: N) with N a whole number ≥ 0", Syntax(call))
                    return []
                }
                semaphores.append(SemaphoreDecl(name: memberName(name), initialValue: initial, span: span))
                bind(name, .semaphore(SemaphoreID(index: semaphores.count - 1)))
            }
            return []
        }
        if let call = value.as(FunctionCallExprSyntax.self),
            call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchWorkItem"
        {
            return declareWorkItem(name, call, declaration: Syntax(declaration))
        }
        if let type = instantiatedType(value), let call = value.as(FunctionCallExprSyntax.self) {
            if isTopLevel && !type.isSendable {
                topLevelNonSendable[name] = (type.name, declaration.bindingSpecifier.text)
            }
            if isTopLevel && type.isMainActor && !type.isStruct { topLevelMainActorInstances.insert(name) }
            return instantiate(name, type, call, span: span, declaration: Syntax(declaration))
        }
        if let statements = declareOperationObject(name, value, span: span, declaration: Syntax(declaration)) {
            return statements
        }
        var annotated: StaticType?
        if let annotation = binding.typeAnnotation {
            guard let type = staticType(annotation.type) else { return [] }
            annotated = type
        }
        // `let result = s.wait(timeout: …)`: the wait, its result into the variable.
        if value.as(FunctionCallExprSyntax.self)?.arguments.first?.label?.text == "timeout", let (waitable, delay) = timedWait(value) {
            let isConstant = declaration.bindingSpecifier.tokenKind == .keyword(.let)
            let id = newVariable(name, isGlobal: isTopLevel, span: span, type: .string, constant: isConstant)
            bind(name, .variable(id))
            return [Statement(.timedWait(waitable, delay: delay, result: id), at: span)]
        }
        // `[String]()`: an empty array of that element type.
        if let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
            let arrayType = call.calledExpression.as(ArrayExprSyntax.self), arrayType.elements.count == 1,
            let element = arrayType.elements.first, element.expression.is(DeclReferenceExprSyntax.self)
        {
            guard let type = staticType(TypeSyntax(IdentifierTypeSyntax(name: .identifier(element.expression.sourceText))), at: Syntax(element.expression)) else { return [] }
            annotated = .list(type)
            let isConstant = declaration.bindingSpecifier.tokenKind == .keyword(.let)
            // (A refused one is still declared, so that its uses raise no second error.)
        let shared = (isTopLevel || isMemberScope ? true : needsSharedStorage(declaration, name: name)) ?? false
            let id = newVariable(memberName(name), isGlobal: shared, span: span, type: .list(type), constant: isConstant)
            bind(name, .variable(id))
            return [Statement(.assign(Assignment(target: id, operation: .set, value: .literal(.list([])))), at: span)]
        }
        // `[:]`: an empty dictionary of the annotated type.
        if let empty = value.as(DictionaryExprSyntax.self), case .colon = empty.content {
            guard case .dictionary? = annotated else {
                report("empty collection literal requires an explicit type: write 'var \(name): [Int: Int] = [:]'", Syntax(value))
                return []
            }
        }
        let emptyDictionary = value.as(DictionaryExprSyntax.self).map { if case .colon = $0.content { true } else { false } } ?? false
        guard var initial = emptyDictionary ? .literal(.list([])) : lowerExpression(value) else { return [] }
        initial = coercedLiteral(initial, to: annotated)
        guard var valueType = emptyDictionary ? annotated : type(of: initial) else { return [] }
        if annotated == nil, valueType == .optional(nil) {
            report("'nil' requires a contextual type: write 'var \(name): Int? = nil'", Syntax(value))
            return []
        }
        let declared: StaticType
        if let annotated {
            if case .integer(let integer) = annotated {
                guard let typed = typedLiteral(initial, integer, at: Syntax(value)) else { return [] }
                initial = typed
                valueType = annotated
            }
            guard valueType.fits(annotated) else {
                report("cannot convert value of type '\(valueType)' to specified type '\(annotated)'", Syntax(value))
                return []
            }
            declared = annotated
        } else if valueType == .list(nil) {
            report("empty collection literal requires an explicit type: write 'var \(name): [Int] = []'", Syntax(value))
            return []
        } else {
            declared = valueType
        }
        let isConstant = declaration.bindingSpecifier.tokenKind == .keyword(.let)
        // (A refused one is still declared, so that its uses raise no second error.)
        let shared = (isTopLevel || isMemberScope ? true : needsSharedStorage(declaration, name: name)) ?? false
        let id = newVariable(memberName(name), isGlobal: shared, span: span, type: declared, constant: isConstant)
        bind(name, .variable(id))
        return [Statement(.assign(Assignment(target: id, operation: .set, value: initial)), at: span)]
    }

    /// `DispatchWorkItem { }`, `DispatchWorkItem(flags: .barrier) { }`, `(qos:flags:block:)`.
    /// `let (a, b) = await (x, y)` of async lets or tasks (also `(await x, await y)`): each
    /// awaited in turn, left to right, as Swift evaluates a tuple.
    private mutating func declareAwaitedTuple(_ binding: PatternBindingSyntax) -> [Statement]? {
        guard let names = binding.pattern.as(TuplePatternSyntax.self), let value = binding.initializer?.value else { return nil }
        let tuple = (value.as(AwaitExprSyntax.self)?.expression ?? value).as(TupleExprSyntax.self)
        guard let tuple, tuple.elements.count == names.elements.count, binding.typeAnnotation == nil else {
            report("a tuple is outside the supported subset here (except let (a, b) = await (x, y) of async lets)", Syntax(binding))
            return []
        }
        var statements: [Statement] = []
        for (name, element) in zip(names.elements, tuple.elements) {
            guard let identifier = name.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, name.label == nil, element.label == nil else {
                report("name each value: let (a, b) = await (x, y)", Syntax(name))
                return []
            }
            let expression = element.expression.as(AwaitExprSyntax.self)?.expression ?? element.expression
            guard let handle = awaitedTask(expression), let type = taskResultTypes[handle] else {
                report("'\(element.expression.sourceText)' is not an async let or task with a value", Syntax(element))
                return []
            }
            let span = self.span(of: Syntax(element))
            let variable = newVariable(identifier, isGlobal: isTopLevel, span: span, type: type, constant: true)
            bind(identifier, .variable(variable))
            statements.append(Statement(.suspend(.value(of: handle, result: variable)), at: span))
        }
        return statements
    }

    /// `var item: DispatchWorkItem?` and, on the next line, `item = DispatchWorkItem { … }`: the
    /// common way to let the item's own block check `item?.isCancelled`. Declared as one work
    /// item, named before its block is lowered; nil is never seen, since nothing runs between.
    private mutating func declareOptionalWorkItem(_ item: CodeBlockItemSyntax, then next: CodeBlockItemSyntax) -> [Statement]? {
        guard case .decl(let decl) = item.item, let declaration = decl.as(VariableDeclSyntax.self),
            declaration.bindings.count == 1, let binding = declaration.bindings.first, binding.initializer == nil,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let type = binding.typeAnnotation?.type,
            type.as(OptionalTypeSyntax.self)?.wrappedType.sourceText == "DispatchWorkItem"
                || type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self)?.wrappedType.sourceText == "DispatchWorkItem",
            let assignment = Self.assignment(in: next), assignment.target == name,
            let call = assignment.value.as(FunctionCallExprSyntax.self),
            call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchWorkItem"
        else { return nil }
        return declareWorkItem(name, call, declaration: Syntax(declaration), namedFirst: true)
    }

    /// `name = value` on a line of its own.
    private static func assignment(in item: CodeBlockItemSyntax) -> (target: String, value: ExprSyntax)? {
        let expression: ExprSyntax? = switch item.item {
        case .expr(let expr): expr
        case .stmt(let stmt): stmt.as(ExpressionStmtSyntax.self)?.expression
        case .decl: nil
        }
        guard let infix = expression?.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self),
            let target = infix.leftOperand.as(DeclReferenceExprSyntax.self)
        else { return nil }
        return (target.baseName.text, infix.rightOperand)
    }

    private mutating func declareWorkItem(_ name: String, _ call: FunctionCallExprSyntax, declaration: Syntax, namedFirst: Bool = false) -> [Statement] {
        guard mayDeclareObjects else {
            report("declare DispatchWorkItems at the top level of the snippet or of a function", declaration)
            return []
        }
        let span = self.span(of: declaration)
        var closure = call.trailingClosure
        var barrier = false
        for argument in call.arguments {
            switch argument.label?.text {
            case "flags":
                let elements = argument.expression.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) } ?? [argument.expression]
                barrier = elements.contains { $0.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "barrier" }
            case "qos":
                break
            case "block" where argument.expression.is(ClosureExprSyntax.self):
                closure = argument.expression.as(ClosureExprSyntax.self)
            default:
                report("write DispatchWorkItem { … } or DispatchWorkItem(flags: .barrier) { … }", Syntax(argument))
                return []
            }
        }
        guard let closure, closure.signature == nil else {
            report("a DispatchWorkItem needs a closure: DispatchWorkItem { … }", Syntax(call))
            return []
        }
        let cancelled = newVariable("\(name).isCancelled", isGlobal: true, span: span, type: .bool, synchronized: true)
        let id = WorkItemID(index: workItems.count)
        let body = BlockID(index: blocks.count)
        workItems.append(WorkItemDecl(name: name, body: body, barrier: barrier, cancelled: cancelled, span: span))
        // An optional item's block may name the item itself (`item?.isCancelled`).
        if namedFirst {
            bind(name, .workItem(id))
            optionalWorkItems.insert(id)
        }
        let lowered = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
        precondition(lowered == body, "the work item's block is the next block")
        bind(name, .workItem(id))
        return [Statement(.assign(Assignment(target: cancelled, operation: .set, value: .literal(.bool(false)))), at: span)]
    }

    // MARK: Control flow

    /// `break` or `continue` in a `for i in a...b`, `for await`, `while` (also
    /// `while let v = await group.next()`) or `repeat` loop (unlabelled: the innermost loop).
    private mutating func lowerLoopExit(_ stmt: StmtSyntax) -> Statement? {
        let exit: LoopExit = stmt.is(BreakStmtSyntax.self) ? .breaks : .continues
        let label = stmt.as(BreakStmtSyntax.self)?.label ?? stmt.as(ContinueStmtSyntax.self)?.label
        if label != nil {
            report("labelled '\(exit.rawValue)' is outside the supported subset: leave the innermost loop", Syntax(stmt))
            return nil
        }
        // The scopes it leaves (the loop body's among them) must have nothing to run at their end
        // so far: `exitLoop` ends their frames without running a defer or an async let's end.
        var scopesLeft = 0
        func leavesCleanups() -> Bool {
            guard deferScopes.suffix(scopesLeft).contains(where: { !$0.cleanups.isEmpty }) else { return false }
            report("'\(exit.rawValue)' out of a scope with a 'defer' or an async let before it is outside the supported subset", Syntax(stmt))
            return true
        }
        var node = stmt.parent
        while let current = node {
            if current.is(CodeBlockItemListSyntax.self) { scopesLeft += 1 }
            if current.is(ForStmtSyntax.self) || current.is(WhileStmtSyntax.self) || current.is(RepeatStmtSyntax.self), leavesCleanups() {
                return nil
            }
            // A `for await` loop too: leaving it early drops only the iterator (a stream stays as
            // it is; a group's children left running are awaited where the group ends).
            if current.is(ForStmtSyntax.self) { return Statement(.exitLoop(exit), at: span(of: Syntax(stmt))) }
            if let loop = current.as(WhileStmtSyntax.self) {
                guard loop.conditions.allSatisfy({ if case .expression = $0.condition { true } else { false } }) || isGroupNextLoop(loop) else {
                    report("'\(exit.rawValue)' in a 'while let' loop is outside the supported subset", Syntax(stmt))
                    return nil
                }
                return Statement(.exitLoop(exit), at: span(of: Syntax(stmt)))
            }
            if current.is(RepeatStmtSyntax.self) { return Statement(.exitLoop(exit), at: span(of: Syntax(stmt))) }
            if current.is(ClosureExprSyntax.self) || current.is(FunctionDeclSyntax.self)
                || current.is(SwitchCaseSyntax.self) || current.is(AccessorBlockSyntax.self) {
                break
            }
            node = current.parent
        }
        report("'\(exit.rawValue)' is supported in a 'for' loop over a range, a 'while' or a 'repeat' loop", Syntax(stmt))
        return nil
    }

    /// `for i in a...b { }` and `for _ in a..<b { }`.
    private mutating func lowerLoop(_ loop: ForStmtSyntax) -> Statement? {
        if loop.awaitKeyword != nil { return lowerStreamLoop(loop) ?? lowerGroupLoop(loop) }
        guard loop.whereClause == nil, loop.tryKeyword == nil, loop.awaitKeyword == nil, loop.caseKeyword == nil else {
            unsupported(Syntax(loop))
            return nil
        }
        let from: Expression, to: Expression, inclusive: Bool
        if let kept = keptRange(loop.sequence) {
            (from, to, inclusive) = kept
        } else if let range = rangeSyntax(loop.sequence) {
            guard let bounds = lowerRangeBounds(range, at: Syntax(loop.sequence)) else { return nil }
            (from, to, inclusive) = (bounds.from, bounds.to, range.inclusive)
        } else {
            return lowerArrayLoop(loop)
        }
        let op = inclusive ? "..." : "..<"
        var loopVariable: VariableID?
        var name: String?
        if let identifier = loop.pattern.as(IdentifierPatternSyntax.self) {
            name = identifier.identifier.text
        } else if !loop.pattern.is(WildcardPatternSyntax.self) {
            report("the loop variable is a name or '_'", Syntax(loop.pattern))
            return nil
        }
        let span = self.span(of: Syntax(loop))
        // Known bounds: how many times the body runs, with the loops around it.
        let enclosing = loopIterations
        var total: UInt64?
        if case .int(let first)? = from.constantValue, case .int(let bound)? = to.constantValue,
            let count = Loop.iterations(from: first, to: bound, inclusive: op == "...") {
            let (product, overflow) = enclosing.multipliedReportingOverflow(by: count)
            total = overflow ? .max : product
            loopIterations = total!
        }
        defer { loopIterations = enclosing }
        let body = lowerBlock(loop.body.statements, span: self.span(of: Syntax(loop.body))) { lowering in
            if let name {
                let id = lowering.newVariable(name, isGlobal: false, span: span, type: .int)
                lowering.bind(name, .variable(id))
                loopVariable = id
            }
        }
        if let total, total > Loop.maximumIterations, !blocks[body.index].statements.isEmpty {
            let times = enclosing > 1 ? "with the loops around it, its body runs \(total.grouped) times" : "this loop runs \(total.grouped) times"
            report("\(times): gcdquiz explores at most \(Loop.maximumIterations.grouped) iterations of a loop with a body (each is a step of its thread)",
                   Syntax(loop.sequence))
            return nil
        }
        return Statement(.loop(Loop(variable: loopVariable, from: from, to: to, inclusive: op == "...", body: body)), at: span)
    }

    /// `for url in urls { }`, `for (i, url) in urls.enumerated() { }`: a loop over the indices of
    /// a copy of the array taken where the loop starts (as Swift iterates the value it was
    /// given), each element bound at the top of the body.
    private mutating func lowerArrayLoop(_ loop: ForStmtSyntax) -> Statement? {
        var sequence = loop.sequence
        var enumerated = false
        if let call = sequence.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
            let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "enumerated",
            let base = member.base {
            sequence = base
            enumerated = true
        }
        var indexName: String?
        var elementName: String?
        if enumerated {
            guard let tuple = loop.pattern.as(TuplePatternSyntax.self), tuple.elements.count == 2 else {
                report("write for (i, x) in list.enumerated()", Syntax(loop.pattern))
                return nil
            }
            let names = tuple.elements.map { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? ($0.pattern.is(WildcardPatternSyntax.self) ? "_" : "?") }
            guard !names.contains("?") else {
                report("write for (i, x) in list.enumerated()", Syntax(loop.pattern))
                return nil
            }
            indexName = names[0] == "_" ? nil : names[0]
            elementName = names[1] == "_" ? nil : names[1]
        } else if let identifier = loop.pattern.as(IdentifierPatternSyntax.self) {
            elementName = identifier.identifier.text
        } else if !loop.pattern.is(WildcardPatternSyntax.self) {
            report("the loop variable is a name or '_'", Syntax(loop.pattern))
            return nil
        }
        guard let list = lowerArrayOperand(sequence) else { return nil }
        guard case .list(let element?)? = type(of: list) else {
            report("loops go over a range ('for i in 1...3') or an array ('for x in list')", Syntax(loop.sequence))
            return nil
        }
        let span = self.span(of: Syntax(loop))
        let copy = newVariable("the loop's array", isGlobal: false, span: span, type: .list(element))
        hoisted.append(Statement(.assign(Assignment(target: copy, operation: .set, value: list)), at: span))
        let index = newVariable(indexName ?? "the loop's index", isGlobal: false, span: span, type: .int)
        let enclosing = loopIterations
        if case .list(let items)? = list.constantValue {
            let (product, overflow) = enclosing.multipliedReportingOverflow(by: UInt64(items.count))
            loopIterations = overflow ? .max : product
        } else {
            loopIterations = .max
        }
        defer { loopIterations = enclosing }
        var elementVariable: VariableID?
        let body = lowerBlock(loop.body.statements, span: self.span(of: Syntax(loop.body))) { lowering in
            if let indexName { lowering.bind(indexName, .variable(index)) }
            if let elementName {
                let id = lowering.newVariable(elementName, isGlobal: false, span: span, type: element)
                lowering.bindElement(elementName, id, of: element)
                elementVariable = id
            }
        }
        if let elementVariable {
            blocks[body.index].statements.insert(Statement(.assign(Assignment(target: elementVariable, operation: .set,
                value: .element(.variable(copy), index: .variable(index)))), at: span), at: 0)
        }
        return Statement(.loop(Loop(variable: index, from: .literal(.int(0)), to: .count(.variable(copy)), inclusive: false, body: body)), at: span)
    }

    /// `if c { } else if d { } else { }`.
    private mutating func lowerIf(_ branch: IfExprSyntax) -> Statement? {
        if bindsOptional(branch.conditions) || branch.conditions.contains(where: { $0.condition.is(MatchingPatternConditionSyntax.self) }) {
            return lowerIfBinding(branch)
        }
        guard branch.conditions.count == 1, let first = branch.conditions.first,
            case .expression(let conditionExpression) = first.condition
        else {
            report("an 'if' tests one condition (use && and || to combine)", Syntax(branch.conditions))
            return nil
        }
        guard let condition = lowerExpression(conditionExpression), expectCondition(condition, at: Syntax(conditionExpression)) else { return nil }
        let then = lowerBlock(branch.body.statements, span: span(of: Syntax(branch.body)))
        return lowerElse(branch, condition: condition, then: then)
    }

    /// `if let x = o, … { } else { }`: the names bound are in scope in the conditions after
    /// them and in the first block, not in the else.
    private mutating func lowerIfBinding(_ branch: IfExprSyntax) -> Statement? {
        scopes.append([:])
        let condition = lowerConditions(branch.conditions)
        let then = condition.map { _ in lowerBlock(branch.body.statements, span: span(of: Syntax(branch.body))) }
        scopes.removeLast()
        guard let condition, let then else { return nil }
        return lowerElse(branch, condition: condition, then: then)
    }

    /// An `if`'s else or else-if, and the branch statement.
    private mutating func lowerElse(_ branch: IfExprSyntax, condition: Expression, then: BlockID) -> Statement? {
        var otherwise: BlockID?
        switch branch.elseBody {
        case .codeBlock(let block)?:
            otherwise = lowerBlock(block.statements, span: span(of: Syntax(block)))
        case .ifExpr(let nested)?:
            let id = BlockID(index: blocks.count)
            blocks.append(Block(statements: [], span: span(of: Syntax(nested))))
            scopes.append([:])
            // The calls in an `else if`'s condition run only when it is tested: in its block.
            let outerHoisted = hoisted
            hoisted = []
            let statement = lowerIf(nested)
            blocks[id.index].statements = hoisted + (statement.map { [$0] } ?? [])
            hoisted = outerHoisted
            scopes.removeLast()
            otherwise = id
        case nil:
            break
        }
        return Statement(.branch(condition: condition, then: then, otherwise: otherwise), at: span(of: Syntax(branch)))
    }

    /// `switch x { case 1, 2: … case 3...5: … default: … }`: the first matching case's statements,
    /// as a chain of `if`s (Swift does not fall through without `fallthrough`).
    private mutating func lowerSwitch(_ choice: SwitchExprSyntax) -> Statement? {
        guard let subject = lowerExpression(choice.subject) else { return nil }
        var arms: [(test: Expression?, body: BlockID, span: SourceSpan)] = []
        for element in choice.cases {
            guard case .switchCase(let arm) = element else {
                report("'#if' inside a switch is outside the supported subset", Syntax(element))
                return nil
            }
            let test = caseTest(arm, subject: subject)
            guard test != .invalid else { return nil }
            if let fallthroughItem = arm.statements.first(where: { $0.item.as(FallThroughStmtSyntax.self) != nil }) {
                report("'fallthrough' is outside the supported subset", Syntax(fallthroughItem))
                return nil
            }
            // `break` leaves the switch (`lowerItems`): alone, it makes an empty case.
            arms.append((test.expression, lowerBlock(arm.statements, span: span(of: Syntax(arm))), span(of: Syntax(arm))))
        }
        guard let last = arms.last, last.test == nil || isExhaustive(arms.map(\.test), over: subject) else {
            report("switch must be exhaustive: add a 'default:' case", Syntax(choice.switchKeyword))
            return nil
        }
        // From the last case up: each test's else is the rest of the chain, in a block of its own.
        var otherwise: BlockID? = last.test == nil ? last.body : nil
        var chain: Statement?
        for arm in arms.reversed() where !(arm.test == nil && arm.body == last.body) {
            guard let test = arm.test else { continue }
            if let built = chain {
                let holder = BlockID(index: blocks.count)
                blocks.append(Block(statements: [built], span: built.span))
                otherwise = holder
            }
            chain = Statement(.branch(condition: test, then: arm.body, otherwise: otherwise), at: arm.span)
        }
        if let chain { return chain }
        // Only `default:` (or cases that always match): its statements run.
        return Statement(.branch(condition: .literal(.bool(true)), then: last.body, otherwise: nil), at: span(of: Syntax(choice)))
    }

    /// `x = e`, `x += e`, `x -= e`.
    private mutating func lowerAssignment(_ infix: InfixOperatorExprSyntax) -> Statement? {
        let operation: Assignment.Operation
        if infix.operator.is(AssignmentExprSyntax.self) {
            operation = .set
        } else if let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, op == "+=" || op == "-=" {
            operation = op == "+=" ? .add : .subtract
        } else {
            unsupported(Syntax(infix))
            return nil
        }
        if infix.leftOperand.is(DiscardAssignmentExprSyntax.self) {
            // `_ = total()`, `_ = q.sync { … }`: the call, its value dropped.
            if operation == .set, let call = infix.rightOperand.as(FunctionCallExprSyntax.self), isValueCall(call) {
                return lowerCall(call)
            }
            let reported = problems.count
            guard operation == .set, let (waitable, delay) = timedWait(infix.rightOperand) else {
                // The wait's own problem (its deadline) says what is wrong; otherwise, what is supported.
                if problems.count == reported { report("'_ = …' is supported for wait(timeout:) only", Syntax(infix)) }
                return nil
            }
            return Statement(.timedWait(waitable, delay: delay, result: nil), at: span(of: Syntax(infix)))
        }
        if let member = infix.leftOperand.as(MemberAccessExprSyntax.self), !isInstanceMember(member) {
            guard operation == .set else {
                report("only '=' sets a property here", Syntax(infix))
                return nil
            }
            return lowerPropertyAssignment(member, infix.rightOperand, span: span(of: Syntax(infix)))
        }
        // `list[i] = v`, `list[i] += v`: the element, in the array the variable holds.
        if let subscriptCall = infix.leftOperand.as(SubscriptCallExprSyntax.self) {
            guard subscriptCall.arguments.count == 1, let argument = subscriptCall.arguments.first, argument.label == nil,
                let target = variableReference(subscriptCall.calledExpression), let index = lowerExpression(argument.expression),
                let value = lowerExpression(infix.rightOperand)
            else { return nil }
            // `dict[key] = value`: the entry replaced or added.
            if case .dictionary(let keyType, let valueType)? = variableTypes[target] {
                guard operation == .set else {
                    report("'\(infix.operator.sourceText)' on a dictionary's entry is outside the supported subset: write dict[key] = value", Syntax(infix.operator))
                    return nil
                }
                guard !constants.contains(target) else {
                    report("cannot assign through subscript: '\(variables[target.index].name)' is a 'let' constant", Syntax(subscriptCall))
                    return nil
                }
                guard expect(keyType, index, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(keyType)'" }),
                    expect(valueType, value, at: Syntax(infix.rightOperand), { "cannot assign value of type '\($0)' to subscript of type '\(valueType)'" })
                else { return nil }
                return Statement(.assign(Assignment(target: target, operation: .set, value: value, index: index, keyed: true)), at: span(of: Syntax(infix)))
            }
            guard case .list(let element)? = variableTypes[target], let element else {
                report("'\(variables[target.index].name)' is not an array: it has no subscripts", Syntax(subscriptCall.calledExpression))
                return nil
            }
            guard expect(.int, index, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type 'Int'" }) else { return nil }
            guard !constants.contains(target) else {
                report("cannot assign through subscript: '\(variables[target.index].name)' is a 'let' constant", Syntax(subscriptCall))
                return nil
            }
            guard let valueType = type(of: value), valueType.fits(element), operation == .set || element == .int || (operation == .add && element == .string) else {
                report("cannot assign a value of type '\(type(of: value).map { "\($0)" } ?? "?")' to an element of type '\(element)'", Syntax(infix.rightOperand))
                return nil
            }
            return Statement(.assign(Assignment(target: target, operation: operation, value: value, index: index)), at: span(of: Syntax(infix)))
        }
        guard let target = variableReference(infix.leftOperand) else { return nil }
        guard var value = lowerExpression(infix.rightOperand) else { return nil }
        value = coercedLiteral(value, to: variableTypes[target])
        if case .integer(let integer)? = variableTypes[target] {
            // A literal takes the variable's type; `x += e` is `x = x + e`, checked against its range.
            guard let typed = typedLiteral(value, integer, at: Syntax(infix.rightOperand)) else { return nil }
            value = typed
            guard checkAssignment(operation, to: target, value, at: Syntax(infix)) else { return nil }
            if operation == .add || operation == .subtract {
                let sum = Expression.typed(.binary(operation == .add ? .add : .subtract, .variable(target), value), integer, conversion: false)
                return Statement(.assign(Assignment(target: target, operation: .set, value: sum)), at: span(of: Syntax(infix)))
            }
            return Statement(.assign(Assignment(target: target, operation: operation, value: value)), at: span(of: Syntax(infix)))
        }
        guard checkAssignment(operation, to: target, value, at: Syntax(infix)) else { return nil }
        return Statement(.assign(Assignment(target: target, operation: operation, value: value)), at: span(of: Syntax(infix)))
    }

    /// A variable named on the left of an assignment or before `.append`.
    mutating func variableReference(_ expr: ExprSyntax) -> VariableID? {
        if let member = actorMember(expr) {
            reportActorAccess(.write, member)
            return nil
        }
        if case .variable(let id)? = binding(of: expr) {
            if let member = expr.as(MemberAccessExprSyntax.self), !mayUseTopLevelInstance(through: member, mutates: true) { return nil }
            return id
        }
        guard let reference = expr.as(DeclReferenceExprSyntax.self) else {
            if let member = expr.as(MemberAccessExprSyntax.self), reportMissingMember(member) { return nil }
            report("only a variable can be assigned here", Syntax(expr))
            return nil
        }
        let name = reference.baseName.text
        report(lookup(name) == nil ? "cannot find '\(name)' in scope" : "'\(name)' is not a variable", Syntax(expr))
        return nil
    }

    /// A variable of the snippet (or one the front end makes, such as a work item's cancelled flag).
    mutating func newVariable(_ name: String, isGlobal: Bool, span: SourceSpan, type: StaticType,
                              constant: Bool = true, synchronized: Bool = false, reflects: ObjectState? = nil) -> VariableID {
        let id = VariableID(index: variables.count)
        variables.append(VariableDecl(name: name, isGlobal: isGlobal, span: span, isSynchronized: synchronized, reflects: reflects))
        variableTypes[id] = type
        if constant { constants.insert(id) }
        return id
    }

    /// `x = v`, `x += v`, `x -= v`, `list.append(v)`: the variable must be a `var`, and the value
    /// of a type the operation takes.
    mutating func checkAssignment(_ operation: Assignment.Operation, to target: VariableID, _ value: Expression, at node: Syntax) -> Bool {
        let name = variables[target.index].name
        if constants.contains(target) {
            report("cannot assign to value: '\(name)' is a 'let' constant", node)
            return false
        }
        guard mayTouchMainActorGlobal(target, mutates: true, at: node) else { return false }
        guard let targetType = variableTypes[target], let valueType = type(of: value) else { return false }
        switch operation {
        case .set:
            guard valueType.fits(targetType) else {
                report("cannot assign value of type '\(valueType)' to type '\(targetType)'", node)
                return false
            }
        case .add, .subtract:
            let symbol = operation == .add ? "+=" : "-="
            let fits = switch (targetType, valueType) {
            case (.int, .int), (.double, .double): true
            case (.integer(let a), .integer(let b)): a == b
            case (.string, .string), (.list, .list): operation == .add && valueType.fits(targetType)
            default: false
            }
            guard fits else {
                report("binary operator '\(symbol)' cannot be applied to operands of type '\(targetType)' and '\(valueType)'", node)
                return false
            }
        case .append:
            guard case .list(let element) = targetType else {
                report("value of type '\(targetType)' has no member 'append'", node)
                return false
            }
            guard let element, valueType.fits(element) else {
                report("cannot convert value of type '\(valueType)' to expected argument type '\(element.map(\.description) ?? "_")'", node)
                return false
            }
        }
        return true
    }

    /// `import Foundation` and `import Dispatch` (as pasted from a playground) change nothing:
    /// the prelude imports both. `import Synchronization` brings `Mutex`, which real code needs
    /// it for (the prelude leaves it out, as the slides do). Other modules are outside the subset.
    private mutating func importModule(_ module: ImportDeclSyntax) {
        let name = module.path.map(\.name.text).joined(separator: ".")
        guard isTopLevel, module.importKindSpecifier == nil, ["Foundation", "Dispatch", "Synchronization"].contains(name) else {
            report("only 'import Foundation', 'import Dispatch' (the prelude imports both) and 'import Synchronization' can stand here; '\(module.sourceText)' is outside the supported subset", Syntax(module))
            return
        }
    }

    // MARK: Problems

    mutating func report(_ message: String, _ node: Syntax) {
        problems.append(makeProblem(message, node))
    }

    mutating func unsupported(_ node: Syntax) {
        report("\(Self.describe(node)) outside the supported subset", node)
    }

    func span(of node: Syntax) -> SourceSpan {
        let location = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SourceSpan(line: location.line, column: location.column)
    }

    /// Names a construct the way a Swift programmer would, for "… is outside the subset".
    static func describe(_ node: Syntax) -> String {
        if let call = node.as(FunctionCallExprSyntax.self) {
            return "calling '\(call.calledExpression.sourceText)' is"
        }
        if node.is(ForStmtSyntax.self) { return "'for' loops are" }
        if node.is(WhileStmtSyntax.self) || node.is(RepeatStmtSyntax.self) { return "loops are" }
        if node.is(GuardStmtSyntax.self) { return "'guard' is" }
        if let expression = node.as(ExpressionStmtSyntax.self) {
            return describe(Syntax(expression.expression))
        }
        if node.is(IfExprSyntax.self) { return "'if' is" }
        if node.is(SwitchExprSyntax.self) { return "'switch' is" }
        if node.is(ReturnStmtSyntax.self) { return "'return' is" }
        if node.is(FunctionDeclSyntax.self) { return "declaring functions is" }
        if node.is(ClassDeclSyntax.self) || node.is(StructDeclSyntax.self) || node.is(EnumDeclSyntax.self)
            || node.is(ExtensionDeclSyntax.self) || node.is(ProtocolDeclSyntax.self)
        {
            return "declaring types is"
        }
        if node.is(ImportDeclSyntax.self) { return "'import' (the prelude already imports Dispatch and Foundation) is" }
        if node.is(InfixOperatorExprSyntax.self) { return "'\(node.sourceText)' is" }
        if node.is(VariableDeclSyntax.self) { return "this declaration is" }
        let text = node.sourceText
        let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "'\(short)' is"
    }

}

extension Program {
    static func mainQueueID(in queues: [QueueDecl]) -> QueueID {
        QueueID(index: queues.firstIndex { $0.kind == .main }!)
    }
}
