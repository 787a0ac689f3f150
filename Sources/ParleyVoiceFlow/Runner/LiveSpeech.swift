public import Foundation
public import ParleyCore
public import ParleySpeech

/// The streaming engines a ``VoiceFlowRunner`` speaks and listens with in live mode: prompts are synthesised (or
/// read) as streams and played as they come, the caller's audio is recognised while it is spoken, and a prompt that
/// allows it (`recognizeWhilePlay`) is stopped by the caller's speech.
///
/// ```swift
/// let live = LiveSpeech(
///     recognizer: PocketsphinxStreamingRecognizer(), synthesizer: EspeakSynthesizer(),
///     callerAudio: LiveCallerAudio(SoxAudioSource.microphone()), output: SoxStreamingPlayer(),
///     audioFiles: { SoxAudioSource.file($0).frames() })
/// let runner = VoiceFlowRunner(live: live)
/// ```
public struct LiveSpeech: Sendable {
    /// Recognises the caller, one session per listening.
    public var recognizer: any StreamingRecognizer
    /// Speaks text prompts.
    public var synthesizer: any StreamingSynthesizer
    /// The caller's audio, one source per listening or recording.
    public var callerAudio: any CallerAudio
    /// Where prompts are played.
    public var output: any AudioSink
    /// Reads a prompt's audio file as a stream (sox on Linux and macOS).
    public var audioFiles: @Sendable (URL) -> SpeechStream<AudioBuffer>
    /// How fast prompt audio is handed to ``output``: real audio time for a person (the default), faster for tests.
    /// The playback position the runner reports (barge-in, interruptions) is the audio handed out so far.
    public var pacing: AudioPacing

    /// Creates live speech.
    public init(
        recognizer: any StreamingRecognizer, synthesizer: any StreamingSynthesizer, callerAudio: any CallerAudio,
        output: any AudioSink, audioFiles: @escaping @Sendable (URL) -> SpeechStream<AudioBuffer>,
        pacing: AudioPacing = AudioPacing()
    ) {
        self.recognizer = recognizer
        self.synthesizer = synthesizer
        self.callerAudio = callerAudio
        self.output = output
        self.audioFiles = audioFiles
        self.pacing = pacing
    }
}

/// Where the caller's audio comes from: one ``AudioSource`` per listening or recording turn.
///
/// Parley ships ``LiveCallerAudio`` (a microphone: the same device every turn) and ``ScriptedCallerAudio`` (a
/// prepared file per turn, for tests and `parley voiceflow run --audio-in`).
public protocol CallerAudio: Sendable {
    /// The audio of the next turn; iterating its frames opens the device (or the file).
    /// - Throws: `speech.noMoreAudio` when a script has no turn left.
    func nextTurn() async throws(ParleyError) -> any AudioSource
}

/// A live input: every turn listens to the same source (a microphone: `SoxAudioSource.microphone()` or
/// `AudioEngineSource`).
public struct LiveCallerAudio: CallerAudio {
    /// The source.
    public var source: any AudioSource

    /// Creates an input listening to `source`.
    public init(_ source: any AudioSource) {
        self.source = source
    }

    /// ``source``.
    public func nextTurn() async throws(ParleyError) -> any AudioSource { source }
}

/// The caller's audio from prepared files, one per turn: each listening or recording consumes the next file.
///
/// The file's audio is streamed from the moment the runner starts listening (for a prompt that allows barge-in:
/// when that prompt starts), paced in audio time by ``pacing`` (real time by default, `speed` times faster in
/// tests), and followed by silence for as long as the turn goes on, as a quiet caller's microphone would be, so
/// no-input timeouts and end-of-speech detection happen in audio as they do live. The position in the file is
/// therefore the position in the call.
public actor ScriptedCallerAudio: CallerAudio {
    private var files: [URL]
    private let open: @Sendable (URL) -> SpeechStream<AudioBuffer>
    private let pacing: AudioPacing

    /// Creates an input from `files`, read with `open` (such as `{ SoxAudioSource.file($0).frames() }`), paced by
    /// `pacing`.
    public init(
        files: [URL], pacing: AudioPacing = AudioPacing(),
        open: @escaping @Sendable (URL) -> SpeechStream<AudioBuffer>
    ) {
        self.files = files
        self.pacing = pacing
        self.open = open
    }

    /// The files not used yet.
    public var remainingFiles: [URL] { files }

    /// The next file's audio, then silence, paced.
    /// - Throws: `speech.noMoreAudio` when every file has been used.
    public func nextTurn() async throws(ParleyError) -> any AudioSource {
        guard !files.isEmpty else { throw ParleyError(.noMoreAudio, "the caller's audio has no turn left") }
        return PacedFileTurn(audio: open(files.removeFirst()), pacing: pacing)
    }
}

/// One scripted turn: the file's chunks, then 100 ms chunks of silence, handed out in paced audio time.
struct PacedFileTurn: AudioSource {
    let audio: SpeechStream<AudioBuffer>
    let pacing: AudioPacing

    func frames() -> SpeechStream<AudioBuffer> {
        let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
        let audio = self.audio
        let pacing = self.pacing
        let task = Task {
            let clock = pacing.start()
            var heard = Duration.zero
            do throws(ParleyError) {
                for try await chunk in audio {
                    for piece in chunk.pieces() {
                        await clock.wait(until: heard)
                        if Task.isCancelled { break }
                        continuation.yield(piece)
                        heard += piece.duration
                    }
                }
                let silence = AudioBuffer(samples: [Int16](repeating: 0, count: 1_600))
                while !Task.isCancelled {
                    await clock.wait(until: heard)
                    continuation.yield(silence)
                    heard += silence.duration
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination { task.cancel() }
        return stream
    }
}

/// How fast audio is handed on: `speed` times real audio time on `clock`. A speaker or a microphone runs at 1; tests
/// run scripted calls faster. The order of prompt and caller audio, and therefore where a barge-in cuts a prompt, is
/// the same at any speed (up to scheduling jitter).
public struct AudioPacing: Sendable {
    /// Audio seconds per clock second.
    public var speed: Double
    private let makeTimer: @Sendable (Double) -> PacingTimer

    /// Paces at `speed` (at least 0.01) on `clock`.
    public init<C: Clock>(speed: Double = 1, clock: C = ContinuousClock()) where C.Duration == Duration {
        self.speed = max(0.01, speed)
        makeTimer = { speed in
            let start = clock.now
            return PacingTimer { offset in
                try? await clock.sleep(until: start.advanced(by: offset / speed), tolerance: nil)
            }
        }
    }

    /// Starts a timeline now.
    func start() -> PacingTimer { makeTimer(speed) }
}

/// A timeline started by ``AudioPacing``: waits until an audio offset from its start is due.
struct PacingTimer: Sendable {
    let waitUntil: @Sendable (Duration) async -> Void

    func wait(until offset: Duration) async { await waitUntil(offset) }
}

/// An ``AudioSink`` that hears nothing and takes audio as fast as it comes: prompts of a scripted call
/// (`parley voiceflow run --audio-in`), whose timing ``AudioPacing`` gives.
public struct DiscardingSink: AudioSink {
    /// Creates a sink.
    public init() {}

    /// Reads `audio` to its end.
    public func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
        for try await _ in audio {}
    }
}

#if canImport(Subprocess)
    extension LiveSpeech {
        /// The machine's microphone and speakers through sox (`rec`, `play`), espeak-ng for text and `recognizer`
        /// for the caller (PocketSphinx on Linux). Without a sound device, listening and playing fail with
        /// `speech.audioDeviceUnavailable`.
        public static func soundDevice(recognizer: any StreamingRecognizer) -> Self {
            Self(
                recognizer: recognizer, synthesizer: EspeakSynthesizer(),
                callerAudio: LiveCallerAudio(SoxAudioSource.microphone()), output: SoxStreamingPlayer(),
                audioFiles: { SoxAudioSource.file($0).frames() })
        }

        /// A scripted call: the caller's audio from `files` (one per turn, any format sox reads), prompts spoken by
        /// espeak-ng into a ``DiscardingSink``, both paced at `speed` times real audio time.
        public static func scripted(files: [URL], recognizer: any StreamingRecognizer, speed: Double = 1) -> Self {
            let pacing = AudioPacing(speed: speed)
            return Self(
                recognizer: recognizer, synthesizer: EspeakSynthesizer(),
                callerAudio: ScriptedCallerAudio(files: files, pacing: pacing) { SoxAudioSource.file($0).frames() },
                output: DiscardingSink(), audioFiles: { SoxAudioSource.file($0).frames() }, pacing: pacing)
        }
    }
#endif

extension AudioBuffer {
    /// The buffer cut into pieces of at most 100 ms: a pipe may deliver seconds at once, and pacing hands audio on
    /// in small steps.
    func pieces() -> [AudioBuffer] {
        let size = max(1, sampleRate / 10)
        guard samples.count > size else { return [self] }
        return stride(from: 0, to: samples.count, by: size).map {
            AudioBuffer(samples: Array(samples[$0..<min($0 + size, samples.count)]), sampleRate: sampleRate)
        }
    }
}
