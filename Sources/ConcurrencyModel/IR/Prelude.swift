/// The code a Playground-like host puts in front of every snippet (DESIGN.md, "Snippets and the
/// prelude"). The front end knows its queues; the verifier compiles it in front of the snippet.
public enum Prelude {
    public static let source = """
        import Dispatch
        import Foundation
        let serialQueue = DispatchQueue(label: "serialQueue")
        let concurrentQueue = DispatchQueue(label: "concurrentQueue", attributes: .concurrent)

        """

    /// The queues every snippet starts with, in `QueueID` order.
    public static let queues: [QueueDecl] = [
        QueueDecl(name: "DispatchQueue.main", label: "com.apple.main-thread", kind: .main),
        QueueDecl(name: "serialQueue", label: "serialQueue", kind: .serial),
        QueueDecl(name: "concurrentQueue", label: "concurrentQueue", kind: .concurrent),
    ]
}
