// Apple audio: the microphone and the speaker through AVAudioEngine, and streaming synthesis with AVSpeechSynthesizer.
// Compiled on Linux only by `scripts/check-apple --typecheck`, against interface modules (AppleSDK/): kept thin, the
// decisions live in code tested on every platform (AudioBuffer's sample conversions, AudioSessionUsage).
#if canImport(AVFoundation)
    import AVFoundation
    public import ParleyCore

    /// The microphone through `AVAudioEngine`, converted to 16 kHz mono 16-bit by `AVAudioConverter`.
    ///
    /// On iOS-family platforms the audio session must allow recording first: a ``ChatClient``-style caller calls
    /// `AudioSessionControl.begin(.recording)` (``SystemAudioSession``), or the app configures `AVAudioSession`
    /// itself (category `.playAndRecord` or `.record`). The microphone permission comes first
    /// (``SystemPermissionSource``). Ending the iteration removes the tap and stops the engine.
    public struct AudioEngineSource: AudioSource {
        /// Creates a source on the shared input node.
        public init() {}

        /// The microphone's audio until the iteration stops; fails with `speech.audioDeviceUnavailable` when the
        /// engine has no input or does not start.
        public func frames() -> SpeechStream<AudioBuffer> {
            let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
            do throws(ParleyError) {
                let microphone = try Microphone(continuation)
                // The handler keeps the engine alive until the stream ends, then stops it.
                continuation.onTermination { Task { await microphone.stop() } }
            } catch {
                continuation.finish(throwing: error)
            }
            return stream
        }
    }

    /// One running `AVAudioEngine` tapping the input node; the actor owns the engine, so no engine crosses threads.
    private actor Microphone {
        private let engine = AVAudioEngine()

        init(_ continuation: SpeechStream<AudioBuffer>.Continuation) throws(ParleyError) {
            let input = engine.inputNode
            let inputFormat = input.outputFormat(forBus: 0)
            guard inputFormat.sampleRate > 0, inputFormat.channelCount > 0,
                let target = AppleAudio.recognitionFormat(),
                let converter = AVAudioConverter(from: inputFormat, to: target)
            else {
                throw ParleyError(.audioDeviceUnavailable, "AVAudioEngine has no microphone input")
            }
            // About 100 ms of the input's own rate per tap call. The tap block is called on the engine's thread, one
            // call at a time; the converter and format it captures are used there only.
            let bufferSize = AVAudioFrameCount(inputFormat.sampleRate / 10)
            input.installTap(onBus: 0, bufferSize: bufferSize, format: inputFormat) { buffer, _ in
                let samples = AppleAudio.convert(buffer, with: converter, to: target)
                if !samples.isEmpty { continuation.yield(AudioBuffer(samples: samples)) }
            }
            engine.prepare()
            do {
                try engine.start()
            } catch {
                input.removeTap(onBus: 0)
                throw ParleyError(.audioDeviceUnavailable, "AVAudioEngine did not start: \(error)", underlying: error)
            }
        }

        func stop() {
            engine.inputNode.removeTap(onBus: 0)
            engine.stop()
        }
    }

    /// The speaker through `AVAudioEngine` and an `AVAudioPlayerNode`: read-aloud on iOS, where no program can play.
    ///
    /// Each chunk is scheduled as it arrives (so speech is heard while it is still being synthesised) and `play`
    /// returns when the last one has been heard. Cancelling the task stops playback at once. On iOS-family platforms
    /// the audio session must allow playback: callers use `AudioSessionControl.begin(.playback)`
    /// (``SystemAudioSession``), as ``ChatClient``'s reader does.
    public struct AudioEngineSink: AudioSink {
        /// Creates a sink on the engine's main mixer.
        public init() {}

        /// Plays `audio` to its end; fails with `speech.audioDeviceUnavailable` when the engine does not start.
        public func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
            let speaker = Speaker()
            do {
                try await withTaskCancellationHandler {
                    try await speaker.play(audio)
                } onCancel: {
                    Task { await speaker.stop() }
                }
            } catch let error as ParleyError {
                throw error
            } catch {
                throw ParleyError(.audioDeviceUnavailable, "\(error)", underlying: error)
            }
        }
    }

    /// One engine and player node, owned by the actor.
    private actor Speaker {
        private let engine = AVAudioEngine()
        private let player = AVAudioPlayerNode()
        private var format: AVAudioFormat?
        private var stopped = false

        func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
            defer { stop() }
            let (played, playedSink) = AsyncStream.makeStream(of: Void.self)
            var scheduled = 0
            for try await chunk in audio {
                guard !stopped else { return }
                guard let buffer = try prepare(chunk) else { continue }
                // Called when the chunk has been heard, or when the player stops.
                player.scheduleBuffer(buffer, completionCallbackType: .dataPlayedBack) { _ in playedSink.yield() }
                scheduled += 1
                if !player.isPlaying { player.play() }
            }
            for await _ in played {
                scheduled -= 1
                if scheduled == 0 || stopped { break }
            }
        }

        func stop() {
            guard !stopped else { return }
            stopped = true
            player.stop()
            engine.stop()
        }

        /// `chunk` as a float buffer; the engine is started (or reconnected) for its sample rate.
        private func prepare(_ chunk: AudioBuffer) throws(ParleyError) -> AVAudioPCMBuffer? {
            guard !chunk.samples.isEmpty, chunk.sampleRate > 0 else { return nil }
            if format?.sampleRate != Double(chunk.sampleRate) {
                guard let newFormat = AVAudioFormat(standardFormatWithSampleRate: Double(chunk.sampleRate), channels: 1)
                else {
                    throw ParleyError(.badAudio, "cannot play audio at \(chunk.sampleRate) Hz")
                }
                if format == nil { engine.attach(player) }
                engine.connect(player, to: engine.mainMixerNode, format: newFormat)
                format = newFormat
            }
            if !engine.isRunning {
                do {
                    try engine.start()
                } catch {
                    throw ParleyError(
                        .audioDeviceUnavailable, "AVAudioEngine did not start: \(error)", underlying: error)
                }
            }
            guard let format,
                let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(chunk.samples.count)),
                let channels = buffer.floatChannelData
            else { return nil }
            buffer.frameLength = AVAudioFrameCount(chunk.samples.count)
            chunk.floatSamples.withUnsafeBufferPointer { samples in
                guard let base = samples.baseAddress else { return }
                channels[0].update(from: base, count: samples.count)
            }
            return buffer
        }
    }

    extension AppleSynthesizer: StreamingSynthesizer {
        /// Speaks `request` with `AVSpeechSynthesizer.write(_:toBufferCallback:)`, handing out each buffer as the
        /// synthesiser produces it, at its own rate, as 16-bit samples of the first channel. Ending the iteration
        /// stops the synthesiser.
        public func stream(_ request: SynthesisRequest) -> SpeechStream<AudioBuffer> {
            let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
            let job = SynthesisJob(Self.utterance(for: request), continuation)
            // The handler holds the job, and the job the synthesiser, until the stream ends: AVSpeechSynthesizer stops
            // speaking (and calls back no more) when it is deallocated.
            continuation.onTermination { Task { await job.stop() } }
            return stream
        }
    }

    /// One `AVSpeechSynthesizer` writing one utterance; the actor owns it.
    private actor SynthesisJob {
        private let synthesizer = AVSpeechSynthesizer()

        init(_ utterance: AVSpeechUtterance, _ continuation: SpeechStream<AudioBuffer>.Continuation) {
            // The callback is called on the synthesiser's queue, one buffer at a time; it hands out values only.
            synthesizer.write(utterance) { buffer in
                guard let pcm = buffer as? AVAudioPCMBuffer else { return }
                if pcm.frameLength == 0 {
                    continuation.finish()
                } else {
                    continuation.yield(
                        AudioBuffer(samples: AppleAudio.samples(of: pcm), sampleRate: Int(pcm.format.sampleRate)))
                }
            }
        }

        func stop() {
            synthesizer.stopSpeaking(at: .immediate)
        }
    }

    /// Conversions between AVFoundation's buffers and ``AudioBuffer``.
    enum AppleAudio {
        /// 16 kHz mono interleaved 16-bit: what recognizers take. A new format each time (AVAudioFormat is not
        /// Sendable in the iOS 18 SDK, so it cannot be a shared constant).
        static func recognitionFormat() -> AVAudioFormat? {
            AVAudioFormat(
                commonFormat: .pcmFormatInt16, sampleRate: Double(AudioBuffer.recognitionSampleRate), channels: 1,
                interleaved: true)
        }

        /// The first channel of `buffer` as 16-bit samples (float samples through
        /// ``AudioBuffer/int16Samples(fromFloat:)``).
        static func samples(of buffer: AVAudioPCMBuffer) -> [Int16] {
            let count = Int(buffer.frameLength)
            if let channels = buffer.int16ChannelData {
                return Array(UnsafeBufferPointer(start: channels[0], count: count))
            }
            if let channels = buffer.floatChannelData {
                return AudioBuffer.int16Samples(fromFloat: UnsafeBufferPointer(start: channels[0], count: count))
            }
            return []
        }

        /// `buffer` resampled and mixed down to `format` (16 kHz mono 16-bit).
        static func convert(
            _ buffer: AVAudioPCMBuffer, with converter: AVAudioConverter, to format: AVAudioFormat
        ) -> [Int16] {
            let ratio = format.sampleRate / buffer.format.sampleRate
            let capacity = AVAudioFrameCount((Double(buffer.frameLength) * ratio).rounded(.up)) + 32
            guard let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: capacity) else { return [] }
            // The input block is `@Sendable` in current SDKs (Xcode 26), but `convert` calls it synchronously, on
            // this thread, before it returns: nothing else touches the flag or the buffer. Its one job is to hand
            // `buffer` over once, then answer "no data now" so the converter returns what it has.
            nonisolated(unsafe) var handedOver = false
            nonisolated(unsafe) let input = buffer
            var error: NSError?
            let status = converter.convert(to: output, error: &error) { _, inputStatus in
                if handedOver {
                    inputStatus.pointee = .noDataNow
                    return nil
                }
                handedOver = true
                inputStatus.pointee = .haveData
                return input
            }
            guard status != .error else { return [] }
            return samples(of: output)
        }

        /// `buffer` as an AVFoundation buffer in ``recognitionFormat()``.
        static func pcmBuffer(_ buffer: AudioBuffer) -> AVAudioPCMBuffer? {
            guard let format = recognitionFormat(),
                let pcm = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(buffer.samples.count)),
                let channels = pcm.int16ChannelData
            else { return nil }
            pcm.frameLength = AVAudioFrameCount(buffer.samples.count)
            buffer.samples.withUnsafeBufferPointer { samples in
                guard let base = samples.baseAddress else { return }
                channels[0].update(from: base, count: samples.count)
            }
            return pcm
        }
    }
#endif
