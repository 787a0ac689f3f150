import Foundation

/// The cookies one server set, sent back on every later request: CometD servers tie a session to its
/// `BAYEUX_BROWSER` cookie, and load balancers in front of GMS use sticky-session cookies.
///
/// Deliberately small: name and value only, one host; `Max-Age=0` or an `Expires` in the past deletes.
public struct CookieJar: Sendable, Hashable {
    /// The cookies, by name, in the order they were first set.
    public private(set) var cookies: [(name: String, value: String)] {
        get { names.compactMap { name in values[name].map { (name, $0) } } }
        set {
            names = newValue.map(\.name)
            values = Dictionary(newValue.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        }
    }
    private var names: [String] = []
    private var values: [String: String] = [:]

    /// An empty jar.
    public init() {}

    /// Takes the `Set-Cookie` fields of `response`.
    public mutating func store(from response: WebResponse) {
        for field in response.values(of: "Set-Cookie") { store(setCookie: field) }
    }

    /// Takes one `Set-Cookie` field value.
    public mutating func store(setCookie field: String) {
        let attributes = field.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = attributes.first, let equals = first.firstIndex(of: "=") else { return }
        let name = String(first[..<equals])
        let value = String(first[first.index(after: equals)...])
        guard !name.isEmpty else { return }
        let deletes = attributes.dropFirst().contains { attribute in
            let lower = attribute.lowercased()
            return lower == "max-age=0" || lower.hasPrefix("max-age=-") || lower.hasPrefix("expires=thu, 01 jan 1970")
        }
        if deletes {
            names.removeAll { $0 == name }
            values[name] = nil
        } else {
            if values[name] == nil { names.append(name) }
            values[name] = value
        }
    }

    /// The `Cookie` header value, or `nil` when the jar is empty.
    public var header: String? {
        names.isEmpty ? nil : cookies.map { "\($0)=\($1)" }.joined(separator: "; ")
    }

    /// Equal when they hold the same cookies in the same order.
    public static func == (lhs: CookieJar, rhs: CookieJar) -> Bool {
        lhs.names == rhs.names && lhs.values == rhs.values
    }
    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(values)
    }

    /// Splits a `Set-Cookie` value that Foundation joined with `, ` (an `Expires` date also holds `, `).
    static func splitJoinedSetCookie(_ joined: String) -> [String] {
        var parts: [String] = []
        var current = ""
        for piece in joined.components(separatedBy: ", ") {
            // A piece that starts a new cookie looks like `name=value`, with no space before the `=`.
            if !current.isEmpty, let equals = piece.firstIndex(of: "="), !piece[..<equals].contains(" "),
                !piece[..<equals].contains(";")
            {
                parts.append(current)
                current = piece
            } else {
                current = current.isEmpty ? piece : current + ", " + piece
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
