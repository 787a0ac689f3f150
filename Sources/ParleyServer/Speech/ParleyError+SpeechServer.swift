public import ParleyCore

extension ParleyError.Code {
    // Codes of the speech endpoints (`/voice/stream/recognize/…`, `/tts/…`); the engines' own are ParleySpeech's
    // (`speech.engineUnavailable`, `speech.engineFailed`, …).

    /// The channel does not serve speech (``ChannelSpeech/enabled`` is off): `403`, or close code 1008.
    public static let speechDisabled: Self = "speech.disabled"
    /// The text to speak is longer than ``SpeechConfiguration/maxTextLength`` (`413`).
    public static let speechTextTooLong: Self = "speech.textTooLong"
    /// A recognition socket stayed open longer than ``SpeechConfiguration/recognitionTimeout``: an error frame,
    /// then close code 1008.
    public static let speechTimeout: Self = "speech.timeout"
}

extension CloseCode {
    /// RFC 6455's "Unsupported Data": the recognition socket's locale is not served.
    static let unsupportedData = CloseCode(rawValue: 1003)
}
