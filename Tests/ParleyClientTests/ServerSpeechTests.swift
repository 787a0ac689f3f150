import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import ParleyServerTesting
import ServiceLifecycle
import Testing

@testable import ParleyClient

/// A speech server double that speaks `docs/protocol.md` §5 as Oracle's does, beside the real Parley server: the
/// recognition socket (`Bearer` frame, binary PCM, `Done`, `partialResult`/`finalResult`) and the TTS endpoints.
/// It keeps what it was sent so a test can read the client's side of the wire.
actor SpeechPeer {
    /// The recognition socket's request URIs.
    private(set) var socketURIs: [String] = []
    /// The text frames the client sent, in order.
    private(set) var texts: [String] = []
    /// The PCM bytes the client sent.
    private(set) var audioBytes = 0
    /// The TTS requests: URI and `Authorization` header.
    private(set) var ttsRequests: [(uri: String, authorization: String?)] = []

    func connected(_ uri: String) { socketURIs.append(uri) }
    func text(_ text: String) { texts.append(text) }
    func audio(_ count: Int) -> Int {
        audioBytes += count
        return audioBytes
    }
    func tts(_ uri: String, _ authorization: String?) { ttsRequests.append((uri, authorization)) }

    /// 0.5 s of a 330 Hz tone at 22,050 Hz as a WAV file, as `/tts/speak` answers.
    static let wav: [UInt8] = {
        let samples = (0..<11_025).map { Int16(6_000 * sin(2 * Double.pi * 330 * Double($0) / 22_050)) }
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let data = AudioBuffer(samples: samples, sampleRate: 22_050).littleEndianBytes
        return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVE".utf8) + Array("fmt ".utf8) + le32(16)
            + le16(1) + le16(1) + le32(22_050) + le32(44_100) + le16(2) + le16(16) + Array("data".utf8)
            + le32(data.count) + data
    }()

    /// Runs the peer on a free port for the duration of `body`, which gets its URL.
    static func run<Result: Sendable>(_ body: @Sendable (SpeechPeer, URL) async throws -> Result) async throws -> Result
    {
        let peer = SpeechPeer()
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/tts/speak") { request, _ -> Response in
            await peer.tts(request.uri.description, request.headers[.authorization])
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: Self.wav)))
        }
        router.get("/tts/voices") { request, _ -> Response in
            await peer.tts(request.uri.description, request.headers[.authorization])
            let json =
                #"{"voices":[{"name":"Tom","culture":"en-US","default":false},"#
                + #"{"name":"Ava","culture":"en-US","default":true},{"name":"Léa","culture":"fr-FR"}]}"#
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.ws("/voice/stream/recognize/{locale}/generic") { inbound, outbound, context in
            await peer.connected(context.request.uri.description)
            if context.request.uri.path.contains("/de-de/") {
                // As Parley's server does: the refusal waits for the client's first frame, since WSClient drops
                // frames that arrive together with the 101 (the client would then never read it).
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await frames.next()
                try await outbound.write(
                    .text(#"{"code":"speech.unsupportedLocale","message":"de-de is not offered","requestId":"r9"}"#))
                return
            }
            var sentPartial = false
            for try await message in inbound.messages(maxSize: 1 << 20) {
                switch message {
                case .text(let text):
                    await peer.text(text)
                    guard text == "Done" else { continue }
                    try await outbound.write(
                        .text(
                            #"{"event":"finalResult","requestId":"req-7","nbest":[{"utterance":"turn on the lights"},"#
                                + #"{"utterance":"turn off the lights"}]}"#))
                    return
                case .binary(let buffer):
                    let total = await peer.audio(buffer.readableBytes)
                    if !sentPartial, total >= 3_200 {
                        sentPartial = true
                        try await outbound.write(.text(#"{"code":"INFO","message":"ignored"}"#))
                        try await outbound.write(
                            .text(#"{"event":"partialResult","requestId":"req-7","nbest":[{"utterance":"turn on"}]}"#))
                    }
                }
            }
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "parley.test.speech-peer")
        logger.logLevel = .warning
        let app = Application(
            router: router, server: .http1WebSocketUpgrade(webSocketRouter: sockets),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            running.cancel()
            throw CancellationError()
        }
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(peer, URL(string: "http://127.0.0.1:\(port)")!))
        } catch {
            result = .failure(error)
        }
        await services.triggerGracefulShutdown()
        try await running.value
        return try result.get()
    }
}

/// Speech through a server: the client against the §5 peer, the chat against the real Parley server.
@Suite("Server speech", .serialized, .timeLimit(.minutes(2)))
struct ServerSpeechTests {
    static let secured = ChannelConfiguration(
        id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, maxTokenExpiryMinutes: 60, skill: .echo)

    @Test func anAuthenticatedRecordingSpeaksTheWireProtocolAndSendsTheResultWithItsRequestId() async throws {
        try await SpeechPeer.run { peer, peerURL in
            try await InProcessServer.run(channels: [Self.secured]) { server in
                let token = ChannelToken.mint(channelId: "secured", userId: "bea", secret: "s3cret", lifetime: 1800)
                var configuration = ChatClient.Configuration(url: server.url) { token }
                configuration.enableSpeechRecognition = true
                configuration.speechLocale = "en-US"
                configuration.enableSpeechSynthesis = true
                configuration.initSpeechSynthesisMuted = false
                configuration.speechSynthesisVoicePreferences = [VoicePreference(language: "en-us", name: "Zoe")]
                let speaker = RecordingSink()
                let client = ChatClient(
                    configuration: configuration,
                    speech: ChatClient.SpeechSetup(
                        service: ServerSpeechService(url: peerURL), microphone: BufferAudioSource(toneAudio()),
                        speaker: speaker, permissions: FixedPermissionSource([.microphone: .granted])))
                var events = EventReader(await client.events())
                try await client.initialize()
                try await client.startRecording()
                var log = try await RecordingLog.read(&events)
                #expect(log.failures.isEmpty, "\(log.failures)")
                #expect(log.partials == ["turn on"])
                #expect(log.finals == ["turn on the lights"])
                #expect(
                    log.recognized?.0
                        == SpeechResult(
                            requestId: "req-7", text: "turn on the lights",
                            alternatives: ["turn on the lights", "turn off the lights"]))
                #expect(log.states == [.requestingPermission, .recording, .finishing, .idle])

                let uri = try #require(await peer.socketURIs.first)
                #expect(uri.hasPrefix("/voice/stream/recognize/en-us/generic?"))
                #expect(uri.contains("channelId=secured") && uri.contains("userId=bea"), "\(uri)")
                #expect(uri.contains("encoding=audio/raw"), "\(uri)")
                let texts = await peer.texts
                #expect(texts == ["Bearer \(token)", "Done"], "the token first, Done last")
                #expect(await peer.audioBytes == toneAudio().samples.count * 2, "every sample, as 16-bit PCM")

                // The text went to the chat server with the request id, and the echo came back and was read aloud.
                #expect(try await log.reply(&events).payload.text == "turn on the lights")
                let user = try #require(await client.messages().first { $0.sender == .user })
                if case .user(let message) = user.envelope {
                    #expect(message.sdkMetadata?.speechId == "req-7")
                } else {
                    Issue.record("the sent message is not a user message: \(user.envelope)")
                }
                await speaker.waitForAudio()
                let played = await speaker.played
                #expect(played.map(\.samples.count).reduce(0, +) == 11_025)
                #expect(played.allSatisfy { $0.sampleRate == 22_050 })
                let requests = await peer.ttsRequests
                #expect(requests.map(\.authorization) == ["Bearer \(token)", "Bearer \(token)"])
                #expect(requests.first?.uri.hasPrefix("/tts/voices?channelId=secured&userId=bea") == true)
                let speak = try #require(requests.last?.uri)
                #expect(
                    speak.hasPrefix("/tts/speak?text=turn%20on%20the%20lights&stream=chunked&voice=Ava"), "\(speak)")
                await client.destroy()
            }
        }
    }

    /// The server refuses the locale (Oracle's list has it, the server does not): the error is the one the client
    /// gives for a locale it does not list, so the app shows `odais_speech_unsupported_locale`.
    @Test func aLocaleRefusalFrameIsTheUnsupportedLocaleError() async throws {
        try await SpeechPeer.run { _, url in
            let updates = ServerSpeechService(url: url).recognize(
                .of([AudioBuffer(samples: [1, 2, 3])]), locale: "de-DE",
                context: SpeechContext(channelId: "c", userId: "u"))
            do throws(ParleyError) {
                _ = try await updates.collect()
                Issue.record("no error")
            } catch {
                #expect(error.code == .speechUnsupportedLocale)
                #expect(error.message == "the speech server does not recognise de-DE: de-de is not offered")
                #expect((error.underlying as? ParleyError)?.code == .speechUnsupportedLocale)
                #expect((error.underlying as? ParleyError)?.message == "de-de is not offered")
            }
        }
    }

    /// The error of a socket that ended without a result, from its error frame or, without one, its close.
    @Test func theErrorOfARefusedSocketComesFromItsFrameOrItsClose() {
        func code(_ refusal: ParleyError?, _ close: WebSocketErrorCode?, _ reason: String?) -> ParleyError.Code {
            ServerSpeechService.failure(refusal: refusal, closeCode: close, closeReason: reason, locale: "fr-fr").code
        }
        let locale = ParleyError(.speechUnsupportedLocale, "fr-fr is not offered")
        let disabled = ParleyError(.speechDisabled, "no speech here")
        // The frame decides when there is one.
        #expect(
            code(locale, .unacceptableData, "speech.unsupportedLocale: fr-fr is not offered")
                == .speechUnsupportedLocale)
        #expect(code(locale, nil, nil) == .speechUnsupportedLocale)
        #expect(code(disabled, .policyViolation, "speech.disabled: no speech here") == .speechRecognitionFailed)
        #expect(code(disabled, .unacceptableData, nil) == .speechRecognitionFailed)
        // Without a frame, the close: its coded reason, or 1003 alone.
        #expect(
            code(nil, .unacceptableData, "speech.unsupportedLocale: fr-fr is not offered") == .speechUnsupportedLocale)
        #expect(code(nil, .unacceptableData, nil) == .speechUnsupportedLocale)
        #expect(code(nil, .unacceptableData, "") == .speechUnsupportedLocale)
        #expect(code(nil, .policyViolation, "speech.disabled: no speech here") == .speechRecognitionFailed)
        #expect(code(nil, .unacceptableData, "frame.unsupported: text") == .speechRecognitionFailed)
        #expect(code(nil, .normalClosure, nil) == .speechRecognitionFailed)
        #expect(code(nil, nil, nil) == .speechRecognitionFailed)

        let other = ServerSpeechService.failure(
            refusal: disabled, closeCode: .policyViolation, closeReason: nil, locale: "en-us")
        #expect(other.message == "the speech server refused: speech.disabled: no speech here")
        #expect((other.underlying as? ParleyError)?.code == .speechDisabled)
        let closed = ServerSpeechService.failure(
            refusal: nil, closeCode: .unacceptableData, closeReason: "speech.unsupportedLocale: fr-fr is not offered",
            locale: "fr-fr")
        #expect(
            closed.message
                == "the speech server does not recognise fr-fr: speech.unsupportedLocale: fr-fr is not offered")
        #expect(closed.underlying == nil)
    }

    @Test func aSocketThatClosesWithoutAResultIsARecognitionError() async throws {
        let service = ServerSpeechService(url: URL(string: "http://127.0.0.1:9")!)  // nothing listens on port 9
        let updates = service.recognize(
            .of([AudioBuffer(samples: [1, 2, 3])]), locale: "en-us", context: SpeechContext(channelId: "c", userId: "u")
        )
        do throws(ParleyError) {
            _ = try await updates.collect()
            Issue.record("no error")
        } catch {
            #expect(error.code == .speechRecognitionFailed)
        }
    }
}

/// The client's server mode against the real thing: Parley's `/voice/stream/recognize` (PocketSphinx) and
/// `/tts/speak` (espeak-ng), in process.
@Suite("Server speech end to end", .serialized, .timeLimit(.minutes(2)))
struct ServerSpeechEndToEndTests {
    @Test(arguments: [false, true])
    func theServerHearsTheUserAndReadsTheReply(authenticated: Bool) async throws {
        let audio = try await OnDeviceSpeechEndToEndTests.speech("turn on the lights")
        let speech = ChannelSpeech(enabled: true, phrases: OnDeviceSpeechEndToEndTests.phrases)
        let channels = [
            ChannelConfiguration(id: "voice", skill: .echo, speech: speech),
            ChannelConfiguration(
                id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, skill: .echo, speech: speech),
        ]
        try await InProcessServer.run(channels: channels) { server in
            var configuration: ChatClient.Configuration
            if authenticated {
                configuration = ChatClient.Configuration(url: server.url) {
                    ChannelToken.mint(channelId: "secured", userId: "bea", secret: "s3cret", lifetime: 1800)
                }
            } else {
                configuration = ChatClient.Configuration(url: server.url, channelId: "voice", userId: "val")
            }
            configuration.enableSpeechRecognition = true
            configuration.enableSpeechSynthesis = true
            configuration.initSpeechSynthesisMuted = false
            let speaker = RecordingSink()
            let tap = FrameTap()
            let client = ChatClient(
                configuration: configuration, transport: tap,
                speech: ChatClient.SpeechSetup(
                    microphone: BufferAudioSource(audio), speaker: speaker,
                    permissions: FixedPermissionSource([.microphone: .granted])))
            var events = EventReader(await client.events())
            try await client.initialize()
            try await client.startRecording()
            var log = try await RecordingLog.read(&events)
            #expect(log.failures.isEmpty, "\(log.failures)")
            #expect(!log.partials.isEmpty)
            #expect(log.partials.allSatisfy { "turn on the lights".hasPrefix($0) }, "\(log.partials)")
            #expect(log.finals == ["turn on the lights"])
            let (result, sent) = try #require(log.recognized)
            #expect(sent)
            #expect(!result.requestId.isEmpty)

            #expect(try await log.reply(&events).payload.text == "turn on the lights")
            let frames = await tap.sent.compactMap { try? JSONValue(parsing: $0) }
            let spoken = try #require(frames.first { $0["messagePayload"]?["text"] == "turn on the lights" })
            #expect(spoken["sdkMetadata"]?["speechId"]?.stringValue == result.requestId, "the server's requestId")

            await speaker.waitForAudio()
            let played = await speaker.played
            #expect(played.allSatisfy { $0.sampleRate == 22_050 })
            let seconds = Double(played.map(\.samples.count).reduce(0, +)) / 22_050
            #expect(seconds > 0.8 && seconds < 5, "\(seconds) s of \"turn on the lights\"")
            #expect(played.flatMap(\.samples).contains { abs(Int($0)) > 1_000 }, "speech, not silence")
            await client.destroy()
        }
    }

    /// `speechLocale` `fr-fr` against a server that hears only English: Oracle's list has it, so the microphone
    /// opens; the server refuses the socket (an error frame and close 1003), and the client reports
    /// `speech.unsupportedLocale`, the code it gives for a locale it does not list (`odais_speech_unsupported_locale`).
    @Test func aLocaleTheServerRefusesIsAnUnsupportedLocale() async throws {
        let speech = ChannelSpeech(enabled: true, phrases: OnDeviceSpeechEndToEndTests.phrases)
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "voice", skill: .echo, speech: speech)]) {
            server in
            var configuration = ChatClient.Configuration(url: server.url, channelId: "voice", userId: "val")
            configuration.enableSpeechRecognition = true
            let client = ChatClient(
                configuration: configuration,
                speech: ChatClient.SpeechSetup(
                    microphone: BufferAudioSource(toneAudio()),
                    permissions: FixedPermissionSource([.microphone: .granted])))
            var events = EventReader(await client.events())
            try await client.initialize()
            #expect(await client.setSpeechLocale("fr-fr"), "the client's list has fr-fr")
            try await client.startRecording()
            let log = try await RecordingLog.read(&events)
            #expect(log.failures.map(\.code) == [.speechUnsupportedLocale], "\(log.failures)")
            let failure = try #require(log.failures.first)
            #expect(failure.message.hasPrefix("the speech server does not recognise fr-fr: "), "\(failure.message)")
            #expect((failure.underlying as? ParleyError)?.code == .speechUnsupportedLocale)
            #expect(log.finals.isEmpty && log.recognized == nil)
            #expect(log.states.first == .requestingPermission && log.states.contains(.recording), "\(log.states)")
            #expect(log.states.last == .idle)
            await client.destroy()
        }
    }
}
