/// An error from any part of Parley, identified by a stable ``Code``.
///
/// Every failure Parley reports — malformed JSON, a missing field, a rejected token, a broken
/// voice flow — is a `ParleyError`. Match on ``code`` (stable across releases, identical on
/// client and server), show ``message`` to developers, and use ``path`` to find the offending
/// part of a JSON document:
///
/// ```swift
/// do {
///     let message = try SkillMessage(decoding: #"{"messagePayload":{"type":"text"}}"#)
/// } catch {
///     print(error.code)   // decode.missingField
///     print(error.path)   // $.messagePayload.text
/// }
/// ```
///
/// On the wire the error is the object `{"code": …, "message": …, "path": …}`.
public struct ParleyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable identifier such as `json.malformed`.
    public var code: Code
    /// A sentence for developers saying what went wrong and, where it helps, what was expected.
    public var message: String
    /// Where in a JSON document the problem is, when the error is about one.
    public var path: JSONPath?
    /// The lower-level error that caused this one, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: A sentence for developers.
    ///   - path: Where in a JSON document the problem is.
    ///   - underlying: The lower-level error that caused this one.
    public init(_ code: Code, _ message: String, path: JSONPath? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.underlying = underlying
    }

    /// `error[code] at path: message`.
    public var description: String {
        var text = "error[\(code)]"
        if let path { text += " at \(path)" }
        return text + ": " + message
    }

    /// Two errors are equal when code, message and path are; the underlying error is not compared.
    public static func == (lhs: ParleyError, rhs: ParleyError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.path == rhs.path
    }

    /// Hashes code, message and path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(path)
    }

    /// The error with `components` put in front of its path: used while unwinding nested decoding,
    /// so that the path costs nothing unless decoding fails.
    ///
    /// ```swift
    /// do { value = try Value(json: member) } catch { throw error.within(.key("member")) }
    /// ```
    public func within(_ components: JSONPath.Component...) -> ParleyError {
        within(JSONPath(components))
    }

    /// The error with `prefix` put in front of its path.
    public func within(_ prefix: JSONPath) -> ParleyError {
        var copy = self
        copy.path = JSONPath(prefix.components + (path?.components ?? []))
        return copy
    }
}

extension ParleyError {
    /// A stable error identifier: a dotted lowercase string such as `decode.missingField`.
    ///
    /// Codes are open: a client receives codes from a newer server that it does not know, and
    /// compares them by value. The known codes are listed in `docs/protocol.md`, "Errors".
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        /// The code as it appears on the wire.
        public var rawValue: String
        /// Creates a code from its wire form.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The wire form.
        public var description: String { rawValue }
    }
}

extension ParleyError: JSONConvertible, Codable {
    /// Decodes the wire form `{"code", "message", "path"?}`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        self.init(
            Code(rawValue: try reader.required("code")),
            try reader.required("message"),
            path: try reader.optional("path", as: String.self).flatMap(JSONPath.init(parsing:))
        )
    }

    /// The wire form `{"code", "message", "path"?}`.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("code", code.rawValue)
        builder.set("message", message)
        builder.set("path", path?.description)
        return builder.finish(with: [:])
    }
}
