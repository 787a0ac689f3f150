public import ParleyCore

/// Produces audio as it is captured or read: 16 kHz mono 16-bit PCM, ready for a ``RecognitionSession``.
///
/// Parley ships ``BufferAudioSource`` (memory, for tests), `SoxAudioSource` (a file in any format sox reads, or the
/// microphone through sox's `rec`; Linux and macOS) and `AudioEngineSource` (AVAudioEngine; Apple platforms).
public protocol AudioSource: Sendable {
    /// The audio in chunks, until the source ends (a file) or the iteration stops (a microphone: ending the loop
    /// or cancelling its task closes the device).
    /// - Note: The stream fails with `speech.audioDeviceUnavailable` when there is no device to capture from.
    func frames() -> SpeechStream<AudioBuffer>
}

/// Plays audio as it arrives, so speech is heard while it is still being synthesised.
///
/// Parley ships `SoxStreamingPlayer` (sox's `play`; Linux and macOS) and `AudioEngineSink` (AVAudioEngine; Apple
/// platforms).
public protocol AudioSink: Sendable {
    /// Plays `audio` to its end. Cancelling the task stops playback.
    /// - Throws: `speech.audioDeviceUnavailable` when there is no sound device; the stream's own error.
    func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError)
}

/// Speaks text as a stream: audio chunks come out as soon as the engine has them, long before it has spoken the
/// whole text.
///
/// Parley ships `EspeakSynthesizer` (espeak-ng's `--stdout`; Linux and macOS) and `AppleSynthesizer`
/// (`AVSpeechSynthesizer.write(_:toBufferCallback:)`).
public protocol StreamingSynthesizer: SpeechSynthesizer {
    /// `request` as mono 16-bit chunks at the engine's rate (espeak-ng: 22,050 Hz); every chunk carries it.
    /// Ending the iteration early stops the engine (espeak-ng's program is killed).
    func stream(_ request: SynthesisRequest) -> SpeechStream<AudioBuffer>
}

/// Audio held in memory, handed out in chunks of a fixed size: a stand-in microphone for tests and simulations.
public struct BufferAudioSource: AudioSource {
    /// The audio.
    public var audio: AudioBuffer
    /// Samples per chunk (the last may be shorter).
    public var chunkSize: Int

    /// Creates a source of `audio` cut into `chunkSize` samples (1,600 — 100 ms at 16 kHz — by default).
    public init(_ audio: AudioBuffer, chunkSize: Int = 1_600) {
        self.audio = audio
        self.chunkSize = max(1, chunkSize)
    }

    /// The chunks, in order.
    public func frames() -> SpeechStream<AudioBuffer> {
        let chunks = stride(from: 0, to: audio.samples.count, by: chunkSize).map { start in
            AudioBuffer(
                samples: Array(audio.samples[start..<min(start + chunkSize, audio.samples.count)]),
                sampleRate: audio.sampleRate)
        }
        return .of(chunks)
    }
}
