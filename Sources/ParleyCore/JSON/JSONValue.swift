/// Any JSON value: the free-form parts of the protocol (postbacks, raw payloads, channel
/// extensions, unknown keys) and the first stage of every typed decode.
///
/// ```swift
/// let postback: JSONValue = ["state": "askSize", "variables": ["pizza": "Small"]]
/// postback["variables"]?["pizza"]?.stringValue   // "Small"
/// ```
///
/// Numbers are 64-bit floating point, as in JavaScript, the language of the Oracle web client:
/// integers are exact up to 2^53. Objects keep their key order (see ``JSONObject``).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object(JSONObject)

    /// How deeply arrays and objects may nest before parsing fails with ``ParleyError/Code/nestingTooDeep``.
    public static let maximumDepth = 512
}

extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is a number.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number, if this is a number with no fractional part that fits an `Int`.
    public var intValue: Int? {
        if case .number(let value) = self, let exact = Int(exactly: value) { return exact }
        return nil
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, if this is an array long enough.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The JSON type's name, for error messages: `null`, `boolean`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A whole number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member($0.0, $0.1) }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON.
    public var description: String { jsonString() }
}

extension JSONValue: Codable {
    /// Decodes any JSON value through a `Decoder` (for example inside an app's own `Codable` types).
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var object = JSONObject()
            for key in container.allKeys {
                object.append(key.stringValue, try container.decode(JSONValue.self, forKey: key))
            }
            self = .object(object)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value through an `Encoder`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            if let exact = Int64(exactly: value) { try single.encode(exact) } else { try single.encode(value) }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyKey.self)
            for member in object { try container.encode(member.value, forKey: AnyKey(member.key)) }
        }
    }
}

/// A coding key for any string.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
