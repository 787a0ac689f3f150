import Foundation
public import ParleyCore

/// The runtime-field store shared by a flow and its application: `$[Name]` in a flow reads a field, `process`
/// modules write fields, the application sets, gets and resets them.
///
/// Values are JSON values (strings, numbers, booleans). Names are the text between `$[` and `]`.
public struct RuntimeFields: Sendable, Hashable {
    /// The fields by name.
    public private(set) var values: [String: JSONValue] = [:]

    /// An empty store.
    public init(_ values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// The value of `name`.
    public subscript(name: String) -> JSONValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// Removes `name`; returns whether it was set.
    @discardableResult
    public mutating func reset(_ name: String) -> Bool {
        values.removeValue(forKey: name) != nil
    }

    /// The field name of a whole-value reference `$[Name]`, or `nil` when `text` is not exactly one reference.
    public static func reference(in text: String) -> String? {
        // On UTF-8 code units: the engine asks this at every transition.
        let bytes = text.utf8
        guard bytes.count > 3, bytes.first == UInt8(ascii: "$"), bytes.last == UInt8(ascii: "]"),
            bytes[bytes.index(after: bytes.startIndex)] == UInt8(ascii: "[")
        else { return nil }
        let name = bytes.dropFirst(2).dropLast()
        guard !name.contains(UInt8(ascii: "]")), !Self.containsFieldStart(name) else { return nil }
        return String(Substring(name))
    }

    /// Resolves a string: a whole-value reference gives the field's value as text (`nil` when unset); other text
    /// has each `$[Name]` replaced by its value (an unset field by nothing). `$$[` writes a literal `$[`.
    public func resolve(_ text: String) -> String? {
        // Most text (module ids, literal values) has no reference at all: one scan says so.
        guard Self.containsFieldStart(Substring(text).utf8) else { return text }
        if let name = Self.reference(in: text) {
            return values[name].map(Self.text(of:))
        }
        var output = ""
        var rest = text[...]
        while let start = rest.range(of: "$[") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                output += rest[..<rest.index(before: start.lowerBound)]
                output += "$["
                rest = rest[start.upperBound...]
                continue
            }
            guard let end = rest[start.upperBound...].firstIndex(of: "]") else { break }
            output += rest[..<start.lowerBound]
            output += values[String(rest[start.upperBound..<end])].map(Self.text(of:)) ?? ""
            rest = rest[rest.index(after: end)...]
        }
        return output + rest
    }

    /// Resolves a JSON value: strings as in ``resolve(_:)``, other values unchanged.
    public func resolve(_ value: JSONValue) -> JSONValue? {
        if case .string(let text) = value {
            if let name = Self.reference(in: text) { return values[name] }
            return resolve(text).map(JSONValue.string)
        }
        return value
    }

    /// Whether `text` holds no `$[` (so no `$[field]` reference): ``resolve(_:)-(String)`` returns it unchanged.
    static func isLiteral(_ text: String) -> Bool {
        !containsFieldStart(Substring(text).utf8)
    }

    /// Whether `bytes` contain `$[`.
    private static func containsFieldStart(_ bytes: Substring.UTF8View) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "["), previous == UInt8(ascii: "$") { return true }
            previous = byte
        }
        return false
    }

    /// A value as text: strings as they are, integers without a fraction, booleans as `true`/`false`.
    public static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if let integer = Int64(exactly: number), integer.magnitude < 1_000_000_000_000_000 {
                return String(integer)
            }
            return String(number)
        case .null: return ""
        default: return value.description
        }
    }
}
