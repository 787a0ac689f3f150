public import ParleyCore

/// A stand-in streaming recognizer for tests and demos without an engine: it hears speech with the energy
/// ``VoiceActivityDetector`` and "recognises" its transcripts, one per session, in order.
///
/// While speech goes on, partials reveal the transcript one word per ``wordDuration`` of speech; when the speech
/// ends (the detector's hangover is the request's ``StreamingRecognitionRequest/endSilence``) the final is the whole
/// transcript. Silence gives ``RecognitionEvent/noSpeech(after:)`` and long speech
/// ``RecognitionEvent/tooMuchSpeech(_:)``, by the same session logic as the real engines, so a server's speech
/// endpoint can be tested with generated tones instead of speech.
///
/// ```swift
/// let recognizer = ScriptedStreamingRecognizer(transcripts: ["turn on the lights"])
/// let session = try await recognizer.startSession(StreamingRecognitionRequest())
/// ```
public struct ScriptedStreamingRecognizer: StreamingRecognizer {
    /// `scripted`.
    public let engine = "scripted"
    /// The detector's settings; each request's `endSilence` replaces the hangover.
    public var voiceActivity: VoiceActivityParameters
    /// The speech that reveals one more word of a partial.
    public var wordDuration: Duration
    private let queue: TranscriptQueue

    /// Creates a recognizer that will hear `transcripts`, one per session.
    public init(
        transcripts: [String], voiceActivity: VoiceActivityParameters = VoiceActivityParameters(),
        wordDuration: Duration = .milliseconds(250)
    ) {
        queue = TranscriptQueue(transcripts)
        self.voiceActivity = voiceActivity
        self.wordDuration = wordDuration
    }

    /// `en-US`: the transcripts are taken as that.
    public func locales() async -> [String] { ["en-US"] }

    /// Starts a session for the next transcript.
    /// - Throws: `speech.noMoreAudio` when every transcript has been used.
    public func startSession(_ request: StreamingRecognitionRequest) async throws(ParleyError)
        -> any RecognitionSession
    {
        guard let transcript = await queue.next() else {
            throw ParleyError(.noMoreAudio, "the scripted recognizer has no more transcripts")
        }
        let decoder = TranscriptDecoder(
            transcript: transcript,
            detector: VoiceActivityDetector(
                parameters: voiceActivity.withHangover(
                    request.endSilence, sampleRate: AudioBuffer.recognitionSampleRate)),
            samplesPerWord: max(1, AudioBuffer.samples(in: wordDuration, sampleRate: AudioBuffer.recognitionSampleRate))
        )
        let session = DecoderSession(decoder: decoder, request: request)
        await session.cancelWhenAbandoned()
        return session
    }
}

/// The transcripts not yet heard.
private actor TranscriptQueue {
    private var transcripts: [String]

    init(_ transcripts: [String]) {
        self.transcripts = transcripts
    }

    func next() -> String? {
        transcripts.isEmpty ? nil : transcripts.removeFirst()
    }
}

/// A decoder that hears with the energy detector and reveals a transcript word by word.
final class TranscriptDecoder: SpeechDecoder {
    private let words: [String]
    private var detector: VoiceActivityDetector
    private let samplesPerWord: Int
    private var speechSamples = 0

    init(transcript: String, detector: VoiceActivityDetector, samplesPerWord: Int) {
        words = transcript.split(whereSeparator: \.isWhitespace).map(String.init)
        self.detector = detector
        self.samplesPerWord = samplesPerWord
    }

    func process(_ samples: [Int16]) throws(ParleyError) -> Bool {
        _ = detector.process(samples)
        if detector.isSpeaking { speechSamples += samples.count }
        return detector.isSpeaking
    }

    func hypothesis() -> String? {
        let count = min(words.count, speechSamples / samplesPerWord)
        return count == 0 ? nil : words.prefix(count).joined(separator: " ")
    }

    func finish(maxAlternatives: Int) throws(ParleyError) -> DecodedUtterance {
        DecodedUtterance(text: speechSamples > 0 ? words.joined(separator: " ") : "")
    }

    func close() {}
}
