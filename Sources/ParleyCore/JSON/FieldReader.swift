/// Reads the known members of a JSON object into typed fields and keeps the rest: the tool every
/// ``JSONConvertible`` type of Parley is written with, and yours can be too.
///
/// ```swift
/// init(json: JSONValue) throws(ParleyError) {
///     var reader = try FieldReader(json)
///     text = try reader.required("text")
///     headerText = try reader.optional("headerText")
///     extra = reader.rest
/// }
/// ```
///
/// A member that is not read — unknown, or `null` where the field is optional — stays in ``rest``,
/// which a type writes back after its known fields (so decode → encode keeps it), or rejects.
/// Errors carry the member's key in their path.
public struct FieldReader {
    /// The whole object being read.
    public let object: JSONObject
    private var consumedLow: UInt64 = 0
    private var consumedHigh: Set<Int> = []
    private var cursor = 0
    /// The members' keys' `keyLengthBit`s: most absent keys are told apart without a scan.
    private let keyBits: UInt64

    /// Starts reading `json`, which must be an object.
    /// - Throws: ``ParleyError/Code/typeMismatch`` when it is not.
    public init(_ json: JSONValue) throws(ParleyError) {
        guard case .object(let object) = json else { throw .typeMismatch(expected: "an object", found: json) }
        self.object = object
        keyBits = object.members.withUnsafeBufferPointer { members in
            members.reduce(0) { $0 | $1.key.keyLengthBit }
        }
    }

    /// Decodes the member `key`, which must be present and not `null`.
    /// - Throws: ``ParleyError/Code/missingField`` when it is absent, or the member's decoding error.
    public mutating func required<Value: JSONConvertible>(_ key: String, as type: Value.Type = Value.self)
        throws(ParleyError) -> Value
    {
        guard let position = take(key) else {
            throw ParleyError(
                .missingField, "missing required field \(JSONValue.string(key))", path: JSONPath([.key(key)]))
        }
        return try decode(Value.self, at: position)
    }

    /// Decodes the member `key` if it is present and not `null`.
    /// - Throws: The member's decoding error.
    public mutating func optional<Value: JSONConvertible>(_ key: String, as type: Value.Type = Value.self)
        throws(ParleyError) -> Value?
    {
        guard let position = find(key) else { return nil }
        if isNull(at: position) { return nil }
        consume(position)
        return try decode(Value.self, at: position)
    }

    /// Decodes the member `key`, or gives `defaultValue` when it is absent or `null`. Unlike
    /// ``optional(_:as:)``, a `null` member counts as read: use this for fields that are always written.
    /// - Throws: The member's decoding error.
    public mutating func optional<Value: JSONConvertible>(_ key: String, default defaultValue: Value)
        throws(ParleyError) -> Value
    {
        guard let position = find(key) else { return defaultValue }
        consume(position)
        if isNull(at: position) { return defaultValue }
        return try decode(Value.self, at: position)
    }

    /// The members that were not read, in their original order.
    public var rest: JSONObject {
        guard consumedLow != 0 || !consumedHigh.isEmpty else { return object }
        var rest = JSONObject()
        for position in object.indices where !isConsumed(position) {
            rest.append(object[position].key, object[position].value)
        }
        return rest
    }

    private mutating func take(_ key: String) -> Int? {
        guard let position = find(key) else { return nil }
        consume(position)
        return position
    }

    private func decode<Value: JSONConvertible>(_ type: Value.Type, at position: Int) throws(ParleyError) -> Value {
        let member = object[position]
        do {
            return try Value(json: member.value)
        } catch {
            throw error.within(.key(member.key))
        }
    }

    /// Whether the member at `position` is `null`, read over the storage without copying the member.
    private func isNull(at position: Int) -> Bool {
        object.members.withUnsafeBufferPointer { $0[position].value.isNull }
    }

    /// Finds `key`, scanning from just after the previous find: fields are usually read in wire order.
    private mutating func find(_ key: String) -> Int? {
        let count = object.count
        guard count > 0, keyBits & key.keyLengthBit != 0 else { return nil }
        let start = cursor < count ? cursor : 0
        // Over the member array's storage: reading `object[position]` would copy (retain and release) each value.
        let found = object.members.withUnsafeBufferPointer { members -> Int? in
            var position = start
            for _ in 0..<count {
                if members[position].key.isSameKey(key) { return position }
                position += 1
                if position == count { position = 0 }
            }
            return nil
        }
        if let found { cursor = found + 1 }
        return found
    }

    private mutating func consume(_ position: Int) {
        if position < 64 { consumedLow |= 1 << UInt64(position) } else { consumedHigh.insert(position) }
    }

    private func isConsumed(_ position: Int) -> Bool {
        position < 64 ? consumedLow & (1 << UInt64(position)) != 0 : consumedHigh.contains(position)
    }
}

/// Builds a JSON object from typed fields: known fields first, then the unknown ones kept at decoding. The
/// writing half of ``FieldReader``.
///
/// ```swift
/// var jsonValue: JSONValue {
///     var builder = ObjectBuilder()
///     builder.set("text", text)
///     builder.set("headerText", headerText)   // left out when nil
///     return builder.finish(with: extra)
/// }
/// ```
public struct ObjectBuilder {
    /// The members so far.
    public private(set) var object = JSONObject()

    /// Starts an object with room for `capacity` members.
    public init(capacity: Int = 4) {
        object.reserveCapacity(capacity)
    }

    /// Appends `key` with `value`.
    public mutating func set(_ key: String, _ value: some JSONConvertible) {
        object.append(key, value.jsonValue)
    }

    /// Appends `key` with `value` unless it is nil.
    public mutating func set(_ key: String, _ value: (some JSONConvertible)?) {
        if let value { object.append(key, value.jsonValue) }
    }

    /// Appends the unknown members and returns the object.
    public consuming func finish(with extra: JSONObject = [:]) -> JSONValue {
        object.append(contentsOf: extra)
        return .object(object)
    }
}
