extension JSONValue {
    /// Parses JSON that may have a trailing comma before `]` or `}`.
    /// - Throws: ``ParleyError`` with a `json.*` code.
    @available(*, deprecated, renamed: "init(parsingLeniently:)")
    public init(parsingAllowingTrailingCommas text: String) throws(ParleyError) {
        try self.init(parsingLeniently: text)
    }

    /// `text` with every comma that is followed (after whitespace) by `]` or `}` replaced by a space; commas
    /// inside strings are kept.
    @available(*, deprecated, message: "parse with JSONValue(parsingLeniently:), which accepts trailing commas")
    public static func removingTrailingCommas(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var inString = false
        var escaped = false
        var pendingComma: Int?
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                pendingComma = nil
            case UInt8(ascii: ","):
                pendingComma = index
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma = pendingComma { bytes[comma] = UInt8(ascii: " ") }
                pendingComma = nil
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            default:
                pendingComma = nil
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
