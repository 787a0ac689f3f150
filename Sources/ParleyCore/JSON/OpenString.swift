/// A string-valued wire enumeration that stays open: any string decodes, known values are `static let`s.
///
/// A newer server may send a layout, status or source that this version does not know; it
/// decodes as is and encodes back unchanged.
///
/// ```swift
/// public struct CardLayout: OpenString {
///     public let rawValue: String
///     public init(rawValue: String) { self.rawValue = rawValue }
///     public static let horizontal: Self = "horizontal"
/// }
/// ```
public protocol OpenString: RawRepresentable<String>, JSONConvertible, Codable, Hashable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// Creates the value from its wire form.
    init(rawValue: String)
}

extension OpenString {
    /// Creates the value from a string literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The wire form.
    public var description: String { rawValue }
    /// Accepts any JSON string.
    public init(json: JSONValue) throws(ParleyError) { self.init(rawValue: try String(json: json)) }
    /// The wire form as a JSON string.
    public var jsonValue: JSONValue { .string(rawValue) }
    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { self.init(rawValue: try String(from: decoder)) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}
