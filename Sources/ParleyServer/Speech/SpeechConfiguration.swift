public import ParleySpeech

/// The server's speech engines and limits (`docs/speech.md`, "The server"); which channels use them is each
/// channel's ``ChannelSpeech``.
///
/// By default the real engines run: PocketSphinx for recognition (Linux; loaded when the first session starts) and
/// espeak-ng for synthesis. An engine that is missing does not stop the server: a request that needs it is answered
/// with `speech.engineUnavailable`, and `parley serve`'s banner says so. ``ScriptedStreamingRecognizer`` runs only
/// when an operator or a test gives it.
public struct SpeechConfiguration: Sendable {
    /// The recognizer of `/voice/stream/recognize`; nil for none (every recognition is refused with
    /// `speech.engineUnavailable`). Default: ``PocketsphinxStreamingRecognizer`` on Linux, none elsewhere;
    /// `WhisperRecognizer` for open dictation (`parley serve --whisper-model DIR`, docs/speech.md, "Whisper").
    public var recognizer: (any StreamingRecognizer)?
    /// The synthesiser of `/tts/speak` and `/tts/voices`; nil for none. Default: ``EspeakSynthesizer`` where
    /// programs can be run (Linux, macOS).
    public var synthesizer: (any StreamingSynthesizer)?

    // MARK: Limits (docs/security.md)

    /// The most audio one recognition takes; after it the audio is finished as if the client had sent `Done`.
    /// Default 60 seconds (1,920,000 bytes).
    public var maxAudio: Duration = .seconds(60)
    /// The longest utterance; a longer one ends with a final result with an empty `nbest` and a `resultCode`
    /// (``RecognitionEvent/tooMuchSpeech(_:)``). Default 30 seconds.
    public var maxSpeech: Duration = .seconds(30)
    /// How much audio may pass without speech before the recognition ends with an empty `nbest`. Default 5 seconds.
    public var noSpeechTimeout: Duration = .seconds(5)
    /// The silence that ends an utterance. Default 500 milliseconds.
    public var endSilence: Duration = .milliseconds(500)
    /// How long a recognition socket may stay open in all, on the server's clock; after it the socket is closed
    /// with `speech.timeout`. Default 90 seconds.
    public var recognitionTimeout: Duration = .seconds(90)
    /// The most recognitions running at once on the server; one more is refused with `server.busy`. Default 16.
    public var maxConcurrentRecognitions = 16
    /// The most recognitions one user (channel and user id) runs at once; one more is refused with
    /// `server.rateLimited`. Default 2.
    public var maxConcurrentRecognitionsPerUser = 2
    /// The longest text `/tts/speak` speaks, in characters (SSML markup included); a longer one is refused with
    /// `413 speech.textTooLong`. Default 2,000.
    public var maxTextLength = 2_000
    /// The most syntheses running at once on the server; one more is refused with `503 server.busy`. Default 8.
    public var maxConcurrentSyntheses = 8
    /// How long one synthesis may stream; a longer one is cut off. Default 60 seconds.
    public var synthesisTimeout: Duration = .seconds(60)

    /// Creates a configuration with the given engines.
    public init(recognizer: (any StreamingRecognizer)?, synthesizer: (any StreamingSynthesizer)?) {
        self.recognizer = recognizer
        self.synthesizer = synthesizer
    }

    /// The platform's real engines: PocketSphinx and espeak-ng on Linux, espeak-ng alone on macOS, none elsewhere.
    public static var system: SpeechConfiguration {
        #if os(Linux)
            SpeechConfiguration(recognizer: PocketsphinxStreamingRecognizer(), synthesizer: EspeakSynthesizer())
        #elseif canImport(Subprocess)
            SpeechConfiguration(recognizer: nil, synthesizer: EspeakSynthesizer())
        #else
            SpeechConfiguration(recognizer: nil, synthesizer: nil)
        #endif
    }

    /// No engines: every speech request is refused with `speech.engineUnavailable`.
    public static var none: SpeechConfiguration {
        SpeechConfiguration(recognizer: nil, synthesizer: nil)
    }

    /// What the engines can do now, one line each, for `parley serve`'s banner: `recognition by pocketSphinx
    /// (en-US)`, or `recognition unavailable (…)` naming what is missing; the same for synthesis. A
    /// `WhisperRecognizer`'s worker is started (its model loaded) here.
    public func availability() async -> [String] {
        var lines: [String] = []
        if let recognizer {
            #if canImport(Subprocess)
                // The whisper worker is started now, so the first recognition does not wait for the model to load
                // and a model that does not load is said here.
                if let whisper = recognizer as? WhisperRecognizer {
                    do {
                        try await whisper.start()
                    } catch {
                        lines.append("recognition unavailable (\(error.code): \(error.message))")
                        return lines + (await synthesisLines())
                    }
                }
            #endif
            let locales = await recognizer.locales()
            lines.append(
                locales.isEmpty
                    ? "recognition unavailable (\(recognizer.engine) has no model installed; see docs/speech.md)"
                    : "recognition by \(recognizer.engine) (\(locales.joined(separator: ", ")))")
        } else {
            lines.append("recognition unavailable (no recognizer)")
        }
        return lines + (await synthesisLines())
    }

    private func synthesisLines() async -> [String] {
        var lines: [String] = []
        if let synthesizer {
            do {
                let voices = try await synthesizer.voices()
                lines.append("synthesis by \(synthesizer.engine) (\(voices.count) voices)")
            } catch {
                lines.append("synthesis unavailable (\(error.code): \(error.message))")
            }
        } else {
            lines.append("synthesis unavailable (no synthesiser)")
        }
        return lines
    }
}
