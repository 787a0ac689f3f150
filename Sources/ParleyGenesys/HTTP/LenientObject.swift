import Foundation

/// Reads object members whatever their spelling: `_dialog_id`, `_dialogId` and `dialogId` are one key.
/// GMS documentation uses snake case where the public Android sample uses camel case.
struct LenientObject: Sendable {
    let object: JSONObject
    private let index: [String: JSONValue]

    init(_ object: JSONObject) {
        self.object = object
        var index: [String: JSONValue] = [:]
        for member in object where index[Self.normalize(member.key)] == nil {
            index[Self.normalize(member.key)] = member.value
        }
        self.index = index
    }

    init?(_ value: JSONValue?) {
        guard let object = value?.objectValue else { return nil }
        self.init(object)
    }

    static func normalize(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    subscript(_ key: String) -> JSONValue? { index[Self.normalize(key)] }

    /// A string member; a number or Boolean is given as its JSON text.
    func string(_ key: String) -> String? {
        switch self[key] {
        case .string(let text): text
        case .number(let number): Int(exactly: number).map(String.init) ?? String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    /// An integer member, from a number or a numeric string.
    func int(_ key: String) -> Int? { Self.int(self[key]) }

    /// An integer from a number or a numeric string.
    static func int(_ value: JSONValue?) -> Int? {
        switch value {
        case .number(let number): Int(exactly: number)
        case .string(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// A number member, from a number or a numeric string.
    func double(_ key: String) -> Double? {
        switch self[key] {
        case .number(let number): number
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }
}
