#if canImport(Subprocess)
    public import Foundation
    public import ParleyCore

    /// Audio from sox: a file in any format sox reads, or the default microphone through `rec` (ALSA or
    /// PulseAudio; sox's `AUDIODEV` environment variable picks another device). Either way it arrives as 16 kHz mono
    /// 16-bit PCM in chunks of about 100 ms (`--buffer 3200`), resampled and mixed down by sox.
    ///
    /// ```swift
    /// for try await chunk in SoxAudioSource.microphone().frames() { try await session.feed(chunk) }
    /// ```
    ///
    /// Runs a program, so it exists only where swift-subprocess does (Linux and macOS): an iOS build has no such
    /// type (use `AudioEngineSource` there).
    public struct SoxAudioSource: AudioSource {
        /// Where the audio comes from.
        public enum Input: Sendable, Hashable {
            /// A file, read to its end.
            case file(URL)
            /// The default capture device, until the iteration stops.
            case microphone
        }

        /// Where the audio comes from.
        public var input: Input
        /// The program for files (`sox`).
        public var soxProgram: String
        /// The program for the microphone (`rec`).
        public var recordProgram: String

        /// Creates a source.
        public init(_ input: Input, soxProgram: String = "sox", recordProgram: String = "rec") {
            self.input = input
            self.soxProgram = soxProgram
            self.recordProgram = recordProgram
        }

        /// A file's audio.
        public static func file(_ url: URL) -> Self { Self(.file(url)) }

        /// The default microphone's audio.
        public static func microphone() -> Self { Self(.microphone) }

        /// The audio in chunks. A file's stream ends at its end (and fails with `speech.audioFileMissing` when there
        /// is none); the microphone's fails with `speech.audioDeviceUnavailable` when there is no capture device.
        public func frames() -> SpeechStream<AudioBuffer> {
            let program: String
            let arguments: [String]
            switch input {
            case .file(let url):
                guard FileManager.default.fileExists(atPath: url.path) else {
                    return .of([], failingWith: ParleyError(.audioFileMissing, "no audio file at \(url.path)"))
                }
                program = soxProgram
                arguments = ["-q", "--buffer", "3200", url.path] + SoxFormat.raw16k
            case .microphone:
                program = recordProgram
                arguments = ["-q", "--buffer", "3200"] + SoxFormat.raw16k
            }
            let bytes = ProgramRunner.streamOutput(program, arguments)
            let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
            let task = Task {
                var framer = PCMFramer()
                do throws(ParleyError) {
                    for try await chunk in bytes {
                        let samples = framer.append(chunk)
                        if !samples.isEmpty { continuation.yield(AudioBuffer(samples: samples)) }
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

    /// Plays audio as it arrives through sox's `play`, so a person hears speech while it is being synthesised.
    ///
    /// The first chunk's sample rate is the stream's. On a machine without a sound device `play` fails at once and
    /// so does ``play(_:)``, with `speech.audioDeviceUnavailable`.
    ///
    /// Runs a program, so it exists only where swift-subprocess does (Linux and macOS).
    public struct SoxStreamingPlayer: AudioSink {
        /// The program to run.
        public var program: String

        /// Creates a player running `program` (looked up on `PATH`).
        public init(program: String = "play") {
            self.program = program
        }

        /// Plays `audio` to its end; cancelling the task stops `play`.
        public func play(_ audio: SpeechStream<AudioBuffer>) async throws(ParleyError) {
            var iterator = audio.makeAsyncIterator()
            guard let first = try await iterator.next() else { return }
            var pending: AudioBuffer? = first
            try await ProgramRunner.runFeeding(program, ["-q"] + SoxFormat.raw(sampleRate: first.sampleRate)) {
                () throws(ParleyError) -> [UInt8]? in
                if let buffer = pending {
                    pending = nil
                    return buffer.littleEndianBytes
                }
                return try await iterator.next()?.littleEndianBytes
            }
        }
    }
#endif
