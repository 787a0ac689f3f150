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
        try JSONValue(parsingAllowingTrailingCommas: text)
    }

    /// `text` with every comma that is followed (after whitespace) by `]` or `}` replaced by a space. Commas
    /// inside strings are kept.
    public static func removingTrailingCommas(_ text: String) -> String {
        JSONValue.removingTrailingCommas(text)
    }
}
