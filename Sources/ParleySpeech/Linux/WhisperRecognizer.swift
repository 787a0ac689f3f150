public import ParleyCore

#if canImport(Subprocess)
    public import Foundation

    /// Streaming recognition with OpenAI's Whisper, run by faster-whisper (CTranslate2) on the CPU in a long-lived
    /// worker process (`docs/speech.md`, "Whisper").
    ///
    /// The worker (`whisper_worker.py`, a resource of this module, run with `python3`) loads the model once — from a
    /// folder, never from the network — and decodes utterances sent to it over its standard input in a small framed
    /// protocol. Every session of one recognizer value (and its copies) shares that worker; at most
    /// ``Configuration/maxConcurrentRecognitions`` sessions run at once, and one more is refused with
    /// `speech.engineBusy`. A worker that dies is started again by the next request (a request it died in is sent
    /// once more).
    ///
    /// Sessions find speech and its end with the energy ``VoiceActivityDetector`` (the request's `endSilence` as
    /// hangover), report partial results by decoding the growing utterance at a bounded rate while the speaker talks,
    /// and the final (with up to `maxAlternatives` alternatives from a beam search) once speech has ended. The
    /// request's phrases become Whisper's prompt, so a pizza channel hears "pizza"; they are hints, not a grammar.
    ///
    /// ```swift
    /// let recognizer = WhisperRecognizer(modelFolder: URL(fileURLWithPath: "/srv/models/whisper-base"))
    /// try await recognizer.start()    // optional: loads the model now rather than at the first session
    /// let session = try await recognizer.startSession(StreamingRecognitionRequest(phrases: ["pizza"]))
    /// ```
    ///
    /// Where programs can be run (`#if canImport(Subprocess)`: Linux and macOS); never in an iOS app.
    public struct WhisperRecognizer: StreamingRecognizer {
        /// How the engine runs; the defaults suit a small server.
        public struct Configuration: Sendable, Hashable {
            /// The Python that runs the worker (with faster-whisper installed). Default `python3` on the `PATH`.
            public var python: String
            /// The worker program; nil for the one shipped with ParleySpeech (`whisper_worker.py`).
            public var workerScript: URL?
            /// CPU threads the worker decodes with; 0 for as many as there are cores (at most 4).
            public var threads: Int
            /// CTranslate2's compute type. Default `int8`.
            public var computeType: String
            /// The most sessions at once; one more is refused with `speech.engineBusy`. Default 4.
            public var maxConcurrentRecognitions: Int
            /// The least audio between two partial decodes of an utterance. Default 300 ms.
            public var partialInterval: Duration
            /// The least growth of the utterance between two partial decodes, as a fraction of its length: partial
            /// decodes then cost a bounded multiple of the audio. Default 0.5.
            public var partialGrowth: Double
            /// The beam of the final decode (at least the request's `maxAlternatives`); partials are greedy. Default
            /// 5, Whisper's own (on the bench's spoken set a beam of 5 heard as well as 3 and a held-out set better;
            /// greedy made a third more word errors: docs/speech.md, "Whisper against PocketSphinx").
            public var finalBeams: Int
            /// The silence added after the utterance before it is decoded. Whisper's encoder is not run on a whole
            /// 30 s window but on the utterance and this padding (a decode then costs about what the audio lasts;
            /// with much less, the decoder misses the end of short utterances). Default 5 s.
            public var padding: Duration
            /// The audio before the detected start of speech that is decoded with it. Default 300 ms.
            public var preRoll: Duration
            /// The pause after which the final's decode starts, before the end of speech is certain (it is dropped
            /// if speech resumes): the final then comes sooner after the end silence. `.zero` for never. Default
            /// 200 ms.
            public var speculationPause: Duration
            /// The energy detector's settings; each request's `endSilence` replaces the hangover.
            public var voiceActivity: VoiceActivityParameters
            /// Whisper's prompt for open dictation (a request without phrases), by language (`en` of `en-US`): the
            /// utterance is decoded as the text that follows it, so an assistant's question makes Whisper expect a
            /// reply to one. A request's phrases replace it; a language without an entry gets no prompt. Default
            /// `["en": "Hello, how can I help you today?"]` (fewer word errors than none on the bench's spoken set and
            /// on a held-out one: docs/speech.md, "Whisper against PocketSphinx").
            public var dictationPrompts: [String: String]

            /// Creates a configuration.
            public init(
                python: String = "python3", workerScript: URL? = nil, threads: Int = 0, computeType: String = "int8",
                maxConcurrentRecognitions: Int = 4, partialInterval: Duration = .milliseconds(300),
                partialGrowth: Double = 0.5, finalBeams: Int = 5, padding: Duration = .seconds(5),
                preRoll: Duration = .milliseconds(300), speculationPause: Duration = .milliseconds(200),
                voiceActivity: VoiceActivityParameters = VoiceActivityParameters(),
                dictationPrompts: [String: String] = Configuration.defaultDictationPrompts
            ) {
                self.python = python
                self.workerScript = workerScript
                self.threads = threads
                self.computeType = computeType
                self.maxConcurrentRecognitions = max(1, maxConcurrentRecognitions)
                self.partialInterval = partialInterval
                self.partialGrowth = max(0, partialGrowth)
                self.finalBeams = max(1, finalBeams)
                self.padding = padding
                self.preRoll = preRoll
                self.speculationPause = speculationPause
                self.voiceActivity = voiceActivity
                self.dictationPrompts = dictationPrompts
            }

            /// The default ``dictationPrompts``: English only.
            public static let defaultDictationPrompts = ["en": "Hello, how can I help you today?"]
        }

        /// `whisper`.
        public let engine = "whisper"
        /// The model folder: a CTranslate2 conversion of Whisper (`model.bin`, `config.json`, `tokenizer.json`).
        public let modelFolder: URL
        /// How the engine runs.
        public let configuration: Configuration
        let worker: WhisperWorker

        /// Creates a recognizer for the model in `modelFolder`. Nothing starts until ``start()`` or the first session.
        public init(modelFolder: URL, configuration: Configuration = Configuration()) {
            self.modelFolder = modelFolder
            self.configuration = configuration
            let threads =
                configuration.threads > 0
                ? configuration.threads : min(4, ProcessInfo.processInfo.activeProcessorCount)
            worker = WhisperWorker(
                launch: WhisperWorker.Launch(
                    python: configuration.python, script: configuration.workerScript ?? Self.bundledWorker,
                    model: modelFolder, threads: threads, computeType: configuration.computeType),
                maxSessions: configuration.maxConcurrentRecognitions)
        }

        /// `whisper_worker.py` in ParleySpeech's resources.
        public static var bundledWorker: URL {
            Bundle.module.url(forResource: "whisper_worker", withExtension: "py")
                ?? Bundle.module.bundleURL.appendingPathComponent("whisper_worker.py")
        }

        /// The locales Whisper hears, when the model folder holds a model: English only for an English-only model
        /// (a `config.json` without `lang_ids`), else the languages below; nothing without a model.
        public func locales() async -> [String] {
            guard Self.modelProblem(in: modelFolder) == nil else { return [] }
            let configuration = try? JSONSerialization.jsonObject(
                with: Data(contentsOf: modelFolder.appendingPathComponent("config.json")))
            let languages = ((configuration as? [String: Any])?["lang_ids"] as? [Any])?.count ?? 0
            return languages > 1 ? Self.multilingualLocales : ["en-US"]
        }

        /// The locales offered with a multilingual model (Whisper hears about a hundred languages; these are those
        /// it hears well at the base size and above).
        public static let multilingualLocales = [
            "en-US", "en-GB", "en-AU", "en-IN", "fr-FR", "fr-CA", "de-DE", "es-ES", "es-MX", "it-IT", "pt-BR", "pt-PT",
            "nl-NL", "sv-SE", "da-DK", "nb-NO", "fi-FI", "pl-PL", "cs-CZ", "ru-RU", "uk-UA", "tr-TR", "ja-JP", "ko-KR",
            "zh-CN",
        ]

        /// Starts the worker and loads the model now, so the first session does not wait for it.
        /// - Throws: `speech.engineUnavailable` when the model folder, `python3` or faster-whisper is missing;
        ///   `speech.engineFailed` when the model cannot be loaded.
        public func start() async throws(ParleyError) {
            try await worker.start()
        }

        /// Stops the worker (it finishes what it was asked first). A later session starts a new one.
        public func shutdown() async {
            await worker.shutdown()
        }

        /// Starts a session for one utterance.
        /// - Throws: `speech.engineUnavailable` when the model, `python3` or faster-whisper is missing, or the
        ///   locale is not one of ``locales()``; `speech.engineFailed` when the model cannot be loaded;
        ///   `speech.engineBusy` when ``Configuration/maxConcurrentRecognitions`` sessions run.
        public func startSession(_ request: StreamingRecognitionRequest) async throws(ParleyError)
            -> any RecognitionSession
        {
            let locales = await locales()
            guard !locales.isEmpty else {
                throw Self.modelProblem(in: modelFolder)
                    ?? ParleyError(.speechEngineUnavailable, "no Whisper model in \(modelFolder.path)")
            }
            let language = Self.language(of: request.locale)
            guard locales.contains(where: { Self.language(of: $0) == language }) else {
                throw ParleyError(
                    .speechEngineUnavailable,
                    "the Whisper model in \(modelFolder.path) does not hear \(request.locale)")
            }
            try await worker.admit()
            do {
                try await worker.start()
            } catch {
                await worker.leave()
                throw error
            }
            let session = WhisperSession(
                request: request, worker: worker, configuration: configuration, language: language)
            await session.cancelWhenAbandoned()
            return session
        }

        /// Why `folder` holds no usable model: `speech.engineUnavailable` naming what is missing; nil when the files
        /// are there (whether they load is found by starting the worker).
        public static func modelProblem(in folder: URL) -> ParleyError? {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                return ParleyError(
                    .speechEngineUnavailable,
                    "no Whisper model folder at \(folder.path) (docs/speech.md, \"Whisper\", says where models come "
                        + "from; scripts/test assembles Whisper base)")
            }
            let missing = ["model.bin", "config.json", "tokenizer.json"].filter {
                !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
            guard missing.isEmpty else {
                return ParleyError(
                    .speechEngineUnavailable,
                    "the Whisper model folder \(folder.path) has no \(missing.joined(separator: ", ")): it must hold a "
                        + "CTranslate2 conversion of Whisper")
            }
            return nil
        }

        /// The language of a locale tag: `en` of `en-US`.
        static func language(of locale: String) -> String {
            String(locale.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "en")
        }

        /// The worker's process identifier while one runs (tests kill it).
        var workerProcessIdentifier: Int32? {
            get async { await worker.processIdentifier }
        }
    }
#endif
