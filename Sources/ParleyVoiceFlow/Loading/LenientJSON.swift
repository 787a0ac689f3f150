public import ParleyCore

/// The JSON dialect of voice-flow files: standard JSON plus trailing commas, as in every published sample.
///
/// ```swift
/// let value = try LenientJSON.parse(#"[{"id": "VF_START",},]"#)
/// ```
public enum LenientJSON {
    /// Parses `text`, accepting one trailing comma before each `]` or `}`.
    ///
    /// Other leniencies (comments, `[1,,2]`, missing commas) stay errors. Line and column numbers in error
    /// messages are those of the original text: each trailing comma is replaced by a space, not removed.
    /// - Throws: ``ParleyError`` with a `json.*` code.
    public static func parse(_ text: String) throws(ParleyError) -> JSONValue {
        try JSONValue(parsing: removingTrailingCommas(text))
    }

    /// `text` with every comma that is followed (after whitespace) by `]` or `}` replaced by a space. Commas
    /// inside strings are kept.
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
