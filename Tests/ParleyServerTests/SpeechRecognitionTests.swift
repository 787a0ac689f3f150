import Foundation
import Hummingbird
import NIOWebSocket
import ParleySpeech
import Prometheus
import Synchronization
import Testing
import WSCore

@testable import ParleyServer

#if os(Linux)
    /// Oracle's recognition socket on the real server, with PocketSphinx hearing espeak-ng's voice, or the scripted
    /// recognizer where a test needs an outcome the voice cannot be made to give.
    @Suite("Speech recognition socket", .serialized, .timeLimit(.minutes(3)))
    struct SpeechRecognitionTests {
        static let secret = "s3cret"
        static let secured = ChannelConfiguration(
            id: "secured", secret: secret, clientAuthenticationEnabled: true, skill: .echo,
            speech: ChannelSpeech(enabled: true, phrases: SpeechAudio.phrases))
        static let open = ChannelConfiguration(
            id: "voice", skill: .echo,
            speech: ChannelSpeech(enabled: true, locales: ["en-us", "en-gb"], phrases: SpeechAudio.phrases))
        static let mute = ChannelConfiguration(id: "mute", skill: .echo)

        static func token(user: String = "alice", secret: String = secret) -> String {
            ChannelToken.mint(channelId: "secured", userId: user, secret: secret, lifetime: 1800)
        }

        /// The Web SDK's whole exchange: the token first, audio in ~3 kB frames, no `Done`; partial results, then a
        /// final the server sends by itself when the speaker stops, then a normal close.
        @Test func partialResultsThenAnUnpromptedFinal() async throws {
            let audio = try await SpeechAudio.spoken("turn on the lights")
            try await withServer(channels: [Self.secured]) { server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "secured", user: "alice", authenticated: true) {
                    socket in
                    try await socket.send("Bearer \(Self.token())")
                    try await socket.send(audio: audio)
                    frames.set(try await socket.rest())
                }
                let received = frames.value
                let partials = received.filter { $0["event"] == "partialResult" }
                let finals = received.filter { $0["event"] == "finalResult" }
                #expect(!partials.isEmpty, "\(received)")
                #expect(received.last?["event"] == "finalResult", "the final comes last: \(received)")
                #expect(finals.count == 1)
                #expect(finals.first?.utterances?.first == "turn on the lights", "\(received)")
                #expect(
                    partials.allSatisfy { "turn on the lights".hasPrefix($0.utterances?.first ?? "-") },
                    "\(partials)")
                let requestIds = Set(received.compactMap { $0["requestId"]?.stringValue })
                #expect(requestIds.count == 1, "one request id for the whole utterance: \(requestIds)")
                #expect(close?.closeCode == .normalClosure)
            }
        }

        /// `Done` (Web SDK) and `{"event":"audioDone"}` (Android) end the audio: the final comes though the audio
        /// has no silence after the words for the recogniser to hear the end by.
        @Test(arguments: ["Done", #"{ "event": "audioDone" }"#])
        func endOfAudioForcesTheFinal(_ done: String) async throws {
            let audio = try await SpeechAudio.spoken("turn on the lights", after: .milliseconds(50))
            try await withServer(channels: [Self.open]) { server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: audio)
                    try await socket.send(done)
                    frames.set(try await socket.rest())
                }
                let received = frames.value
                #expect(received.last?["event"] == "finalResult", "\(received)")
                #expect(received.last?.utterances?.first == "turn on the lights", "\(received)")
                #expect(close?.closeCode == .normalClosure)
            }
        }

        /// Silence until the no-speech timeout: a final with an empty `nbest` and no `resultCode`, which the Web SDK
        /// shows as "no speech".
        @Test func silenceIsAFinalWithAnEmptyNbest() async throws {
            try await withServer(channels: [Self.open], configure: { $0.speech.noSpeechTimeout = .seconds(2) }) {
                server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.seconds(3)))
                    frames.set(try await socket.rest())
                }
                let received = frames.value
                #expect(received.count == 1, "\(received)")
                #expect(received.first?["event"] == "finalResult")
                #expect(received.first?.utterances == [])
                #expect(received.first?["resultCode"] == nil)
                #expect(close?.closeCode == .normalClosure)
            }
        }

        /// Speech longer than the limit: a final with an empty `nbest` and a `resultCode` ("too much speech").
        @Test func tooMuchSpeechIsAnEmptyNbestWithAResultCode() async throws {
            try await withServer(
                channels: [Self.open],
                configure: {
                    $0.speech = SpeechConfiguration(
                        recognizer: ScriptedStreamingRecognizer(transcripts: ["a very long speech"]), synthesizer: nil)
                    $0.speech.maxSpeech = .seconds(1)
                }
            ) { server in
                let frames = FrameBox()
                try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: SpeechAudio.tone(.seconds(2)))
                    frames.set(try await socket.rest())
                }
                let final = frames.value.last
                #expect(final?["event"] == "finalResult")
                #expect(final?.utterances == [])
                #expect(final?["resultCode"] == "tooMuchSpeech")
            }
        }

        /// Audio beyond `maxAudio` is not heard: at the cap the server finishes the audio as if `Done` had come, so
        /// the final comes though the client never sends `Done` and the speech (a tone the scripted recognizer takes
        /// for 3 s of words) never stops; the partials never get past the words of the first second.
        @Test func audioBeyondMaxAudioIsCutAndTheFinalComesWithoutDone() async throws {
            let words = (1...12).map { "w\($0)" }  // one word per 250 ms of speech: 3 s of them
            try await withServer(
                channels: [Self.open],
                configure: {
                    $0.speech = SpeechConfiguration(
                        recognizer: ScriptedStreamingRecognizer(transcripts: [words.joined(separator: " ")]),
                        synthesizer: nil)
                    $0.speech.maxAudio = .seconds(1)
                }
            ) { server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: SpeechAudio.tone(.seconds(3)))  // and no Done
                    frames.set(try await socket.rest())
                }
                let received = frames.value
                let finals = received.filter { $0["event"] == "finalResult" }
                #expect(finals.count == 1, "\(received)")
                #expect(received.last?["event"] == "finalResult", "\(received)")
                #expect(received.last?["resultCode"] == nil, "not too much speech: the audio was cut")
                #expect(received.last?.utterances == [words.joined(separator: " ")], "\(received)")
                let partials = received.filter { $0["event"] == "partialResult" }.compactMap { $0.utterances?.first }
                #expect(!partials.isEmpty, "\(received)")
                let longest = partials.map { $0.split(separator: " ").count }.max() ?? 0
                #expect(longest <= 4, "1 s of audio is at most 4 words: \(partials)")
                #expect(close?.closeCode == .normalClosure)
            }
        }

        /// A locale the channel does not offer: an error frame with the code, then close code 1003. A locale it
        /// offers that the engine hears by its language (`en-gb` by the en-US model) is served.
        @Test func unsupportedLocaleIsAnErrorFrameAndClose1003() async throws {
            try await withServer(channels: [Self.open]) { server in
                let frames = FrameBox()
                let close = try await server.recognize(locale: "de-de", channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(100)))
                    frames.set(try await socket.rest())
                }
                let received = frames.value
                #expect(received.count == 1)
                #expect(received.first?["code"] == "speech.unsupportedLocale", "\(received)")
                #expect(received.first?["event"] == nil, "Oracle's Web SDK ignores a frame with a code and no event")
                #expect(close?.closeCode == WebSocketErrorCode(codeNumber: 1003))
                #expect(close?.reason?.hasPrefix("speech.unsupportedLocale") == true)

                let audio = try await SpeechAudio.spoken("go to sleep")
                let british = FrameBox()
                try await server.recognize(locale: "en-gb", channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: audio)
                    british.set(try await socket.rest())
                }
                #expect(british.value.last?.utterances?.first == "go to sleep", "\(british.value)")
            }
        }

        /// A bad token in the first frame closes with the chat socket's code for it; no token within the time
        /// closes with 4001; a channel without speech closes with 1008. The time is the server's virtual clock's: on a
        /// real one, a first frame that took longer than the timeout to arrive on a busy machine was "no token".
        @Test func refusals() async throws {
            let clock = VirtualClock()
            try await withServer(
                channels: [Self.secured, Self.mute], configure: { $0.clock = serverClock(on: clock) }
            ) { server in
                let frames = FrameBox()
                let badToken = try await server.recognize(channel: "secured", user: "alice", authenticated: true) {
                    socket in
                    try await socket.send("Bearer \(Self.token(secret: "wrong"))")
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(200)))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "auth.invalidToken")
                #expect(badToken?.closeCode == .unknown(4002))

                let audioFirst = try await server.recognize(channel: "secured", user: "alice", authenticated: true) {
                    socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(200)))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "auth.required")
                #expect(audioFirst?.closeCode == .unknown(4001))

                let late = try await server.recognize(channel: "secured", user: "alice", authenticated: true) {
                    socket in
                    await clock.waitForSleepers(1)  // the socket's authentication timer
                    await clock.advance(by: .seconds(10))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "auth.required")
                #expect(late?.closeCode == .unknown(4001))

                let mute = try await server.recognize(channel: "mute", user: "alice") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(100)))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "speech.disabled")
                #expect(mute?.closeCode == .policyViolation)
            }
        }

        /// An open channel that binds users to session secrets wants the user's secret on the speech socket too;
        /// Android's header with a bad token is refused at the upgrade with `401`, as on the chat socket.
        @Test func sessionSecretsAndTheUpgradeHeaderAreChecked() async throws {
            let sealed = ChannelConfiguration(
                id: "sealed", skill: .echo, sessionSecrets: true,
                speech: ChannelSpeech(enabled: true, phrases: SpeechAudio.phrases))
            try await withServer(channels: [sealed, Self.secured]) { server in
                let frames = FrameBox()
                let missing = try await server.recognize(channel: "sealed", user: "frank") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(100)))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "session.required", "\(frames.value)")
                #expect(missing?.closeCode == .unknown(4007))

                let issued = try await RawHTTP.request(
                    port: server.port, method: "POST", "/chat/v1/sessions?channelId=sealed&userId=frank")
                let secret = try #require(issued.json?["sessionSecret"]?.stringValue)
                let heard = try await server.recognize(
                    channel: "sealed", user: "frank", headers: [ChatSocket.Upgrade.sessionSecretHeader: secret]
                ) { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(200)))
                    try await socket.send("Done")
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.last?["event"] == "finalResult", "\(frames.value)")
                #expect(heard?.closeCode == .normalClosure)

                let upgrade = try await RawHTTP.request(
                    port: server.port,
                    "/voice/stream/recognize/en-us/generic?channelId=secured&userId=alice&encodeURI=audio/raw",
                    headers: [
                        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                        ("Authorization", "Bearer \(Self.token(secret: "wrong"))"),
                    ])
                #expect(upgrade.status == 401)
                #expect(upgrade.errorCode == "auth.invalidToken")
            }
        }

        /// Android's way: the token in the upgrade's `Authorization` header.
        @Test func tokenInTheUpgradeHeader() async throws {
            let audio = try await SpeechAudio.spoken("go to sleep")
            try await withServer(channels: [Self.secured]) { server in
                let frames = FrameBox()
                try await server.recognize(
                    channel: "secured", user: "alice", headers: [.authorization: "Bearer \(Self.token())"]
                ) { socket in
                    try await socket.send(audio: audio)
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.last?.utterances?.first == "go to sleep", "\(frames.value)")
            }
        }

        /// A text frame that is not `Done` is answered with an error frame and the recognition goes on.
        @Test func aGarbageTextFrameIsAnsweredAndTheRecognitionGoesOn() async throws {
            let audio = try await SpeechAudio.spoken("play some music", after: .milliseconds(50))
            try await withServer(channels: [Self.open]) { server in
                let frames = FrameBox()
                try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send("{\"not\": \"audio\"")
                    try await socket.send(audio: audio, frameSize: 4_097)
                    try await socket.send("Done")
                    frames.set(try await socket.rest())
                }
                let received = frames.value
                #expect(received.first?["code"] == "frame.unsupported", "\(received)")
                #expect(received.last?["event"] == "finalResult", "\(received)")
                #expect(received.last?.utterances?.isEmpty == false)
            }
        }

        /// A frame over the server's frame limit closes the socket with 1009; the user's chat socket stays.
        @Test func aHugeFrameClosesWith1009() async throws {
            try await withServer(channels: [Self.open], configure: { $0.maxFrameSize = 64 << 10 }) { server in
                try await server.chat(channel: "voice", user: "bob") { chat in
                    let close = try await server.recognize(channel: "voice", user: "bob") { socket in
                        try await socket.send(audio: SpeechAudio.silence(.seconds(3)), frameSize: 96_000)
                        _ = try await socket.rest()
                    }
                    #expect(close?.closeCode == .messageTooLarge)
                    try await chat.send(UserMessage.text("still here", user: "bob"))
                    #expect(try await chat.receiveMessage().payload == .text("still here"))
                }
            }
        }

        /// Over the per-user limit: the second recognition is refused with `server.rateLimited` and close code
        /// 1013, while the user's chat socket keeps answering; once the first ends, the next is admitted.
        @Test func concurrentRecognitionsPerUserAreLimitedAndTheChatGoesOn() async throws {
            try await withServer(
                channels: [Self.open],
                configure: {
                    $0.speech = SpeechConfiguration(
                        recognizer: ScriptedStreamingRecognizer(transcripts: ["one", "two", "three"]),
                        synthesizer: nil)
                    $0.speech.maxConcurrentRecognitionsPerUser = 1
                }
            ) { server in
                let refused = FrameBox()
                let first = FrameBox()
                let firstClose = try await server.recognize(channel: "voice", user: "carol") { socket in
                    // The error frame proves the first recognition is admitted and running.
                    try await socket.send("hello?")
                    #expect(try await socket.next()?["code"] == "frame.unsupported")
                    let secondClose = try await server.recognize(channel: "voice", user: "carol") { second in
                        try await second.send(audio: SpeechAudio.silence(.milliseconds(100)))
                        refused.set(try await second.rest())
                    }
                    #expect(secondClose?.closeCode == .unknown(1013))
                    try await server.chat(channel: "voice", user: "carol") { chat in
                        try await chat.send(UserMessage.text("still here", user: "carol"))
                        #expect(try await chat.receiveMessage().payload == .text("still here"))
                    }
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(200)))
                    try await socket.send("Done")
                    first.set(try await socket.rest())
                }
                #expect(refused.value.first?["code"] == "server.rateLimited")
                #expect(first.value.last?["event"] == "finalResult")
                #expect(firstClose?.closeCode == .normalClosure)
                // Released: the user may recognise again.
                let again = FrameBox()
                try await server.recognize(channel: "voice", user: "carol") { socket in
                    try await socket.send(
                        audio: SpeechAudio.tone(.milliseconds(600)) + SpeechAudio.silence(.seconds(1)))
                    again.set(try await socket.rest())
                }
                #expect(again.value.last?.utterances == ["two"], "\(again.value)")
            }
        }

        /// Over the server's limit another user is refused with `server.busy`.
        @Test func concurrentRecognitionsPerServerAreLimited() async throws {
            try await withServer(
                channels: [Self.open],
                configure: {
                    $0.speech = SpeechConfiguration(
                        recognizer: ScriptedStreamingRecognizer(transcripts: ["one"]), synthesizer: nil)
                    $0.speech.maxConcurrentRecognitions = 1
                }
            ) { server in
                let refused = FrameBox()
                try await server.recognize(channel: "voice", user: "dave") { socket in
                    try await socket.send("hello?")
                    #expect(try await socket.next()?["code"] == "frame.unsupported")
                    let close = try await server.recognize(channel: "voice", user: "erin") { second in
                        try await second.send(audio: SpeechAudio.silence(.milliseconds(100)))
                        refused.set(try await second.rest())
                    }
                    #expect(close?.closeCode == .unknown(1013))
                    try await socket.send("Done")
                    _ = try await socket.rest()
                }
                #expect(refused.value.first?["code"] == "server.busy")
            }
        }

        /// No engine: a coded error at request time, the server itself runs on.
        @Test func aMissingEngineIsACodedErrorNotACrash() async throws {
            try await withServer(
                channels: [Self.open],
                configure: {
                    $0.speech = SpeechConfiguration(
                        recognizer: PocketsphinxStreamingRecognizer(library: "libparley-missing.so"),
                        synthesizer: nil)
                }
            ) { server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(100)))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "speech.engineUnavailable", "\(frames.value)")
                #expect(close?.closeCode == .unexpectedServerError)
                try await server.chat(channel: "voice", user: "bob") { chat in
                    try await chat.send(UserMessage.text("hi", user: "bob"))
                    #expect(try await chat.receiveMessage().payload == .text("hi"))
                }
            }
        }

        /// The counters move: one recognition started and finished with words, one refused for its locale, one
        /// synthesis streamed.
        @Test func metricsCountRecognitionsSynthesesAndErrors() async throws {
            let registry = PrometheusCollectorRegistry()
            let audio = try await SpeechAudio.spoken("turn on the lights")
            try await withServer(
                channels: [Self.open], configure: { $0.metricsFactory = PrometheusMetricsFactory(registry: registry) }
            ) { server in
                try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: audio)
                    _ = try await socket.rest()
                }
                try await server.recognize(locale: "fr-fr", channel: "voice", user: "bob") { socket in
                    try await socket.send(audio: SpeechAudio.silence(.milliseconds(100)))
                    _ = try await socket.rest()
                }
                let spoken = try await RawHTTP.request(
                    port: server.port, "/tts/speak?text=hello&stream=chunked&channelId=voice&userId=bob")
                #expect(spoken.status == 200)
            }
            let samples = Samples(registry.emitToString())
            #expect(samples.value(ServerMetrics.recognitionsStarted, ["channel": "voice"]) == 1)
            #expect(
                samples.value(ServerMetrics.recognitionsFinished, ["channel": "voice", "outcome": "final"]) == 1)
            #expect(
                samples.value(ServerMetrics.errors, ["code": "speech.unsupportedLocale", "via": "socket"]) == 1)
            #expect(samples.value(ServerMetrics.speechSyntheses, ["channel": "voice", "outcome": "streamed"]) == 1)
        }

        /// A socket that outstays the recognition timeout (on the server's clock) is closed with `speech.timeout`.
        @Test func aRecognitionThatOutstaysItsTimeIsClosed() async throws {
            let clock = VirtualClock()
            try await withServer(
                channels: [Self.open],
                configure: {
                    $0.clock = serverClock(on: clock)
                    $0.speech = SpeechConfiguration(
                        recognizer: ScriptedStreamingRecognizer(transcripts: ["one"]), synthesizer: nil)
                }
            ) { server in
                let frames = FrameBox()
                let close = try await server.recognize(channel: "voice", user: "bob") { socket in
                    try await socket.send("hello?")
                    #expect(try await socket.next()?["code"] == "frame.unsupported")
                    await clock.waitForSleepers(1)  // the recognition's timer
                    await clock.advance(by: .seconds(90) - .milliseconds(1))
                    #expect(clock.sleeperCount == 1, "not yet")
                    await clock.advance(by: .milliseconds(1))
                    frames.set(try await socket.rest())
                }
                #expect(frames.value.first?["code"] == "speech.timeout", "\(frames.value)")
                #expect(close?.closeCode == .policyViolation)
            }
        }
    }
#endif

/// Frames a socket's body collected, read after the socket closed.
final class FrameBox: Sendable {
    private let frames = Mutex<[JSONValue]>([])

    var value: [JSONValue] { frames.withLock { $0 } }

    func set(_ value: [JSONValue]) {
        frames.withLock { $0 = value }
    }
}
