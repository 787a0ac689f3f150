extension ParleyError {
    /// The reason of a close frame for this error: `"<code>: <message>"`, which Parley's client reads the code from
    /// (``CloseCode``), cut to fit a close frame (``String/clippedToCloseReason``).
    var closeReason: String {
        "\(code): \(message)".clippedToCloseReason
    }
}

extension String {
    /// The text cut, at a character's end, to the 123 bytes of UTF-8 a close frame's reason may take (RFC 6455 §5.5).
    var clippedToCloseReason: String {
        var reason = self
        while reason.utf8.count > 123 { reason.removeLast() }
        return reason
    }
}
