import SwiftSyntax

/// `[1: "a", 2: "b"]`: a non-empty dictionary literal, as a value (`let d = [1: "a"]`) or an
/// actor's property's start. Its keys are constants of one type, Int or String, and distinct
/// (Swift traps at a duplicate key, "Dictionary literal contains duplicate keys": refused here);
/// its values are of one type. The empty `[:]` is the declarations' (it needs a written type).
extension Lowering {
    mutating func lowerDictionaryLiteral(_ literal: DictionaryExprSyntax) -> Expression? {
        guard case .elements(let elements) = literal.content else {
            report("empty collection literal requires an explicit type: write 'var d: [Int: Int] = [:]'", Syntax(literal))
            return nil
        }
        var keys: [Expression] = [], values: [Expression] = []
        var seen: Set<Value> = []
        for element in elements {
            guard let key = lowerExpression(element.key), let value = lowerExpression(element.value) else { return nil }
            guard let keyType = type(of: key), keyType == .int || keyType == .string else {
                report("a dictionary's keys are Int or String here", Syntax(element.key))
                return nil
            }
            guard let constant = key.constantValue else {
                report("a dictionary literal's keys are constants here (Swift traps at a duplicate key, known only when it runs)", Syntax(element.key))
                return nil
            }
            guard seen.insert(constant).inserted else {
                report("dictionary literal contains the key \(constant.debugText) twice (Swift traps: 'Dictionary literal contains duplicate keys')", Syntax(element.key))
                return nil
            }
            if let firstKey = keys.first, let firstValue = values.first {
                guard type(of: firstKey) == keyType, let valueType = type(of: value), let expected = type(of: firstValue), valueType.fits(expected) else {
                    report("heterogeneous collection literal: a dictionary's keys are of one type, and its values (Swift would need '[AnyHashable: Any]', outside the supported subset)", Syntax(element))
                    return nil
                }
            }
            keys.append(key)
            values.append(value)
        }
        return .dictionary(keys: keys, values: values)
    }
}
