/// A location inside a JSON document, written `$.messagePayload.actions[0].label`.
///
/// Keys that are not plain identifiers are written in brackets: `$["system.state"]`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step into a JSON document.
    public enum Component: Hashable, Sendable {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
    }

    /// The steps from the document root, outermost first.
    public var components: [Component]

    /// Creates a path from its steps.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The path as text, starting with `$` for the root.
    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                text += "." + key
            case .key(let key):
                text += "[" + JSONValue.string(key).jsonString() + "]"
            }
        }
        return text
    }

    /// Parses the text form produced by ``description``; returns nil for anything else.
    public init?(parsing text: String) {
        guard text.first == "$" else { return nil }
        var components: [Component] = []
        var rest = Substring(text.dropFirst())
        while let first = rest.first {
            if first == "." {
                let key = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                guard !key.isEmpty else { return nil }
                components.append(.key(String(key)))
                rest = rest.dropFirst(key.count + 1)
            } else if first == "[" {
                if rest.dropFirst().first == "\"" {
                    // A quoted key: parse the JSON string literal that follows.
                    guard let (key, length) = Self.quotedKey(rest.dropFirst()) else { return nil }
                    components.append(.key(key))
                    rest = rest.dropFirst(length + 1)
                } else {
                    let digits = rest.dropFirst().prefix { $0.isNumber }
                    guard let index = Int(digits) else { return nil }
                    components.append(.index(index))
                    rest = rest.dropFirst(digits.count + 1)
                }
                guard rest.first == "]" else { return nil }
                rest = rest.dropFirst()
            } else {
                return nil
            }
        }
        self.components = components
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    /// Reads a JSON string literal at the start of `text`; returns the key and the literal's length in characters.
    private static func quotedKey(_ text: Substring) -> (String, Int)? {
        var escaped = false
        var length = 1
        for character in text.dropFirst() {
            length += 1
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                guard case .string(let key)? = try? JSONValue(parsing: String(text.prefix(length))) else { return nil }
                return (key, length)
            }
        }
        return nil
    }
}
