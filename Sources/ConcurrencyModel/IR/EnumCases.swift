/// A case of a plain enum the snippet declares (`enum Phase { case idle, running, done }`): a
/// value compared with `==`, held in variables and properties, and printed as Swift prints it.
public struct EnumCase: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The enum's name (`Phase`).
    public var type: String
    /// The case's name (`idle`).
    public var name: String

    public init(type: String, name: String) {
        self.type = type
        self.name = name
    }

    /// What `print` and interpolation show: the case's name alone (swiftc 6.3: `print(Phase.idle)`
    /// prints `idle`, with or without a raw type). Inside an array, an optional or `debugPrint`,
    /// Swift shows `Module.Phase.idle`, whose module name depends on how the snippet is compiled:
    /// the front end refuses those.
    public var description: String { name }
}
