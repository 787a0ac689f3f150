#if os(Linux)
    public import Foundation
    public import ParleyCore
    import Glibc

    /// Streaming recognition with CMU PocketSphinx, the library itself (not its program), loaded at run time.
    ///
    /// Audio is decoded as it is fed: partial hypotheses come while the speaker talks, and PocketSphinx's own
    /// voice-activity detector finds the end of speech, so the final comes unprompted once the speaker has been
    /// quiet for ``StreamingRecognitionRequest/endSilence`` (its `-vad_postspeech`).
    ///
    /// ```swift
    /// let recognizer = PocketsphinxStreamingRecognizer()
    /// let session = try await recognizer.startSession(StreamingRecognitionRequest(phrases: ["turn on the lights"]))
    /// try await session.feed(bytes: chunk)          // as the socket delivers it
    /// for try await event in session.events { … }   // .speechStarted, .partial…, .final
    /// ```
    ///
    /// The libraries are Debian's `libpocketsphinx3` and `libsphinxbase3` (0.8+5prealpha), the model
    /// `pocketsphinx-en-us`; they are opened with `dlopen` when the first session starts, so Parley builds and runs
    /// without them, and a session then fails with `speech.engineUnavailable` naming the packages. With phrases,
    /// recognition is restricted to them by a JSGF grammar; without, the en-US language model is used (slower to
    /// load, and much less reliable on synthetic voices). Each session loads the model anew (about 0.08 s with a
    /// grammar, 0.26 s with the language model).
    ///
    /// Linux only (`#if os(Linux)`): Apple platforms use `AppleStreamingRecognizer`.
    public struct PocketsphinxStreamingRecognizer: StreamingRecognizer {
        /// `pocketSphinx`, as voice flows spell it.
        public let engine = "pocketSphinx"
        /// The model folder: `en-us` (acoustic model), `cmudict-en-us.dict` and `en-us.lm.bin` inside.
        public var modelFolder: URL
        /// The locale the model recognises.
        public var locale: String
        /// The PocketSphinx library to open (a file name for the linker's search, or a path).
        public var library: String
        /// The SphinxBase library to open.
        public var baseLibrary: String

        /// Creates a recognizer with Debian's en-US model and libraries.
        public init(
            modelFolder: URL = URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us"), locale: String = "en-US",
            library: String = "libpocketsphinx.so.3", baseLibrary: String = "libsphinxbase.so.3"
        ) {
            self.modelFolder = modelFolder
            self.locale = locale
            self.library = library
            self.baseLibrary = baseLibrary
        }

        /// ``locale`` when its model is installed, else nothing.
        public func locales() async -> [String] {
            FileManager.default.fileExists(atPath: modelFolder.appendingPathComponent("en-us").path) ? [locale] : []
        }

        /// Loads the engine and starts listening.
        /// - Throws: `speech.engineUnavailable` when the libraries or the model are missing (naming the Debian
        ///   packages), or for another locale; `speech.engineFailed` when PocketSphinx rejects the configuration
        ///   (such as a phrase with a word its dictionary lacks).
        public func startSession(_ request: StreamingRecognitionRequest) async throws(ParleyError)
            -> any RecognitionSession
        {
            guard request.locale.lowercased() == locale.lowercased() else {
                throw ParleyError(
                    .speechEngineUnavailable, "PocketSphinx has a model for \(locale), not for \(request.locale)")
            }
            let library = try libraryHandle().get()
            let acoustic = modelFolder.appendingPathComponent("en-us")
            guard FileManager.default.fileExists(atPath: acoustic.path) else {
                throw ParleyError(
                    .speechEngineUnavailable,
                    "no PocketSphinx model in \(modelFolder.path): install Debian's pocketsphinx-en-us")
            }
            let frames = max(1, Int(request.endSilence / .milliseconds(10)))
            var arguments = [
                "-hmm", acoustic.path, "-dict", modelFolder.appendingPathComponent("cmudict-en-us.dict").path,
                "-vad_postspeech", String(frames),
            ]
            let phrases = request.phrases.map(PhraseGrammar.normalize).filter { !$0.isEmpty }
            var grammar: URL?
            if phrases.isEmpty {
                arguments += ["-lm", modelFolder.appendingPathComponent("en-us.lm.bin").path]
            } else {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "parley-\(UUID().uuidString).gram")
                try ScratchFile.write(PhraseGrammar.jsgf(for: phrases), to: file)
                grammar = file
                arguments += ["-jsgf", file.path]
            }
            defer { if let grammar { try? FileManager.default.removeItem(at: grammar) } }
            let decoder = try PocketsphinxDecoder(library: library, arguments: arguments, phrases: Set(phrases))
            let session = DecoderSession(decoder: decoder, request: request)
            await session.cancelWhenAbandoned()
            return session
        }

        private func libraryHandle() -> Result<PocketsphinxLibrary, ParleyError> {
            if library == "libpocketsphinx.so.3", baseLibrary == "libsphinxbase.so.3" {
                return PocketsphinxLibrary.shared
            }
            return PocketsphinxLibrary.load(pocketsphinx: library, sphinxbase: baseLibrary)
        }
    }

    /// One PocketSphinx decoder (`ps_decoder_t`) and its configuration, for one utterance.
    final class PocketsphinxDecoder: SpeechDecoder {
        /// PocketSphinx's frames per second (`-frate`'s default): segment times are in these.
        static let framesPerSecond = 100

        private let library: PocketsphinxLibrary
        private var decoder: OpaquePointer?
        private var configuration: OpaquePointer?
        private var argumentStrings: [UnsafeMutablePointer<CChar>?]
        /// The grammar's phrases; empty for the language model. PocketSphinx's n-best list, read from the lattice,
        /// also holds unfinished paths through a grammar ("turn on" for "turn on the lights"): they are left out.
        private let phrases: Set<String>

        init(library: PocketsphinxLibrary, arguments: [String], phrases: Set<String> = []) throws(ParleyError) {
            self.library = library
            self.phrases = phrases
            // The strings stay allocated until close(): the configuration may point into them.
            argumentStrings = (["parley"] + arguments).map { strdup($0) }
            let count = Int32(argumentStrings.count)
            configuration = PocketsphinxLibrary.lifecycle.withLock {
                argumentStrings.withUnsafeMutableBufferPointer { vector in
                    library.parseArguments(nil, library.arguments(), count, vector.baseAddress, 1)
                }
            }
            guard configuration != nil else {
                close()
                throw ParleyError(
                    .speechEngineFailed,
                    "PocketSphinx rejected its configuration: \(arguments.joined(separator: " "))")
            }
            decoder = PocketsphinxLibrary.lifecycle.withLock { library.initialize(configuration) }
            guard decoder != nil else {
                close()
                throw ParleyError(
                    .speechEngineFailed,
                    "PocketSphinx could not load its model, dictionary or grammar (a phrase word missing from "
                        + "the dictionary does this): \(arguments.joined(separator: " "))")
            }
            guard library.startUtterance(decoder) >= 0 else {
                close()
                throw ParleyError(.speechEngineFailed, "PocketSphinx could not start an utterance")
            }
        }

        func process(_ samples: [Int16]) throws(ParleyError) -> Bool {
            guard let decoder else { throw ParleyError(.speechEngineFailed, "the PocketSphinx decoder is closed") }
            let searched = samples.withUnsafeBufferPointer { buffer in
                library.processRaw(decoder, buffer.baseAddress, buffer.count, 0, 0)
            }
            guard searched >= 0 else {
                throw ParleyError(.speechEngineFailed, "PocketSphinx failed to decode \(samples.count) samples")
            }
            return library.inSpeech(decoder) != 0
        }

        func hypothesis() -> String? {
            guard let decoder else { return nil }
            var score: Int32 = 0
            return library.hypothesis(decoder, &score).map { Self.words(String(cString: $0)) }
        }

        func finish(maxAlternatives: Int) throws(ParleyError) -> DecodedUtterance {
            guard let decoder else { throw ParleyError(.speechEngineFailed, "the PocketSphinx decoder is closed") }
            guard library.endUtterance(decoder) >= 0 else {
                throw ParleyError(.speechEngineFailed, "PocketSphinx could not end the utterance")
            }
            let text = hypothesis() ?? ""
            guard !text.isEmpty else { return DecodedUtterance(text: "") }
            // A posterior of exactly 0 (probability 1) is what PocketSphinx reports when it computed none (grammar
            // searches, partial results): no confidence then.
            let posterior = library.probability(decoder)
            let confidence =
                posterior == 0 ? nil : min(1, max(0, library.logmathExp(library.logmath(decoder), posterior)))
            var alternatives = [RecognitionAlternative(text: text, confidence: confidence)]
            var iterator = library.nbest(decoder)
            var visited = 0
            while let current = iterator, alternatives.count < maxAlternatives, visited < 50 {
                visited += 1
                var score: Int32 = 0
                if let hypothesis = library.nbestHypothesis(current, &score).map({ Self.words(String(cString: $0)) }),
                    !hypothesis.isEmpty, phrases.isEmpty || phrases.contains(hypothesis),
                    !alternatives.contains(where: { $0.text == hypothesis })
                {
                    alternatives.append(RecognitionAlternative(text: hypothesis))
                }
                iterator = library.nbestNext(current)
            }
            if let iterator { library.nbestFree(iterator) }
            return DecodedUtterance(
                text: text, alternatives: alternatives, confidence: confidence, words: segments(decoder))
        }

        /// The words of the best hypothesis with their times; fillers (`<s>`, `<sil>`, `[NOISE]`) left out.
        private func segments(_ decoder: OpaquePointer) -> [RecognizedWord] {
            var words: [RecognizedWord] = []
            var segment = library.segmentIterator(decoder)
            while let current = segment {
                var first: Int32 = 0
                var last: Int32 = 0
                library.segmentFrames(current, &first, &last)
                if let word = library.segmentWord(current).map({ Self.words(String(cString: $0)) }), !word.isEmpty {
                    words.append(
                        RecognizedWord(
                            text: word, start: .milliseconds(Int(first) * 1000 / Self.framesPerSecond),
                            end: .milliseconds((Int(last) + 1) * 1000 / Self.framesPerSecond)))
                }
                segment = library.segmentNext(current)
            }
            return words
        }

        func close() {
            PocketsphinxLibrary.lifecycle.withLock {
                if let decoder { _ = library.free(decoder) }
                if let configuration { _ = library.freeConfiguration(configuration) }
            }
            decoder = nil
            configuration = nil
            for string in argumentStrings { Glibc.free(string) }
            argumentStrings = []
        }

        /// `text` without fillers and alternative-pronunciation marks (`lights(2)`).
        static func words(_ text: String) -> String {
            text.split(separator: " ").compactMap { word -> String? in
                if word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("+") { return nil }
                if let open = word.firstIndex(of: "("), word.hasSuffix(")") { return String(word[..<open]) }
                return String(word)
            }.joined(separator: " ")
        }
    }
#endif
