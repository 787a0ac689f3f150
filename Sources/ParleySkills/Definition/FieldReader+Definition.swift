/// What a skill definition reads on top of ``FieldReader``: its unknown keys are errors, not kept, and a `null`
/// member counts as absent everywhere (a required one is missing, not mistyped).
extension FieldReader {
    /// The member `key`, unless it is absent or `null`.
    func member(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// Decodes the member `key`, which must be present and not `null`.
    /// - Throws: ``ParleyError/Code/missingField`` when it is absent or `null`, or the member's decoding error.
    mutating func requiredNotNull<Value: JSONConvertible>(_ key: String, as type: Value.Type = Value.self)
        throws(ParleyError) -> Value
    {
        guard let value: Value = try optional(key) else {
            throw ParleyError(
                .missingField, "missing required field \(JSONValue.string(key))", path: JSONPath([.key(key)]))
        }
        return value
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
}
