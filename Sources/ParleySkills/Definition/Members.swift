/// Reads the members of one object of a skill definition (or of a stored state).
///
/// Errors carry the member's key in their path; callers put the object's own path in front while unwinding
/// (``ParleyError/within(_:)``), so paths cost nothing unless loading fails.
struct Members {
    /// The object being read.
    let object: JSONObject

    /// Starts reading `json`, which must be an object.
    init(_ json: JSONValue) throws(ParleyError) {
        guard case .object(let object) = json else {
            throw ParleyError(.typeMismatch, "expected an object, found \(json.typeName)", path: JSONPath())
        }
        self.object = object
    }

    /// The raw member `key`, unless it is absent or `null`.
    subscript(key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// Decodes the member `key`, which must be present and not `null`.
    func required<Value: JSONConvertible>(_ key: String, as type: Value.Type = Value.self) throws(ParleyError) -> Value
    {
        guard let value = self[key] else {
            throw ParleyError(
                .missingField, "missing required field \(JSONValue.string(key))", path: JSONPath([.key(key)]))
        }
        return try decode(value, key)
    }

    /// Decodes the member `key` if it is present and not `null`.
    func optional<Value: JSONConvertible>(_ key: String, as type: Value.Type = Value.self) throws(ParleyError) -> Value?
    {
        guard let value = self[key] else { return nil }
        return try decode(value, key)
    }

    /// Fails with ``ParleyError/Code/skillUnknownKey`` at the first key not in `known`.
    func rejectUnknownKeys(_ known: [String], in what: String) throws(ParleyError) {
        for key in object.keys where !known.contains(key) {
            throw ParleyError(
                .skillUnknownKey,
                "\(what) has no member \(JSONValue.string(key)); known members: \(known.joined(separator: ", "))",
                path: JSONPath([.key(key)]))
        }
    }

    private func decode<Value: JSONConvertible>(_ value: JSONValue, _ key: String) throws(ParleyError) -> Value {
        do {
            return try Value(json: value)
        } catch {
            throw error.within(.key(key))
        }
    }
}
