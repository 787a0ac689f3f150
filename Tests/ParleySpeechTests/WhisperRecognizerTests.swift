#if canImport(Subprocess) && os(Linux)
    import Foundation
    import Glibc
    import ParleyCore
    import Testing

    @testable import ParleySpeech

    /// The Whisper base model the tests use: `PARLEY_WHISPER_MODEL` (scripts/test assembles it and sets it, with
    /// `PARLEY_REQUIRE_WHISPER=1`). The suites run when the model is there or required: a required model that is
    /// missing fails them; without either they are reported as skipped with this reason.
    enum WhisperTestModel {
        static var folder: URL {
            URL(
                fileURLWithPath: ProcessInfo.processInfo.environment["PARLEY_WHISPER_MODEL"]
                    ?? NSHomeDirectory() + "/.cache/parley/models/whisper-base")
        }

        static var required: Bool { ProcessInfo.processInfo.environment["PARLEY_REQUIRE_WHISPER"] == "1" }

        static var runs: Bool {
            required || FileManager.default.fileExists(atPath: folder.appendingPathComponent("model.bin").path)
        }

        static let reason: Comment = "no Whisper model: run scripts/test, or set PARLEY_WHISPER_MODEL"

        /// `text` spoken by espeak-ng at 16 kHz, with silence before and after.
        static func spoken(_ text: String, voice: String? = nil, after: Duration = .milliseconds(1_200)) async throws
            -> [Int16]
        {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-whisper-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let wav = folder.appendingPathComponent("speech.wav")
            try await EspeakSynthesizer().synthesize(SynthesisRequest(text: text, voice: voice), to: wav)
            let chunks = try await SoxAudioSource.file(wav).frames().collect()
            let silence = { (duration: Duration) in
                [Int16](repeating: 0, count: AudioBuffer.samples(in: duration, sampleRate: 16_000))
            }
            return silence(.milliseconds(300)) + chunks.flatMap(\.samples) + silence(after)
        }

        /// Lowercase words without punctuation, for comparing what was heard.
        static func words(_ text: String) -> String {
            String(text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "'" ? $0 : " " })
                .split(separator: " ").joined(separator: " ")
        }
    }

    /// Feeds `audio` to a session in 3,001-byte chunks, as a browser sends it, and collects the events.
    func recognize(_ audio: [Int16], with session: any RecognitionSession) async throws -> [RecognitionEvent] {
        let bytes = AudioBuffer(samples: audio).littleEndianBytes
        async let events = session.events.collect()
        for start in stride(from: 0, to: bytes.count, by: 3_001) {
            try await session.feed(bytes: Array(bytes[start..<min(start + 3_001, bytes.count)]))
        }
        return try await events
    }

    @Suite(
        "Whisper recognizer", .serialized, .enabled(if: WhisperTestModel.runs, WhisperTestModel.reason),
        .timeLimit(.minutes(5)))
    struct WhisperRecognizerTests {
        /// One recognizer (one worker, one model load) for the suite's tests that need a working one.
        static let recognizer = WhisperRecognizer(modelFolder: WhisperTestModel.folder)

        @Test func theModelIsThere() {
            #expect(
                WhisperRecognizer.modelProblem(in: WhisperTestModel.folder) == nil,
                "PARLEY_WHISPER_MODEL=\(WhisperTestModel.folder.path): \(WhisperTestModel.reason)")
        }

        /// Open dictation of what a chat user says, with the pizza channel's phrases as hints: partials while the
        /// audio comes, then the final, unprompted, once the speaker has stopped.
        @Test func hearsASentenceWithPartialsThenTheFinal() async throws {
            let audio = try await WhisperTestModel.spoken("I would like to order a large pizza")
            let session = try await Self.recognizer.startSession(
                StreamingRecognitionRequest(phrases: ["pizza", "pepperoni", "large", "medium", "small"]))
            let events = try await recognize(audio, with: session)
            guard case .speechStarted = events.first, case .final(let result) = events.last else {
                Issue.record("not speech started … final: \(events)")
                return
            }
            #expect(WhisperTestModel.words(result.text) == "i would like to order a large pizza", "\(events)")
            #expect(result.alternatives.first?.text == result.text)
            #expect(result.alternatives.count <= 3)
            #expect((result.confidence ?? 0) > 0.3)
            let partials = events.compactMap { event -> String? in
                if case .partial(let partial) = event { partial.text } else { nil }
            }
            #expect(!partials.isEmpty, "partials while the sentence is spoken: \(events)")
            #expect(events.filter(\.isTerminal).count == 1)
        }

        /// The seed's command phrases, with themselves as hints (the server test sends them through the socket).
        @Test(arguments: ["turn on the lights", "turn off the lights", "go to sleep", "play some music"])
        func hearsTheSeedsPhrases(_ phrase: String) async throws {
            let audio = try await WhisperTestModel.spoken(phrase)
            let session = try await Self.recognizer.startSession(
                StreamingRecognitionRequest(
                    phrases: ["turn on the lights", "turn off the lights", "go to sleep", "play some music"]))
            let events = try await recognize(audio, with: session)
            guard case .final(let result) = events.last else {
                Issue.record("no final: \(events)")
                return
            }
            // The best hypothesis, or one of the n-best list (Whisper base hears "turn on the light" first for
            // espeak-ng's "turn on the lights", with the phrase second).
            // Whisper base may also hear a plural as a singular ("turn on the light" alone).
            let singular = { (text: String) in text.hasSuffix("s") ? String(text.dropLast()) : text }
            #expect(
                result.alternatives.map { singular(WhisperTestModel.words($0.text)) }.contains(singular(phrase)),
                "\(events)")
            #expect(result.alternatives.first?.text == result.text)
        }

        /// Silence is no speech, without a decode inventing words.
        @Test func silenceIsNoSpeech() async throws {
            let session = try await Self.recognizer.startSession(
                StreamingRecognitionRequest(noSpeechTimeout: .seconds(1)))
            let events = try await recognize([Int16](repeating: 0, count: 24_000), with: session)
            #expect(events == [.noSpeech(after: .milliseconds(1_000))])
        }

        /// `finishAudio()` (Oracle's `Done`) forces the final although no silence followed the words.
        @Test func finishingTheAudioForcesTheFinal() async throws {
            let audio = try await WhisperTestModel.spoken("cancel my order", after: .milliseconds(50))
            let session = try await Self.recognizer.startSession(StreamingRecognitionRequest())
            async let events = session.events.collect()
            try await session.feed(AudioBuffer(samples: audio))
            await session.finishAudio()
            let collected = try await events
            guard case .final(let result) = collected.last else {
                Issue.record("no final: \(collected)")
                return
            }
            #expect(WhisperTestModel.words(result.text) == "cancel my order", "\(collected)")
        }

        @Test func aMissingModelFolderIsACodedErrorAtStart() async throws {
            let recognizer = WhisperRecognizer(modelFolder: URL(fileURLWithPath: "/nonexistent/whisper-base"))
            #expect(await recognizer.locales() == [])
            let error = await #expect(throws: ParleyError.self) {
                _ = try await recognizer.startSession(StreamingRecognitionRequest())
            }
            #expect(error?.code == .speechEngineUnavailable)
            #expect(error?.message.contains("/nonexistent/whisper-base") == true, "\(String(describing: error))")
        }

        /// A folder with the files but a model.bin that is not a model: the worker cannot load it, and the session
        /// fails at start with a coded error carrying the loader's reason.
        @Test func aBrokenModelIsACodedErrorAtStart() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "parley-broken-whisper-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            for name in ["config.json", "tokenizer.json", "vocabulary.txt"] {
                try FileManager.default.copyItem(
                    at: WhisperTestModel.folder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
            try Data(repeating: 7, count: 4_096).write(to: folder.appendingPathComponent("model.bin"))
            let recognizer = WhisperRecognizer(modelFolder: folder)
            let error = await #expect(throws: ParleyError.self) {
                _ = try await recognizer.startSession(StreamingRecognitionRequest())
            }
            #expect(error?.code == .speechEngineFailed, "\(String(describing: error))")
            #expect(error?.message.contains("model.broken") == true, "\(String(describing: error))")
            // The refused session left no slot taken, and the next try fails the same way (nothing is cached).
            let again = await #expect(throws: ParleyError.self) { try await recognizer.start() }
            #expect(again?.code == .speechEngineFailed)
        }

        /// A worker killed between recognitions is started again by the next one, which is heard as usual.
        @Test func aKilledWorkerIsStartedAgain() async throws {
            let recognizer = WhisperRecognizer(modelFolder: WhisperTestModel.folder)
            defer { Task { await recognizer.shutdown() } }
            try await recognizer.start()
            let first = try #require(await recognizer.workerProcessIdentifier)
            #expect(kill(first, SIGKILL) == 0)
            let audio = try await WhisperTestModel.spoken("go to sleep")
            let session = try await recognizer.startSession(StreamingRecognitionRequest(partialResults: false))
            let events = try await recognize(audio, with: session)
            guard case .final(let result) = events.last else {
                Issue.record("no final after the worker was killed: \(events)")
                return
            }
            #expect(WhisperTestModel.words(result.text) == "go to sleep")
            let second = try #require(await recognizer.workerProcessIdentifier)
            #expect(second != first)
            #expect(await recognizer.worker.launches == 2)
        }

        /// Past the cap a session is refused at once with a coded error, not queued; a finished one frees its slot.
        @Test func sessionsPastTheCapAreRefused() async throws {
            let recognizer = WhisperRecognizer(
                modelFolder: WhisperTestModel.folder,
                configuration: WhisperRecognizer.Configuration(maxConcurrentRecognitions: 1))
            defer { Task { await recognizer.shutdown() } }
            let first = try await recognizer.startSession(StreamingRecognitionRequest())
            let error = await #expect(throws: ParleyError.self) {
                _ = try await recognizer.startSession(StreamingRecognitionRequest())
            }
            #expect(error?.code == .speechEngineBusy)
            await first.cancel()
            let second = try await recognizer.startSession(StreamingRecognitionRequest())
            await second.cancel()
        }

        /// Malformed frames get coded error replies and the worker goes on serving.
        @Test func theWorkerSurvivesBadFrames() async throws {
            let worker = Self.recognizer.worker
            try await worker.start()
            let pid = await worker.processIdentifier
            try await worker.sendRaw(Array("hello, worker".utf8))
            #expect(await worker.nextStray().error?.code == "frame.badMagic")
            try await worker.sendRaw(
                WhisperFrames.magic + WhisperFrames.bigEndian(5) + Array("{nope".utf8) + [0, 0, 0, 0])
            #expect(await worker.nextStray().error?.code == "frame.badHeader")
            try await worker.sendRaw(WhisperFrames.magic + WhisperFrames.bigEndian(1 << 30))
            #expect(await worker.nextStray().error?.code == "frame.tooLarge")
            // What followed the oversized length was taken for garbage: the next frame is found by its magic.
            let odd = WhisperFrames.encode(
                header: WhisperRequest(id: 99_999, padSeconds: 1), payload: [1, 2, 3])
            try await worker.sendRaw(odd)
            let refusal = await worker.nextStray()
            #expect(refusal.id == 99_999)
            #expect(refusal.error?.code == "audio.badLength")
            let audio = try await WhisperTestModel.spoken("play some music")
            let reply = try await worker.decode(WhisperRequest(id: 0, padSeconds: 5), audio: audio)
            #expect(WhisperTestModel.words(reply.text ?? "") == "play some music")
            #expect(await worker.processIdentifier == pid, "the same worker answered")
        }
    }

    /// What a session asks the worker, seen through a stand-in worker that answers every decode with its request's
    /// prompt and beam: no model needed, only a folder that looks like one.
    @Suite("Whisper requests", .serialized, .timeLimit(.minutes(2)))
    struct WhisperRequestTests {
        static let echo = """
            import json, struct, sys
            def send(header):
                body = json.dumps(header).encode()
                sys.stdout.buffer.write(b"PRLY" + struct.pack(">I", len(body)) + body + struct.pack(">I", 0))
                sys.stdout.buffer.flush()
            send({"event": "ready"})
            while True:
                head = sys.stdin.buffer.read(8)
                if len(head) < 8:
                    break
                header = json.loads(sys.stdin.buffer.read(struct.unpack(">I", head[4:])[0]))
                sys.stdin.buffer.read(struct.unpack(">I", sys.stdin.buffer.read(4))[0])
                text = "prompt " + (header.get("prompt") or "none") + " beams " + str(header["beams"])
                send({"id": header["id"], "text": text, "alternatives": [{"text": text, "confidence": 0.9}]})
            """

        /// The final's words for one utterance (a tone between silences), heard through the stand-in worker.
        func heard(_ request: StreamingRecognitionRequest, _ configuration: WhisperRecognizer.Configuration)
            async throws -> String
        {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-whisper-echo-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            for name in ["model.bin", "tokenizer.json"] {
                try Data().write(to: folder.appendingPathComponent(name))
            }
            try Data("{}".utf8).write(to: folder.appendingPathComponent("config.json"))
            let script = folder.appendingPathComponent("echo_worker.py")
            try Data(Self.echo.utf8).write(to: script)
            var configuration = configuration
            configuration.workerScript = script
            let recognizer = WhisperRecognizer(modelFolder: folder, configuration: configuration)
            defer { Task { await recognizer.shutdown() } }
            let silence = [Int16](repeating: 0, count: 16_000)
            let tone = (0..<16_000).map { Int16(8_000 * sin(Double($0) * 2 * .pi * 300 / 16_000)) }
            var request = request
            request.partialResults = false
            let events = try await recognize(
                silence + tone + silence + silence, with: try await recognizer.startSession(request))
            guard case .final(let result) = events.last else {
                Issue.record("no final: \(events)")
                return ""
            }
            return WhisperTestModel.words(result.text)
        }

        @Test func openDictationIsPromptedInItsLanguageAndPhrasesReplaceThePrompt() async throws {
            let configuration = WhisperRecognizer.Configuration()
            #expect(
                try await heard(StreamingRecognitionRequest(), configuration)
                    == "prompt hello how can i help you today beams 5")
            #expect(
                try await heard(StreamingRecognitionRequest(phrases: ["pizza", "large"]), configuration)
                    == "prompt pizza large beams 5")
            var unprompted = configuration
            unprompted.dictationPrompts = [:]
            unprompted.finalBeams = 3
            #expect(try await heard(StreamingRecognitionRequest(), unprompted) == "prompt none beams 3")
        }
    }
#endif
