import Foundation
public import ParleySpeech

/// Where speech is recognised and synthesised for a ``ChatClient``: the seam between the client's recording and
/// read-aloud logic and an engine.
///
/// Parley ships two: ``ServerSpeechService`` (the chat server's speech endpoints, Oracle's
/// `/voice/stream/recognize/{locale}/generic` socket and `/tts/speak`; the default) and ``OnDeviceSpeechService``
/// (a ParleySpeech engine in the app's process: Apple's recognizer and synthesiser, or PocketSphinx and espeak-ng on
/// Linux).
///
/// ```swift
/// var speech = ChatClient.SpeechSetup()
/// speech.service = OnDeviceSpeechService(recognizer: PocketsphinxStreamingRecognizer(),
///                                        synthesizer: EspeakSynthesizer())
/// let client = ChatClient(configuration: configuration, speech: speech)
/// ```
public protocol SpeechService: Sendable {
    /// The permissions recognition needs besides the microphone's (an on-device Apple recognizer needs
    /// ``Permission/speechRecognition``; a server needs none).
    var recognitionPermissions: [Permission] { get }
    /// The locales recognition accepts, as language tags (`en-us`, `fr-fr`); compared without regard to case.
    func recognitionLocales() async -> [String]
    /// Recognises one utterance from `audio` (16 kHz mono 16-bit chunks, ended when the user stops): partial
    /// texts, then one terminal update, then the end.
    /// - Parameter context: Where and for whom (the chat server's channel, user and token).
    func recognize(_ audio: SpeechStream<AudioBuffer>, locale: String, context: SpeechContext)
        -> SpeechStream<SpeechRecognitionUpdate>
    /// The voices synthesis can speak with.
    func voices(context: SpeechContext) async throws(ParleyError) -> [SynthesisVoice]
    /// Speaks `text` with `voice` (its identifier; `nil` for the default voice of `language`, or the engine's).
    func synthesize(_ text: String, voice: String?, language: String?, context: SpeechContext)
        -> SpeechStream<AudioBuffer>
}

/// Who a speech request is for: what a ``ServerSpeechService`` puts in its URLs and headers.
public struct SpeechContext: Sendable, Hashable {
    /// The channel.
    public var channelId: String
    /// The user.
    public var userId: String
    /// The JWT of a channel with client authentication; `nil` otherwise.
    public var token: String?
    /// The session secret of a Parley channel that binds users to secrets; `nil` otherwise.
    public var sessionSecret: String?

    /// A context.
    public init(channelId: String, userId: String, token: String? = nil, sessionSecret: String? = nil) {
        self.channelId = channelId
        self.userId = userId
        self.token = token
        self.sessionSecret = sessionSecret
    }
}

/// What a ``SpeechService`` reports while it recognises an utterance.
public enum SpeechRecognitionUpdate: Sendable, Hashable {
    /// The best guess so far (Oracle's `partialResult`); a later one replaces it.
    case partial(String)
    /// What was said (Oracle's `finalResult` with an `nbest` list). Terminal.
    case final(SpeechResult)
    /// Nothing was said before the service gave up (Oracle's `finalResult` with an empty `nbest`). Terminal.
    case noSpeech
    /// The utterance was too long (an empty `nbest` with a `resultCode`). Terminal.
    case tooMuchSpeech
}

extension SpeechService {
    /// Whether `locale` is one of ``recognitionLocales()`` (`en-US`, `en-us` and `en_US` are the same).
    func recognizes(_ locale: String) async -> Bool {
        let wanted = Self.normalized(locale)
        return await recognitionLocales().contains { Self.normalized($0) == wanted }
    }

    static func normalized(_ locale: String) -> String {
        locale.replacingOccurrences(of: "_", with: "-").lowercased()
    }
}
