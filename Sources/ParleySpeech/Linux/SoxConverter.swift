#if canImport(Subprocess)
    public import Foundation
    public import ParleyCore

    /// Audio conversion with `sox` (Debian package `sox`): what recognizers need is 16 kHz, mono, 16-bit PCM.
    ///
    /// Runs a program, so it exists only where swift-subprocess does (Linux and macOS): an iOS build has no such type.
    public struct SoxConverter: Sendable {
        /// The program to run.
        public var program: String

        /// Creates a converter running `program` (looked up on `PATH`).
        public init(program: String = "sox") {
            self.program = program
        }

        /// Converts `input` to a 16-bit mono WAV at `sampleRate` in `output`.
        public func convert(_ input: URL, to output: URL, sampleRate: Int = 16_000) async throws(ParleyError) {
            guard FileManager.default.fileExists(atPath: input.path) else {
                throw ParleyError(.audioFileMissing, "no audio file at \(input.path)")
            }
            _ = try await ProgramRunner.run(
                program,
                [input.path, "-r", String(sampleRate), "-c", "1", "-b", "16", "-e", "signed-integer", output.path])
        }

        /// The length of the audio in `file`, from `soxi -D`.
        public func duration(of file: URL) async throws(ParleyError) -> Duration {
            let output = try await ProgramRunner.run("soxi", ["-D", file.path])
            let seconds = Double(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            return Duration.milliseconds(checking: seconds * 1000) ?? .zero
        }
    }

    /// Playback through sox's `play` (needs a sound device; servers and CI use ``SilentPlayer``).
    ///
    /// Runs a program, so it exists only where swift-subprocess does (Linux and macOS): an iOS build has no such type.
    public struct SoxPlayer: AudioPlayer {
        /// Synthesises text items.
        public var synthesizer: any SpeechSynthesizer

        /// Creates a player that synthesises text with `synthesizer`.
        public init(synthesizer: any SpeechSynthesizer = EspeakSynthesizer()) {
            self.synthesizer = synthesizer
        }

        /// Plays `item` to its end; cancelling stops `play`.
        public func play(_ item: PlaybackItem) async throws(ParleyError) {
            switch item {
            case .file(let url):
                guard FileManager.default.fileExists(atPath: url.path) else {
                    throw ParleyError(.audioFileMissing, "no audio file at \(url.path)")
                }
                _ = try await ProgramRunner.run("play", ["-q", url.path])
            case .text(let request):
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "parley-\(UUID().uuidString).wav")
                defer { try? FileManager.default.removeItem(at: file) }
                try await synthesizer.synthesize(request, to: file)
                _ = try await ProgramRunner.run("play", ["-q", file.path])
            }
        }
    }
#endif
