#if canImport(Subprocess)
    public import Foundation
    public import ParleyCore

    /// Speech recognition with CMU PocketSphinx (Debian packages `pocketsphinx` and `pocketsphinx-en-us`), run as
    /// `pocketsphinx_continuous -infile`.
    ///
    /// Debian's 0.8 program reads a 16 kHz, mono, 16-bit WAV or raw file and prints one hypothesis line per utterance;
    /// its default model is the packaged en-US one in `/usr/share/pocketsphinx/model/en-us`. Audio in any other format
    /// is converted with ``SoxConverter`` first. When the request lists phrases, recognition is restricted to them with
    /// a JSGF grammar, which makes short commands reliable; without phrases the packaged language model is used.
    ///
    /// ```swift
    /// let recognizer = PocketsphinxRecognizer()
    /// let heard = try await recognizer.recognize(
    ///     RecognitionRequest(taskID: "demo", audioFile: wav, phrases: ["go to sleep", "keep chatting"]))
    /// ```
    ///
    /// Runs a program, so it exists only where swift-subprocess does (Linux and macOS): an iOS build has no such type.
    public struct PocketsphinxRecognizer: SpeechRecognizer {
        /// `pocketSphinx`, as voice flows spell it.
        public let engine = "pocketSphinx"
        /// The program to run.
        public var program: String
        /// The model folder, such as `/usr/share/pocketsphinx/model/en-us`; `nil` for the program's default.
        public var modelFolder: URL?
        /// Converts input audio to 16 kHz mono.
        public var converter: SoxConverter

        /// Creates a recognizer.
        public init(
            program: String = "pocketsphinx_continuous", modelFolder: URL? = nil,
            converter: SoxConverter = SoxConverter()
        ) {
            self.program = program
            self.modelFolder = modelFolder
            self.converter = converter
        }

        /// Recognises `request.audioFile` (required: this engine does not capture live audio).
        /// - Returns: The hypotheses joined by spaces, or ``Recognition/noInput`` when nothing was recognised.
        public func recognize(_ request: RecognitionRequest) async throws(ParleyError) -> Recognition {
            guard let input = request.audioFile else {
                throw ParleyError(
                    .speechEngineUnavailable, "pocketsphinx recognises files: give the request an audioFile")
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-ps-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw ParleyError(.speechEngineFailed, "cannot create \(folder.path)", underlying: error)
            }
            defer { try? FileManager.default.removeItem(at: folder) }
            let wav = folder.appendingPathComponent("input.wav")
            try await converter.convert(input, to: wav)
            var arguments = ["-infile", wav.path, "-logfn", "/dev/null"]
            if let modelFolder {
                arguments += [
                    "-hmm", modelFolder.appendingPathComponent("en-us").path,
                    "-dict", modelFolder.appendingPathComponent("cmudict-en-us.dict").path,
                ]
                if request.phrases.isEmpty {
                    arguments += ["-lm", modelFolder.appendingPathComponent("en-us.lm.bin").path]
                }
            }
            let phrases = request.phrases.map(Self.normalize).filter { !$0.isEmpty }
            if !phrases.isEmpty {
                let grammar = folder.appendingPathComponent("phrases.gram")
                try ScratchFile.write(Self.grammar(for: phrases), to: grammar)
                arguments += ["-jsgf", grammar.path]
            }
            let output = try await ProgramRunner.run(program, arguments)
            let text = output.standardOutput.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("READY") && !$0.hasPrefix("Listening") }
                .joined(separator: " ")
            return text.isEmpty ? .noInput : .hypothesis(text)
        }

        /// A JSGF grammar accepting exactly `phrases`.
        static func grammar(for phrases: [String]) -> String {
            PhraseGrammar.jsgf(for: phrases)
        }

        /// Lowercase words of letters, digits and apostrophes: what the en-US dictionary spells.
        static func normalize(_ phrase: String) -> String {
            PhraseGrammar.normalize(phrase)
        }
    }
#endif
