public import ParleySpeech

/// The built-in ``TTSService``: reads texts aloud one after another through a ``SpeechService``'s synthesis and an
/// ``AudioSink``, with the voice ``VoicePreference/choose(_:from:)`` picks. What a ``ChatClient`` uses when the
/// configuration's `ttsService` is `nil`.
public actor SpeechReader: TTSService {
    /// Where speech is synthesised.
    public nonisolated let service: any SpeechService
    /// Where it is played.
    public nonisolated let speaker: any AudioSink
    /// The audio session, held for playback while a text is read.
    public nonisolated let audioSession: any AudioSessionControl
    /// The preferred voices, best first.
    public var preferences: [VoicePreference]
    private let context: @Sendable () async throws -> SpeechContext
    private let failure: @Sendable (ParleyError) async -> Void
    private var queue: [String] = []
    private var playing: Task<Void, Never>?
    /// The voices, read once.
    private var voices: [SynthesisVoice]?

    /// A reader.
    /// - Parameters:
    ///   - service: Where speech is synthesised.
    ///   - speaker: Where it is played.
    ///   - preferences: The preferred voices (`speechSynthesisVoicePreferences`).
    ///   - context: Who the requests are for (asked before each text).
    ///   - failure: Told when a text cannot be synthesised or played (no sound device, say); reading goes on with
    ///     the next text.
    ///   - audioSession: Activated for playback while each text is read, given back after (``NoAudioSession`` by
    ///     default).
    public init(
        service: any SpeechService, speaker: any AudioSink, preferences: [VoicePreference] = [],
        context: @escaping @Sendable () async throws -> SpeechContext,
        failure: @escaping @Sendable (ParleyError) async -> Void = { _ in },
        audioSession: any AudioSessionControl = NoAudioSession()
    ) {
        self.service = service
        self.speaker = speaker
        self.audioSession = audioSession
        self.preferences = preferences
        self.context = context
        self.failure = failure
    }

    /// Changes the preferred voices for the texts still to come.
    public func setPreferences(_ preferences: [VoicePreference]) {
        self.preferences = preferences
    }

    /// Queues `text`; it is read after what is queued before it.
    public func speak(text: String) async {
        queue.append(text)
        guard playing == nil else { return }
        playing = Task { await self.drain() }
    }

    /// Stops reading and empties the queue.
    public func stopSpeech() async {
        queue.removeAll()
        playing?.cancel()
        playing = nil
    }

    /// Whether a text is being read.
    public func isSpeaking() async -> Bool {
        playing != nil
    }

    /// Waits until everything queued has been read (or stopped).
    public func waitUntilDone() async {
        await playing?.value
    }

    private func drain() async {
        while !queue.isEmpty, !Task.isCancelled {
            let text = queue.removeFirst()
            do {
                let context = try await self.context()
                let voice = try await voice(context)
                try await audioSession.begin(.playback)
                do {
                    try await speaker.play(
                        service.synthesize(text, voice: voice?.identifier, language: voice?.language, context: context))
                } catch {
                    await audioSession.end(.playback)
                    throw error
                }
                await audioSession.end(.playback)
            } catch let error as ParleyError {
                if !Task.isCancelled { await failure(error) }
            } catch {
                if !Task.isCancelled { await failure(ParleyError(.speechEngineFailed, "\(error)", underlying: error)) }
            }
        }
        if !Task.isCancelled { playing = nil }
    }

    private func voice(_ context: SpeechContext) async throws(ParleyError) -> SynthesisVoice? {
        guard !preferences.isEmpty else { return nil }
        if voices == nil { voices = try await service.voices(context: context) }
        return VoicePreference.choose(preferences, from: voices ?? [])
    }
}
