/// Reads the text form of Apple's `Localizable.strings` tables: `"key" = "value";` entries with `/* … */` and `//`
/// comments, and the escapes `\"`, `\\`, `\n`, `\t`, `\r` and `\UXXXX` / `\uXXXX`.
///
/// ParleyUI reads its own tables with it (they are copied into the bundle as they are, not compiled), and an app
/// can load its translations with ``StringOverrides/load(stringsFile:locale:)``.
public enum StringsFile {
    /// The entries of a `.strings` text, by key.
    /// - Throws: ``ParleyError/Code/stringsFileInvalid`` with the line of the first problem.
    public static func parse(_ text: String) throws(ParleyError) -> [String: String] {
        var parser = Parser(characters: Array(text.unicodeScalars))
        return try parser.entries()
    }

    private struct Parser {
        let characters: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(characters: [Unicode.Scalar]) {
            self.characters = characters
        }

        mutating func entries() throws(ParleyError) -> [String: String] {
            var entries: [String: String] = [:]
            while true {
                try skipSpaceAndComments()
                guard index < characters.count else { return entries }
                let key = try string()
                try skipSpaceAndComments()
                try expect("=")
                try skipSpaceAndComments()
                let value = try string()
                try skipSpaceAndComments()
                try expect(";")
                entries[key] = value
            }
        }

        private func fail(_ message: String) -> ParleyError {
            ParleyError(.stringsFileInvalid, "line \(line): \(message)")
        }

        private mutating func advance() {
            if characters[index] == "\n" { line += 1 }
            index += 1
        }

        private mutating func expect(_ character: Unicode.Scalar) throws(ParleyError) {
            guard index < characters.count, characters[index] == character else {
                throw fail("expected \"\(character)\"")
            }
            advance()
        }

        private mutating func skipSpaceAndComments() throws(ParleyError) {
            while index < characters.count {
                let character = characters[index]
                if character.properties.isWhitespace {
                    advance()
                } else if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                    index += 2
                    while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") {
                        advance()
                    }
                    guard index + 1 < characters.count else { throw fail("a comment is not closed") }
                    index += 2
                } else if character == "/", index + 1 < characters.count, characters[index + 1] == "/" {
                    while index < characters.count, characters[index] != "\n" { advance() }
                } else {
                    return
                }
            }
        }

        private mutating func string() throws(ParleyError) -> String {
            try expect("\"")
            var result = String.UnicodeScalarView()
            while index < characters.count {
                let character = characters[index]
                advance()
                switch character {
                case "\"":
                    return String(result)
                case "\\":
                    guard index < characters.count else { throw fail("a string ends in an escape") }
                    let escaped = characters[index]
                    advance()
                    switch escaped {
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    case "r": result.append("\r")
                    case "u", "U":
                        let end = index + 4
                        guard end <= characters.count,
                            let code = UInt32(String(String.UnicodeScalarView(characters[index..<end])), radix: 16),
                            let scalar = Unicode.Scalar(code)
                        else { throw fail("\\u needs four hexadecimal digits") }
                        index = end
                        result.append(scalar)
                    default: result.append(escaped)
                    }
                default:
                    result.append(character)
                }
            }
            throw fail("a string is not closed")
        }
    }
}
