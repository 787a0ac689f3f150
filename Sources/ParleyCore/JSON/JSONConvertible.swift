/// A type with a JSON form: every message, payload, action and field in Parley's wire model.
///
/// Decoding goes bytes → ``JSONValue`` (one pass of a fast parser) → typed value (one pass over
/// the tree); encoding goes the other way. Unknown keys are kept by each type and written back,
/// so decode → encode gives JSON equal to the input.
///
/// ```swift
/// let message = try SkillMessage(decoding: data)
/// let bytes = message.jsonBytes()
/// ```
///
/// Model types are also `Codable` through this conversion, for use inside an app's own `Codable` types.
public protocol JSONConvertible: Sendable {
    /// Creates the value from its JSON form.
    /// - Throws: ``ParleyError`` with the path of the offending part, relative to `json`.
    init(json: JSONValue) throws(ParleyError)
    /// The value's JSON form.
    var jsonValue: JSONValue { get }
}

extension JSONConvertible {
    /// Decodes the value from UTF-8 JSON bytes, such as `Data` or `[UInt8]`.
    /// - Throws: ``ParleyError`` with a `json.*` or `decode.*` code and the path of the problem.
    public init(decoding bytes: some Collection<UInt8>) throws(ParleyError) {
        try self.init(json: JSONValue(parsing: bytes))
    }

    /// Decodes the value from JSON text.
    /// - Throws: ``ParleyError`` with a `json.*` or `decode.*` code and the path of the problem.
    public init(decoding text: String) throws(ParleyError) {
        try self.init(json: JSONValue(parsing: text))
    }

    /// The value as UTF-8 JSON bytes; see ``JSONValue/jsonBytes(pretty:)``.
    public func jsonBytes(pretty: Bool = false) -> [UInt8] {
        jsonValue.jsonBytes(pretty: pretty)
    }

    /// The value as JSON text; see ``JSONValue/jsonBytes(pretty:)``.
    public func jsonString(pretty: Bool = false) -> String {
        jsonValue.jsonString(pretty: pretty)
    }
}

extension JSONConvertible where Self: Codable {
    /// Decodes through ``init(json:)``; a failure is the ``ParleyError``, its path prefixed with the coding path.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            try self.init(json: json)
        } catch {
            throw error.within(
                JSONPath(
                    decoder.codingPath.map { key in key.intValue.map(JSONPath.Component.index) ?? .key(key.stringValue)
                    }))
        }
    }

    /// Encodes ``jsonValue``.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

extension ParleyError {
    /// `expected a string, found a number`, for a value of the wrong JSON type.
    static func typeMismatch(expected: String, found value: JSONValue) -> ParleyError {
        ParleyError(.typeMismatch, "expected \(expected), found \(value.typeName)", path: JSONPath())
    }
}

// MARK: - Standard types

extension JSONValue: JSONConvertible {
    /// Any JSON value is accepted as is.
    public init(json: JSONValue) { self = json }
    /// The value itself.
    public var jsonValue: JSONValue { self }
}

extension JSONObject: JSONConvertible {
    /// Accepts a JSON object.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .object(let object) = json else { throw .typeMismatch(expected: "an object", found: json) }
        self = object
    }
    /// The object as a ``JSONValue``.
    public var jsonValue: JSONValue { .object(self) }
}

extension String: JSONConvertible {
    /// Accepts a JSON string.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .string(let text) = json else { throw .typeMismatch(expected: "a string", found: json) }
        self = text
    }
    /// The string as a ``JSONValue``.
    public var jsonValue: JSONValue { .string(self) }
}

extension Bool: JSONConvertible {
    /// Accepts `true` or `false`.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .bool(let flag) = json else { throw .typeMismatch(expected: "a boolean", found: json) }
        self = flag
    }
    /// The Boolean as a ``JSONValue``.
    public var jsonValue: JSONValue { .bool(self) }
}

extension Double: JSONConvertible {
    /// Accepts a JSON number.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .number(let number) = json else { throw .typeMismatch(expected: "a number", found: json) }
        self = number
    }
    /// The number as a ``JSONValue``.
    public var jsonValue: JSONValue { .number(self) }
}

extension Int: JSONConvertible {
    /// Accepts a JSON number without a fractional part.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .number(let number) = json else { throw .typeMismatch(expected: "an integer", found: json) }
        guard let whole = Int(exactly: number) else {
            throw ParleyError(.invalidValue, "expected an integer, found \(JSONValue.number(number))", path: JSONPath())
        }
        self = whole
    }
    /// The integer as a ``JSONValue``.
    public var jsonValue: JSONValue { .number(Double(self)) }
}

extension Array: JSONConvertible where Element: JSONConvertible {
    /// Accepts a JSON array whose elements all decode as `Element`.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .array(let elements) = json else { throw .typeMismatch(expected: "an array", found: json) }
        var decoded: [Element] = []
        decoded.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            do {
                decoded.append(try Element(json: element))
            } catch {
                throw error.within(.index(position))
            }
        }
        self = decoded
    }
    /// The elements as a JSON array.
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}
