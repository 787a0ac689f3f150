public import ParleyCore

/// Recognises speech while it is spoken: audio goes in as it arrives, partial and final results come out.
///
/// One session recognises one utterance, as Oracle's speech socket does: ``RecognitionSession/events`` gives
/// ``RecognitionEvent/speechStarted(at:)``, partial results while the speaker talks, and then exactly one
/// terminal event — ``RecognitionEvent/final(_:)``, ``RecognitionEvent/noSpeech(after:)`` or
/// ``RecognitionEvent/tooMuchSpeech(_:)`` — after which the stream ends. The final arrives without being asked
/// for when voice-activity detection finds the end of speech; ``RecognitionSession/finishAudio()`` forces it.
///
/// Parley ships `PocketsphinxStreamingRecognizer` (Linux, CMU PocketSphinx loaded at run time) and
/// `AppleStreamingRecognizer` (Apple platforms, `SFSpeechRecognizer`).
///
/// ```swift
/// let session = try await recognizer.startSession(StreamingRecognitionRequest(phrases: ["turn on the lights"]))
/// Task { for try await chunk in microphone.frames() { try await session.feed(chunk) } }
/// for try await event in session.events { print(event) }
/// ```
public protocol StreamingRecognizer: Sendable {
    /// The engine's name, such as `pocketSphinx` or `apple`.
    var engine: String { get }
    /// The locales the engine recognises, as BCP 47 tags such as `en-US`.
    func locales() async -> [String]
    /// Starts a session for one utterance.
    /// - Throws: `speech.engineUnavailable` when the engine or its model is missing (the message names the package
    ///   to install) or does not speak `request.locale`; `speech.permissionDenied` where the platform said no.
    func startSession(_ request: StreamingRecognitionRequest) async throws(ParleyError) -> any RecognitionSession
}

/// One utterance being recognised: feed it audio, read its events.
public protocol RecognitionSession: Sendable {
    /// Partial results, then one terminal event, then the end. Iterate once. It fails with a ``ParleyError`` when
    /// the engine fails; ``cancel()`` ends it without a terminal event.
    var events: SpeechStream<RecognitionEvent> { get }
    /// Feeds 16 kHz mono samples of any length. Audio after the terminal event is ignored (a browser keeps
    /// streaming until it reads the final).
    /// - Throws: `speech.badAudio` for another sample rate; `speech.engineFailed` when the engine rejects it.
    func feed(_ audio: AudioBuffer) async throws(ParleyError)
    /// Feeds 16 kHz mono 16-bit little-endian PCM bytes of any length; an odd last byte waits for the next call.
    func feed(bytes: [UInt8]) async throws(ParleyError)
    /// Says no more audio will come (Oracle's `Done`): the terminal event follows at once — the final with what was
    /// heard, or ``RecognitionEvent/noSpeech(after:)``.
    func finishAudio() async
    /// Stops recognising: the engine is released and ``events`` ends without a terminal event.
    func cancel() async
}

/// What a ``StreamingRecognizer`` should listen for.
public struct StreamingRecognitionRequest: Sendable, Hashable {
    /// The locale, such as `en-US`.
    public var locale: String
    /// Phrases to restrict recognition to; engines with grammars (PocketSphinx, as JSGF) hear nothing else, others
    /// take them as hints. Empty for open dictation.
    public var phrases: [String]
    /// Whether partial results are wanted.
    public var partialResults: Bool
    /// How many alternatives (n-best) a final result may carry, at least 1.
    public var maxAlternatives: Int
    /// How long the audio may go without speech before the session ends with
    /// ``RecognitionEvent/noSpeech(after:)``. Measured in audio, not wall-clock time.
    public var noSpeechTimeout: Duration
    /// How long an utterance may last before the session ends with ``RecognitionEvent/tooMuchSpeech(_:)``.
    public var maxSpeech: Duration
    /// The silence after speech that ends the utterance (PocketSphinx's `-vad_postspeech`; the hangover of the
    /// energy detector elsewhere).
    public var endSilence: Duration

    /// Creates a request.
    public init(
        locale: String = "en-US", phrases: [String] = [], partialResults: Bool = true, maxAlternatives: Int = 3,
        noSpeechTimeout: Duration = .seconds(5), maxSpeech: Duration = .seconds(30),
        endSilence: Duration = .milliseconds(500)
    ) {
        self.locale = locale
        self.phrases = phrases
        self.partialResults = partialResults
        self.maxAlternatives = max(1, maxAlternatives)
        self.noSpeechTimeout = noSpeechTimeout
        self.maxSpeech = maxSpeech
        self.endSilence = endSilence
    }
}

/// What a ``RecognitionSession`` reports.
public enum RecognitionEvent: Sendable, Hashable {
    /// Speech began, this far into the audio.
    case speechStarted(at: Duration)
    /// The best hypothesis so far; a later partial replaces it.
    case partial(RecognitionResult)
    /// What was said (terminal). Its text is never empty: an utterance heard as nothing is ``noSpeech(after:)``.
    case final(RecognitionResult)
    /// No speech was recognised: none began within the no-speech timeout, or the audio ended without words
    /// (terminal). Oracle's socket reports it as a final result with an empty `nbest`.
    case noSpeech(after: Duration)
    /// The utterance outlasted ``StreamingRecognitionRequest/maxSpeech``; the result holds what was heard up to
    /// the limit (terminal). Oracle's socket reports it as an empty `nbest` with a `resultCode`.
    case tooMuchSpeech(RecognitionResult)

    /// Whether the event ends the session.
    public var isTerminal: Bool {
        switch self {
        case .speechStarted, .partial: false
        case .final, .noSpeech, .tooMuchSpeech: true
        }
    }
}

/// A hypothesis with its alternatives and timing.
public struct RecognitionResult: Sendable, Hashable {
    /// The best hypothesis.
    public var text: String
    /// The n-best list, best first; the first is ``text``. Partial results carry only the best.
    public var alternatives: [RecognitionAlternative]
    /// The engine's confidence in ``text`` from 0 to 1, when it gives one.
    public var confidence: Double?
    /// Where the utterance starts in the audio.
    public var start: Duration
    /// Where the utterance ends in the audio (for a partial: how far the audio has been heard).
    public var end: Duration
    /// The words of ``text`` with their times, when the engine gives them.
    public var words: [RecognizedWord]

    /// Creates a result.
    public init(
        text: String, alternatives: [RecognitionAlternative] = [], confidence: Double? = nil, start: Duration = .zero,
        end: Duration = .zero, words: [RecognizedWord] = []
    ) {
        self.text = text
        self.alternatives =
            alternatives.isEmpty ? [RecognitionAlternative(text: text, confidence: confidence)] : alternatives
        self.confidence = confidence
        self.start = start
        self.end = end
        self.words = words
    }
}

/// One hypothesis of an n-best list.
public struct RecognitionAlternative: Sendable, Hashable {
    /// The hypothesis.
    public var text: String
    /// The engine's confidence from 0 to 1, when it gives one.
    public var confidence: Double?

    /// Creates an alternative.
    public init(text: String, confidence: Double? = nil) {
        self.text = text
        self.confidence = confidence
    }
}

/// A recognised word and where it lies in the audio.
public struct RecognizedWord: Sendable, Hashable {
    /// The word.
    public var text: String
    /// Its start.
    public var start: Duration
    /// Its end.
    public var end: Duration

    /// Creates a word.
    public init(text: String, start: Duration, end: Duration) {
        self.text = text
        self.start = start
        self.end = end
    }
}
