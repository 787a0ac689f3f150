#if os(Linux)
    import Foundation
    import Glibc
    import NIOWebSocket
    import ParleyCore
    import Testing
    import WSCore

    @testable import ParleyServer
    @testable import ParleySpeech

    /// The Whisper model of the tests (scripts/test assembles it, sets `PARLEY_WHISPER_MODEL` and requires it with
    /// `PARLEY_REQUIRE_WHISPER=1`: then a missing model fails these tests rather than skipping them).
    enum ServerWhisperModel {
        static var folder: URL {
            URL(
                fileURLWithPath: ProcessInfo.processInfo.environment["PARLEY_WHISPER_MODEL"]
                    ?? NSHomeDirectory() + "/.cache/parley/models/whisper-base")
        }

        static var runs: Bool {
            ProcessInfo.processInfo.environment["PARLEY_REQUIRE_WHISPER"] == "1"
                || FileManager.default.fileExists(atPath: folder.appendingPathComponent("model.bin").path)
        }

        /// Lowercase words without punctuation.
        static func words(_ text: String?) -> String {
            String((text ?? "").lowercased().map { $0.isLetter || $0.isNumber || $0 == "'" ? $0 : " " })
                .split(separator: " ").joined(separator: " ")
        }
    }

    /// Oracle's recognition socket on the real server with the whisper engine: espeak-ng's voice in, Oracle's frames
    /// out, as the Web SDK sees them.
    @Suite(
        "Whisper through the recognition socket", .serialized,
        .enabled(if: ServerWhisperModel.runs, "no Whisper model: run scripts/test, or set PARLEY_WHISPER_MODEL"),
        .timeLimit(.minutes(5)))
    struct WhisperRecognitionSocketTests {
        /// One engine for the suite: its worker loads the model once and serves every server the tests start.
        static let recognizer = WhisperRecognizer(modelFolder: ServerWhisperModel.folder)
        static let commands = ChannelConfiguration(
            id: "voice", skill: .echo, speech: ChannelSpeech(enabled: true, phrases: SpeechAudio.phrases))
        static let pizza = ChannelConfiguration(
            id: "pizza", skill: .echo,
            speech: ChannelSpeech(enabled: true, phrases: ["pizza", "pepperoni", "margherita", "large", "medium"]))

        static func whisper(_ configuration: inout ServerConfiguration) {
            configuration.speech = SpeechConfiguration(recognizer: recognizer, synthesizer: nil)
        }

        /// The frames of one recognition of `text`, sent as the Web SDK sends it (3 kB frames, no `Done`).
        static func recognize(_ text: String, on server: TestServer, channel: String) async throws -> (
            [JSONValue], WebSocketCloseFrame?
        ) {
            let audio = try await SpeechAudio.spoken(text)
            let frames = FrameBox()
            let close = try await server.recognize(channel: channel, user: "alice") { socket in
                try await socket.send(audio: audio)
                frames.set(try await socket.rest())
            }
            return (frames.value, close)
        }

        /// The seed's command phrases (the voice channel's phrases are the hints), each on its own socket.
        @Test func hearsTheSeedsPhrases() async throws {
            try await withServer(channels: [Self.commands], configure: Self.whisper) { server in
                for phrase in SpeechAudio.phrases {
                    let (received, close) = try await Self.recognize(phrase, on: server, channel: "voice")
                    let finals = received.filter { $0["event"] == "finalResult" }
                    #expect(finals.count == 1, "\(received)")
                    #expect(received.last?["event"] == "finalResult", "\(received)")
                    // The best utterance or one of the n-best (as the recognizer test explains).
                    let heard: [String] = finals.first?.utterances ?? []
                    let words = heard.map { ServerWhisperModel.words($0) }
                    // Whisper base may hear a plural as a singular ("turn on the light" for "…lights").
                    let singular = { (text: String) in text.hasSuffix("s") ? String(text.dropLast()) : text }
                    #expect(words.map(singular).contains(singular(phrase)), "\(received)")
                    #expect(close?.closeCode == .normalClosure)
                }
            }
        }

        /// Open dictation on the pizza channel: partial results while the sentence arrives, then the final, unprompted.
        @Test func hearsAnOrderWithPartialResults() async throws {
            try await withServer(channels: [Self.pizza], configure: Self.whisper) { server in
                let (received, close) = try await Self.recognize(
                    "I would like to order a large pepperoni pizza", on: server, channel: "pizza")
                let partials = received.filter { $0["event"] == "partialResult" }
                #expect(!partials.isEmpty, "\(received)")
                #expect(received.last?["event"] == "finalResult")
                #expect(
                    ServerWhisperModel.words(received.last?.utterances?.first)
                        == "i would like to order a large pepperoni pizza", "\(received)")
                #expect((received.last?.utterances?.count ?? 0) <= 3)
                #expect(close?.closeCode == .normalClosure)
            }
        }

        /// The worker killed under a running server: the server stays up, and the next recognition starts a new
        /// worker and is heard.
        @Test func aKilledWorkerIsRestartedWithoutTakingTheServerDown() async throws {
            try await withServer(channels: [Self.commands], configure: Self.whisper) { server in
                try await Self.recognizer.start()
                let pid = try #require(await Self.recognizer.workerProcessIdentifier)
                #expect(kill(pid, SIGKILL) == 0)
                let (received, close) = try await Self.recognize("go to sleep", on: server, channel: "voice")
                #expect(ServerWhisperModel.words(received.last?.utterances?.first) == "go to sleep", "\(received)")
                #expect(close?.closeCode == .normalClosure)
                let restarted = try #require(await Self.recognizer.workerProcessIdentifier)
                #expect(restarted != pid)
            }
        }

        /// A model folder that is not there: the socket answers with the coded error frame and closes with 1011.
        @Test func aMissingModelIsRefusedWithACode() async throws {
            let missing = WhisperRecognizer(modelFolder: URL(fileURLWithPath: "/nonexistent/whisper"))
            try await withServer(
                channels: [Self.commands],
                configure: { $0.speech = SpeechConfiguration(recognizer: missing, synthesizer: nil) }
            ) { server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "voice", user: "alice") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(200)))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "speech.engineUnavailable", "\(frames.value)")
                #expect(close?.closeCode == WebSocketErrorCode(codeNumber: 1011))
            }
        }

        /// The engine's cap: past it a recognition is refused with `speech.engineBusy` and 1013, at once.
        @Test func pastTheEnginesCapARecognitionIsRefused() async throws {
            let single = WhisperRecognizer(
                modelFolder: ServerWhisperModel.folder,
                configuration: WhisperRecognizer.Configuration(maxConcurrentRecognitions: 1))
            defer { Task { await single.shutdown() } }
            let held = try await single.startSession(StreamingRecognitionRequest())
            try await withServer(
                channels: [Self.commands],
                configure: { $0.speech = SpeechConfiguration(recognizer: single, synthesizer: nil) }
            ) { server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "voice", user: "alice") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(200)))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "speech.engineBusy", "\(frames.value)")
                #expect(close?.closeCode == WebSocketErrorCode(codeNumber: 1013))
            }
            await held.cancel()
        }
    }
    /// The configuration file's `speechEngine` and `whisperModel` (no model needed).
    @Suite("Whisper in the configuration file")
    struct WhisperConfigurationFileTests {
        @Test func whisperNeedsAModelFolder() throws {
            let error = #expect(throws: ParleyError.self) {
                _ = try ServerConfigurationFile(decoding: Array(#"{"channels": [], "speechEngine": "whisper"}"#.utf8))
            }
            #expect(error?.code == .invalidValue)
            #expect(error?.path?.description.contains("whisperModel") == true, "\(String(describing: error))")
        }

        @Test func theEngineAndModelRoundTrip() throws {
            let json = #"{"channels": [], "speechEngine": "whisper", "whisperModel": "/srv/parley/whisper-base"}"#
            let file = try ServerConfigurationFile(decoding: Array(json.utf8))
            #expect(file.speechEngine == "whisper")
            #expect(file.whisperModel == "/srv/parley/whisper-base")
            let again = try ServerConfigurationFile(json: file.jsonValue)
            #expect(again.whisperModel == file.whisperModel)
            #expect(again.speechEngine == "whisper")
        }

        @Test(arguments: ["system", "whisper", "pocketsphinx", "scripted", "none"])
        func everyEngineNameIsAccepted(_ engine: String) throws {
            let json = #"{"channels": [], "speechEngine": "\#(engine)", "whisperModel": "/m"}"#
            #expect(try ServerConfigurationFile(decoding: Array(json.utf8)).speechEngine == engine)
        }
    }
#endif
