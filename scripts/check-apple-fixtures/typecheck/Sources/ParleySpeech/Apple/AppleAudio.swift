// Apple audio: the microphone through AVAudioEngine and streaming synthesis with AVSpeechSynthesizer. Never compiled
// on Linux, where this package is developed: kept small and on long-standing API (iOS 17 / macOS 14).
#if canImport(AVFoundation)
    @preconcurrency import AVFoundation
    import ParleyCore

    /// The microphone through `AVAudioEngine`, converted to 16 kHz mono 16-bit by `AVAudioConverter`.
    ///
    /// The app configures its audio session (`AVAudioSession`, category `.playAndRecord` or `.record`) and asks for
    /// the microphone (``SystemPermissionSource``) first. Ending the iteration removes the tap and stops the engine.
    public struct AudioEngineSource: AudioSource {
        /// Creates a source on the shared input node.
        public init() {}

        /// The microphone's audio until the iteration stops; fails with `speech.audioDeviceUnavailable` when the
        /// engine has no input or does not start.
        public func frames() -> SpeechStream<AudioBuffer> {
            let engine = AVAudioEngine()
            let input = engine.inputNode
            let inputFormat = input.outputFormat(forBus: 0)
            guard inputFormat.sampleRate > 0, inputFormat.channelCount > 0,
                let target = AppleAudio.recognitionFormat,
                let converter = AVAudioConverter(from: inputFormat, to: target)
            else {
                return .of(
                    [], failingWith: ParleyError(.audioDeviceUnavailable, "AVAudioEngine has no microphone input"))
            }
            let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
            // About 100 ms of the input's own rate per tap call.
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
                return .of(
                    [],
                    failingWith: ParleyError(
                        .audioDeviceUnavailable, "AVAudioEngine did not start: \(error)", underlying: error))
            }
            continuation.onTermination {
                engine.inputNode.removeTap(onBus: 0)
                engine.stop()
            }
            return stream
        }
    }

    extension AppleSynthesizer: StreamingSynthesizer {
        /// Speaks `request` with `AVSpeechSynthesizer.write(_:toBufferCallback:)`, handing out each buffer as the
        /// synthesiser produces it, at its own rate, as 16-bit samples of the first channel. Ending the iteration
        /// stops the synthesiser.
        public func stream(_ request: SynthesisRequest) -> SpeechStream<AudioBuffer> {
            let utterance = Self.utterance(for: request)
            let synthesizer = AVSpeechSynthesizer()
            let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
            synthesizer.write(utterance) { buffer in
                guard let pcm = buffer as? AVAudioPCMBuffer else { return }
                if pcm.frameLength == 0 {
                    continuation.finish()
                } else {
                    continuation.yield(
                        AudioBuffer(samples: AppleAudio.samples(of: pcm), sampleRate: Int(pcm.format.sampleRate)))
                }
            }
            // The handler keeps the synthesiser alive until the stream ends.
            continuation.onTermination { synthesizer.stopSpeaking(at: .immediate) }
            return stream
        }
    }

    /// Conversions between AVFoundation's buffers and ``AudioBuffer``.
    enum AppleAudio {
        /// 16 kHz mono interleaved 16-bit: what recognizers take.
        static let recognitionFormat = AVAudioFormat(
            commonFormat: .pcmFormatInt16, sampleRate: Double(AudioBuffer.recognitionSampleRate), channels: 1,
            interleaved: true)

        /// The first channel of `buffer` as 16-bit samples (float samples are clipped to ±1 and scaled).
        static func samples(of buffer: AVAudioPCMBuffer) -> [Int16] {
            let count = Int(buffer.frameLength)
            if let channels = buffer.int16ChannelData {
                return Array(UnsafeBufferPointer(start: channels[0], count: count))
            }
            if let channels = buffer.floatChannelData {
                return (0..<count).map { Int16((max(-1, min(1, channels[0][$0])) * 32_767).rounded()) }
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
            var handedOver = false
            var error: NSError?
            let status = converter.convert(to: output, error: &error) { _, inputStatus in
                if handedOver {
                    inputStatus.pointee = .noDataNow
                    return nil
                }
                handedOver = true
                inputStatus.pointee = .haveData
                return buffer
            }
            guard status != .error else { return [] }
            return samples(of: output)
        }

        /// `buffer` as an AVFoundation buffer in ``recognitionFormat``.
        static func pcmBuffer(_ buffer: AudioBuffer) -> AVAudioPCMBuffer? {
            guard let format = recognitionFormat,
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
