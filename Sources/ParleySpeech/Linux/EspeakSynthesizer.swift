#if canImport(Subprocess)
    public import Foundation
    public import ParleyCore

    /// Speech synthesis with `espeak-ng` (Debian package `espeak-ng`), run as a program.
    ///
    /// ```swift
    /// let synthesizer = EspeakSynthesizer()
    /// try await synthesizer.synthesize(
    ///     SynthesisRequest(text: "Turning off."), to: URL(fileURLWithPath: "/tmp/off.wav"))
    /// ```
    ///
    /// Aliases are applied to the text before it is spoken. IPA phonemes are passed as SSML
    /// `<phoneme alphabet="ipa" ph="…">` elements with espeak-ng's SSML mode on; espeak-ng 1.51 reads the element but
    /// speaks the word's own text, so phoneme entries only take effect on engines that honour them (Apple).
    ///
    /// Runs a program, so it exists only where swift-subprocess does (Linux and macOS): an iOS build has no such type.
    public struct EspeakSynthesizer: SpeechSynthesizer {
        /// `espeak-ng`.
        public let engine = "espeak-ng"
        /// The program to run.
        public var program: String
        /// Words per minute (espeak-ng's `-s`).
        public var wordsPerMinute: Int

        /// Creates a synthesizer running `program` (looked up on `PATH`).
        public init(program: String = "espeak-ng", wordsPerMinute: Int = 150) {
            self.program = program
            self.wordsPerMinute = wordsPerMinute
        }

        /// The voices of `espeak-ng --voices`.
        public func voices() async throws(ParleyError) -> [SynthesisVoice] {
            let output = try await ProgramRunner.run(program, ["--voices"])
            return Self.parseVoices(output.standardOutput)
        }

        /// Parses the table `espeak-ng --voices` prints (`Pty Language Age/Gender VoiceName File Other Languages`).
        static func parseVoices(_ table: String) -> [SynthesisVoice] {
            table.split(separator: "\n").dropFirst().compactMap { line in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count >= 5 else { return nil }
                let gender: String =
                    switch columns[2].split(separator: "/").last.map(String.init) ?? "" {
                    case "M": "male"
                    case "F": "female"
                    default: "unknown"
                    }
                return SynthesisVoice(
                    engine: "espeak-ng", identifier: String(columns[4]), name: String(columns[3]),
                    language: String(columns[1]), gender: gender
                )
            }
        }

        /// Writes `request` as a WAV file (22,050 Hz mono, 16-bit).
        public func synthesize(_ request: SynthesisRequest, to file: URL) async throws(ParleyError) {
            _ = try await ProgramRunner.run(program, ["-w", file.path] + arguments(for: request))
        }

        /// The voice, rate, SSML switch and text of `request`, as espeak-ng's arguments.
        func arguments(for request: SynthesisRequest) -> [String] {
            var arguments = ["-s", String(wordsPerMinute), "-v", request.voice ?? request.language.lowercased()]
            if request.isSSML || !request.pronunciations.phonemes.isEmpty { arguments.append("-m") }
            return arguments + ["--", Self.text(for: request)]
        }

        /// The text handed to espeak-ng: aliases applied, phonemes wrapped in SSML.
        static func text(for request: SynthesisRequest) -> String {
            var text = request.pronunciations.apply(to: request.text)
            guard !request.pronunciations.phonemes.isEmpty else { return text }
            if !request.isSSML { text = escape(text) }
            for (word, ipa) in request.pronunciations.phonemes.sorted(by: { $0.key.count > $1.key.count }) {
                let element = "<phoneme alphabet=\"ipa\" ph=\"\(escape(ipa))\">\(escape(word))</phoneme>"
                text = Pronunciations.replaceWord(escape(word), with: element, in: text)
            }
            return request.isSSML ? text : "<speak>\(text)</speak>"
        }

        private static func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
    }
#endif
