/// A preferred voice for reading messages aloud: a language-locale and, optionally, a voice name.
public struct VoicePreference: Sendable, Hashable {
    /// A language-locale such as `en-US`.
    public var language: String
    /// A voice name; `nil` takes the language's default voice.
    public var name: String?

    /// A preference.
    public init(language: String, name: String? = nil) {
        self.language = language
        self.name = name
    }
}

/// A speech synthesiser the app injects instead of the platform's (Oracle's `TTSService`).
public protocol TTSService: Sendable {
    /// Adds `text` to the queue of things to say.
    func speak(text: String) async
    /// Stops speaking and empties the queue.
    func stopSpeech() async
    /// Whether something is being said.
    func isSpeaking() async -> Bool
}
