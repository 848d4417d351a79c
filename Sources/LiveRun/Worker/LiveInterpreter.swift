import DispatchModel
import Foundation

/// Executes one run of a program on real dispatch objects: each IR queue becomes a real
/// `DispatchQueue`, each `sync`/`async` the real call. Nothing about queues is re-implemented
/// here; the interpreter only walks statements and keeps the run's books.
final class LiveInterpreter: @unchecked Sendable {
    let program: Program
    let queues: [DispatchQueue]
    let monitor: RunMonitor
    let output: WorkerOutput
    let jitter: Jitter?

    init(program: Program, monitor: RunMonitor, output: WorkerOutput, jitter: Jitter?) {
        self.program = program
        self.monitor = monitor
        self.output = output
        self.jitter = jitter
        // Fresh queues every run, so that no state leaks from one run into the next.
        queues = program.queues.map(Self.makeQueue)
    }

    static func makeQueue(_ decl: QueueDecl) -> DispatchQueue {
        switch decl.kind {
        case .main:
            return DispatchQueue.main
        case .global:
            return DispatchQueue.global(qos: qosClass(decl.qos))
        case .serial:
            return DispatchQueue(label: decl.label, qos: dispatchQoS(decl.qos))
        case .concurrent:
            return DispatchQueue(label: decl.label, qos: dispatchQoS(decl.qos), attributes: .concurrent)
        }
    }

    static func qosClass(_ name: String?) -> DispatchQoS.QoSClass {
        switch name {
        case "userInteractive": .userInteractive
        case "userInitiated": .userInitiated
        case "utility": .utility
        case "background": .background
        case "unspecified": .unspecified
        default: .default
        }
    }

    static func dispatchQoS(_ name: String?) -> DispatchQoS {
        switch name {
        case "userInteractive": .userInteractive
        case "userInitiated": .userInitiated
        case "utility": .utility
        case "background": .background
        case "default": .default
        default: .unspecified
        }
    }

    /// Runs the top-level code on the calling thread (the main thread). Returns true when the
    /// run is already over (nothing was submitted).
    func runTopLevel() -> Bool {
        execute(program.entry)
        return monitor.workCompleted()
    }

    private func execute(_ block: BlockID) {
        let statements = program[block].statements
        for (index, statement) in statements.enumerated() {
            jitter?.pause(at: UInt64(block.index) << 32 | UInt64(index))
            monitor.progress()
            switch statement.action {
            case .print(let text):
                output.send(.printed(text))
            case .dispatch(let queue, .async, let body):
                monitor.submitted()
                queues[queue.index].async { [self] in
                    monitor.itemStarted()
                    jitter?.pause(at: UInt64(body.index) << 32 | 0xFFFF_FFFF)
                    execute(body)
                    if monitor.workCompleted() {
                        Self.wakeMainThread()
                    }
                }
            case .dispatch(let queue, .sync, let body):
                output.send(.syncing(queue: program[queue].name, line: statement.span.line, column: statement.span.column))
                monitor.blocking(true)
                queues[queue.index].sync { [self] in
                    monitor.blocking(false)
                    execute(body)
                    monitor.blocking(true)
                }
                monitor.blocking(false)
            }
        }
    }

    /// The main thread waits in its run loop for main-queue work; an empty block wakes it to
    /// notice that the run is over.
    static func wakeMainThread() {
        DispatchQueue.main.async {}
    }
}

/// The worker's standard output, shared by every thread: one message, one `write(2)`.
final class WorkerOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let descriptor: Int32

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    func send(_ message: WorkerMessage) {
        let bytes = Array(message.encoded.utf8)
        lock.withLock {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    _exit(3)  // the parent is gone: nobody to report to
                }
                offset += written
            }
        }
    }
}
