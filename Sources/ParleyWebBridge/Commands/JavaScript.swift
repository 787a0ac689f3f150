/// Builds JavaScript source from values without ever pasting a string into code.
///
/// Every value becomes a JSON literal, which is also a JavaScript expression with the same value. On top
/// of JSON's escaping, the literal escapes what could end or confuse an inline `<script>` element or an
/// old JavaScript engine: `</` becomes `<\/` (so `</script>` cannot close the element), `<!--` becomes
/// `\u003C!--`, and the line separators U+2028 and U+2029 (legal in JSON strings, line breaks in
/// JavaScript before ES2019) become `\u2028` and `\u2029`. Outside strings JSON has none of these
/// characters, so only string contents change, and their values stay the same.
///
/// ```swift
/// JavaScript.literal("Hi </script>\u{2028}")   // "Hi <\/script>\u2028" (with the quotes)
/// ```
public enum JavaScript {
    /// `value` as a JavaScript expression that evaluates to an equal value.
    public static func literal(_ value: JSONValue) -> String {
        escapeForScript(value.jsonString())
    }

    /// `string` as a JavaScript string literal.
    public static func literal(_ string: String) -> String {
        literal(.string(string))
    }

    /// A script that stores `configuration` as `window.parleyConfig`, which Parley's widget reads when it
    /// starts: inject it at document start (a `WKUserScript`) to configure the page without a query string.
    ///
    /// ```swift
    /// JavaScript.configurationScript(["channelId": "demo", "showConnectionStatus": true])
    /// // window.parleyConfig = {"channelId":"demo","showConnectionStatus":true};
    /// ```
    public static func configurationScript(_ configuration: JSONValue) -> String {
        "window.parleyConfig = \(literal(configuration));"
    }

    /// Escapes a JSON text for use inside a script (see the type's discussion). Works on Unicode scalars, so
    /// that a combining mark after `/` cannot hide a `</` from it.
    static func escapeForScript(_ json: String) -> String {
        let scalars = Array(json.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "<" where index + 1 < scalars.count && scalars[index + 1] == "/":
                result.append(contentsOf: #"<\/"#.unicodeScalars)
                index += 2
                continue
            case "<"
            where index + 3 < scalars.count && scalars[index + 1] == "!" && scalars[index + 2] == "-"
                && scalars[index + 3] == "-":
                result.append(contentsOf: #"\u003C!--"#.unicodeScalars)
                index += 4
                continue
            case "\u{2028}": result.append(contentsOf: #"\u2028"#.unicodeScalars)
            case "\u{2029}": result.append(contentsOf: #"\u2029"#.unicodeScalars)
            default: result.append(scalar)
            }
            index += 1
        }
        return String(result)
    }
}
