/// Strings that break naive JavaScript or HTML building: quotes, backslashes, line breaks, `</script>`,
/// the JavaScript line separators, template and comment syntax, non-ASCII.
enum HostileStrings {
    static let all: [String] = [
        #"He said "hi" and 'bye'"#,
        #"back\slash \\ and \u0041 and \n written out"#,
        "line one\nline two\r\nline three\ttab",
        "</script><script>window.__pwned = 1</script>",
        "</SCRIPT ><!-- <script>window.__pwned = 1</script> -->",
        "\u{2028}line separator\u{2029}paragraph separator",
        #""); window.__pwned = 1; (""#,
        "'); window.__pwned = 1; ('",
        "${window.__pwned = 1}` backtick",
        #"<img src=x onerror="window.__pwned = 1">"#,
        "pizza 🍕, e\u{301}, \u{0} and \u{7F}",
    ]
}
