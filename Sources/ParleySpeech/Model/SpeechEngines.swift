public import Foundation
public import ParleyCore

/// Turns text into audio.
///
/// Parley ships ``EspeakSynthesizer`` (Linux, Debian's `espeak-ng`) and, on Apple platforms, `AppleSynthesizer`.
public protocol SpeechSynthesizer: Sendable {
    /// The engine's name as voice-flow files spell it in `ssEngine`, such as `espeak-ng` or `apple`.
    var engine: String { get }
    /// The voices this engine can speak with.
    func voices() async throws(ParleyError) -> [SynthesisVoice]
    /// Speaks `request` into a WAV file at `file`.
    func synthesize(_ request: SynthesisRequest, to file: URL) async throws(ParleyError)
}

/// Turns speech into text.
///
/// Parley ships ``PocketsphinxRecognizer`` (Linux, Debian's `pocketsphinx` with `pocketsphinx-en-us`), a scripted
/// recognizer in `ParleyVoiceFlow` (`ScriptedRecognizer`) and, on Apple platforms, `AppleRecognizer`.
public protocol SpeechRecognizer: Sendable {
    /// The engine's name as voice-flow files spell it in `srEngine`, such as `pocketSphinx` or `apple`.
    var engine: String { get }
    /// Listens for one utterance and reports what was heard.
    func recognize(_ request: RecognitionRequest) async throws(ParleyError) -> Recognition
}

/// Plays audio files or synthesised text.
public protocol AudioPlayer: Sendable {
    /// Plays `item` to its end. Cancelling the task stops playback.
    func play(_ item: PlaybackItem) async throws(ParleyError)
}

/// Captures audio from a microphone (or a stand-in, such as ``QueuedAudioSource``).
public protocol AudioRecorder: Sendable {
    /// Records one utterance into `request.file` and says why recording stopped.
    func record(_ request: RecordingRequest) async throws(ParleyError) -> RecordingResult
}

/// A speech-synthesis voice: the six strings the reference API's `getSSVoices` returns, in the same order.
public struct SynthesisVoice: Sendable, Hashable, Codable {
    /// The engine, such as `espeak-ng`.
    public var engine: String
    /// The identifier to select the voice with, such as `gmw/en-US`.
    public var identifier: String
    /// A display name, such as `English_(America)`.
    public var name: String
    /// A BCP 47 language tag, such as `en-us`.
    public var language: String
    /// `male`, `female` or `unknown`.
    public var gender: String
    /// `default`, `enhanced`, `premium` or `unknown`.
    public var quality: String

    /// Creates a voice description.
    public init(
        engine: String, identifier: String, name: String, language: String, gender: String = "unknown",
        quality: String = "default"
    ) {
        self.engine = engine
        self.identifier = identifier
        self.name = name
        self.language = language
        self.gender = gender
        self.quality = quality
    }
}

/// What to synthesise.
public struct SynthesisRequest: Sendable, Hashable {
    /// The text (plain, or SSML when ``isSSML``).
    public var text: String
    /// Whether ``text`` is SSML.
    public var isSSML: Bool
    /// The voice identifier; `nil` for the engine's default for ``language``.
    public var voice: String?
    /// The language, such as `en-US`.
    public var language: String
    /// Words spoken as other words or as IPA phonemes.
    public var pronunciations: Pronunciations

    /// Creates a request.
    public init(
        text: String, isSSML: Bool = false, voice: String? = nil, language: String = "en-US",
        pronunciations: Pronunciations = Pronunciations()
    ) {
        self.text = text
        self.isSSML = isSSML
        self.voice = voice
        self.language = language
        self.pronunciations = pronunciations
    }
}

/// What to recognise.
public struct RecognitionRequest: Sendable, Hashable {
    /// The module or task asking, for logs and scripted recognizers.
    public var taskID: String
    /// The locale, such as `en-US`.
    public var locale: String
    /// Recorded audio to recognise (16 kHz mono PCM WAV works everywhere); `nil` for live capture.
    public var audioFile: URL?
    /// Phrases the application expects. Engines that support grammars (pocketsphinx) restrict recognition to
    /// them; the others may use them as hints.
    public var phrases: [String]
    /// How long to wait for speech to start before reporting ``Recognition/noInput``.
    public var noInputTimeout: Duration
    /// Whether partial hypotheses are wanted.
    public var partialResults: Bool

    /// Creates a request.
    public init(
        taskID: String, locale: String = "en-US", audioFile: URL? = nil, phrases: [String] = [],
        noInputTimeout: Duration = .seconds(8), partialResults: Bool = false
    ) {
        self.taskID = taskID
        self.locale = locale
        self.audioFile = audioFile
        self.phrases = phrases
        self.noInputTimeout = noInputTimeout
        self.partialResults = partialResults
    }
}

/// What a recognizer heard.
public enum Recognition: Sendable, Hashable {
    /// A final hypothesis, with the partial hypotheses that came before it.
    case hypothesis(String, partials: [String] = [])
    /// No speech before the no-input timeout.
    case noInput
}

/// Something to play.
public enum PlaybackItem: Sendable, Hashable {
    /// An audio file.
    case file(URL)
    /// Text to synthesise and play.
    case text(SynthesisRequest)
}

/// What to record.
public struct RecordingRequest: Sendable, Hashable {
    /// Where to write the recording.
    public var file: URL
    /// Stop after this much audio; `nil` for no limit.
    public var maxLength: Duration?
    /// Stop when no speech started within this time; `nil` for no limit.
    public var maxPreSpeechSilence: Duration?
    /// Stop after this much silence following speech; `nil` for no limit.
    public var maxPostSpeechSilence: Duration?

    /// Creates a request.
    public init(
        file: URL, maxLength: Duration? = nil, maxPreSpeechSilence: Duration? = nil,
        maxPostSpeechSilence: Duration? = nil
    ) {
        self.file = file
        self.maxLength = maxLength
        self.maxPreSpeechSilence = maxPreSpeechSilence
        self.maxPostSpeechSilence = maxPostSpeechSilence
    }
}

/// How a recording ended.
public struct RecordingResult: Sendable, Hashable {
    /// The file written, or `nil` when nothing was captured.
    public var file: URL?
    /// Why recording stopped: the `goToForStopRecordReason` keys, such as `stopRequest` or `maxAudioExceeded`.
    public var stopReason: String

    /// Creates a result.
    public init(file: URL?, stopReason: String) {
        self.file = file
        self.stopReason = stopReason
    }
}
