import Foundation
import NIOCore
import ParleySpeech
import Testing

@testable import ParleyServer

#if canImport(Subprocess)
    /// Oracle's text-to-speech endpoints on the real server, with espeak-ng.
    @Suite("Text to speech endpoints", .serialized, .timeLimit(.minutes(2)))
    struct SpeechSynthesisTests {
        static let open = ChannelConfiguration(
            id: "voice", allowedOrigins: ["https://shop.example"], skill: .echo, speech: .on)
        static let secured = ChannelConfiguration(
            id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, skill: .echo, speech: .on)
        static let mute = ChannelConfiguration(id: "mute", skill: .echo)

        static func speakTarget(_ text: String, channel: String = "voice", voice: String? = nil) -> String {
            let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
            var target = "/tts/speak?text=\(encoded)&stream=chunked&channelId=\(channel)&userId=alice"
            if let voice { target += "&voice=\(voice)" }
            return target
        }

        /// The first bytes — the WAV header and audio — reach the client while the synthesiser is held after its
        /// first chunk; the rest follows when it goes on.
        @Test func theFirstChunkGoesOutBeforeTheWholeTextIsSpoken() async throws {
            let gate = Gate()
            try await withServer(
                channels: [Self.open],
                configure: {
                    $0.speech = SpeechConfiguration(recognizer: nil, synthesizer: HeldSynthesizer(gate: gate))
                }
            ) { server in
                let text = "The pizza is on its way. It will be with you in twenty minutes."
                try await withTimeout(.seconds(30), "the stream") {
                    try await RawHTTP.withConnection(port: server.port) { connection in
                        try await connection.send(
                            RawHTTP.head(
                                method: "GET", target: Self.speakTarget(text), port: server.port, headers: [],
                                bodyLength: nil))
                        // Read until the head and a first body chunk of at least the header have arrived.
                        var received: [UInt8] = []
                        var firstChunk: [UInt8] = []
                        while firstChunk.count < 46 {
                            guard let bytes = try await connection.inbound.next(isolation: #isolation) else {
                                Issue.record("closed early")
                                return
                            }
                            received += bytes.readableBytesView
                            firstChunk = Self.firstChunk(of: received) ?? []
                        }
                        #expect(await gate.isHolding, "the synthesiser has not finished")
                        #expect(!Self.ends(received), "the body has not ended")
                        #expect(Array(firstChunk[0..<4]) == Array("RIFF".utf8))
                        await gate.open()
                        connection.buffered = received
                        let reply = try await connection.reply()
                        #expect(reply.status == 200)
                        #expect(reply.header("transfer-encoding") == "chunked")
                        #expect(reply.header("content-type") == "audio/wav")
                        #expect(reply.body.count > firstChunk.count + 22_050, "more than a second more of audio")
                    }
                }
            }
        }

        /// The header: RIFF/WAVE, PCM, mono, 16-bit, espeak-ng's 22,050 Hz; then whole samples of real sound.
        @Test func theStreamIsAWAVWithTheSynthesisersRate() async throws {
            try await withServer(channels: [Self.open]) { server in
                let reply = try await RawHTTP.request(port: server.port, Self.speakTarget("<speak>Hello there</speak>"))
                #expect(reply.status == 200, "\(reply)")
                let body = reply.body
                try #require(body.count > 44 + 2_000)
                #expect(Array(body[0..<4]) == Array("RIFF".utf8))
                #expect(Array(body[8..<16]) == Array("WAVEfmt ".utf8))
                #expect(Self.uint16(body, 20) == 1, "PCM")
                #expect(Self.uint16(body, 22) == 1, "mono")
                #expect(Self.uint32(body, 24) == 22_050)
                #expect(Self.uint32(body, 28) == 44_100)
                #expect(Self.uint16(body, 34) == 16)
                #expect(Array(body[36..<40]) == Array("data".utf8))
                #expect((body.count - 44) % 2 == 0, "whole samples")
                let samples = stride(from: 44, to: body.count - 1, by: 2).map {
                    Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8)
                }
                #expect(AudioLevel(samples: samples).dBFS > -40, "speech, not silence")
            }
        }

        @Test func voicesHaveOraclesShape() async throws {
            try await withServer(channels: [Self.open]) { server in
                let reply = try await RawHTTP.request(port: server.port, "/tts/voices?channelId=voice&userId=alice")
                #expect(reply.status == 200)
                let voices = try #require(reply.json?["voices"]?.arrayValue)
                #expect(!voices.isEmpty)
                #expect(voices.allSatisfy { $0.objectValue?.keys.sorted() == ["culture", "default", "name"] })
                #expect(voices.allSatisfy { $0["culture"]?.stringValue?.hasPrefix("en") == true }, "\(voices)")
                #expect(voices.filter { $0["default"] == true }.count == 1)
                // A listed voice speaks.
                let name = try #require(voices.first?["name"]?.stringValue)
                let spoken = try await RawHTTP.request(port: server.port, Self.speakTarget("hi", voice: name))
                #expect(spoken.status == 200)
                let unknown = try await RawHTTP.request(port: server.port, Self.speakTarget("hi", voice: "nobody"))
                #expect(unknown.status == 400)
                #expect(unknown.errorCode == "decode.invalidValue")
            }
        }

        /// Oracle's Web SDK reads the answers from another origin: preflights and answers carry CORS headers for
        /// the channel's allowed origins; another origin is refused.
        @Test func corsFollowsTheChannelsAllowedOrigins() async throws {
            try await withServer(channels: [Self.open]) { server in
                for path in ["/tts/speak", "/tts/voices"] {
                    let preflight = try await RawHTTP.request(
                        port: server.port, method: "OPTIONS", "\(path)?channelId=voice&userId=alice",
                        headers: [
                            ("Origin", "https://shop.example"), ("Access-Control-Request-Method", "GET"),
                            ("Access-Control-Request-Headers", "authorization"),
                        ])
                    #expect(preflight.status == 204, "\(preflight)")
                    #expect(preflight.header("access-control-allow-origin") == "https://shop.example")
                    #expect(preflight.header("access-control-allow-headers")?.contains("authorization") == true)
                    let forbidden = try await RawHTTP.request(
                        port: server.port, method: "OPTIONS", "\(path)?channelId=voice&userId=alice",
                        headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "GET")])
                    #expect(forbidden.status == 403)
                    #expect(forbidden.header("access-control-allow-origin") == nil)
                }
                let voices = try await RawHTTP.request(
                    port: server.port, "/tts/voices?channelId=voice&userId=alice",
                    headers: [("Origin", "https://shop.example")])
                #expect(voices.status == 200)
                #expect(voices.header("access-control-allow-origin") == "https://shop.example")
                let refused = try await RawHTTP.request(
                    port: server.port, Self.speakTarget("x", channel: "voice"),
                    headers: [("Origin", "https://evil.example")])
                #expect(refused.status == 403)
                #expect(refused.errorCode == "channel.originForbidden")
            }
        }

        @Test func refusals() async throws {
            try await withServer(
                channels: [Self.open, Self.secured, Self.mute], configure: { $0.speech.maxTextLength = 20 }
            ) { server in
                let token = ChannelToken.mint(channelId: "secured", userId: "alice", secret: "s3cret", lifetime: 600)
                let cases: [(String, [(String, String)], Int, String?)] = [
                    (Self.speakTarget("hi", channel: "secured"), [], 401, "auth.invalidToken"),
                    (Self.speakTarget("hi", channel: "secured"), [("Authorization", "Bearer \(token)")], 200, nil),
                    (Self.speakTarget("hi", channel: "mute"), [], 403, "speech.disabled"),
                    (Self.speakTarget("hi", channel: "nowhere"), [], 404, "channel.unknown"),
                    (Self.speakTarget(String(repeating: "a", count: 21)), [], 413, "speech.textTooLong"),
                    ("/tts/speak?stream=chunked&channelId=voice&userId=alice", [], 400, "decode.missingField"),
                    ("/tts/speak?text=hi&stream=chunked&channelId=voice", [], 400, "decode.missingField"),
                ]
                for (target, headers, status, code) in cases {
                    let reply = try await RawHTTP.request(port: server.port, target, headers: headers)
                    #expect(reply.status == status, "\(target): \(reply)")
                    #expect(reply.errorCode == code, "\(target)")
                }
            }
        }

        @Test func noSynthesiserIsACodedError() async throws {
            try await withServer(channels: [Self.open], configure: { $0.speech = .none }) { server in
                for target in [Self.speakTarget("hi"), "/tts/voices?channelId=voice&userId=alice"] {
                    let reply = try await RawHTTP.request(port: server.port, target)
                    #expect(reply.status == 503)
                    #expect(reply.errorCode == "speech.engineUnavailable")
                }
            }
        }

        // MARK: Reading the raw stream

        /// The data of the first chunk of a chunked body, once the head and that chunk have arrived.
        static func firstChunk(of bytes: [UInt8]) -> [UInt8]? {
            guard let headEnd = find(Array("\r\n\r\n".utf8), in: bytes, from: 0) else { return nil }
            let start = headEnd + 4
            guard let lineEnd = find(Array("\r\n".utf8), in: bytes, from: start),
                let size = Int(String(decoding: bytes[start..<lineEnd], as: UTF8.self), radix: 16),
                bytes.count >= lineEnd + 2 + size
            else { return nil }
            return Array(bytes[(lineEnd + 2)..<(lineEnd + 2 + size)])
        }

        /// Whether the chunked body's last chunk has arrived.
        static func ends(_ bytes: [UInt8]) -> Bool {
            bytes.count >= 5 && Array(bytes.suffix(5)) == Array("0\r\n\r\n".utf8)
        }

        static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
            guard haystack.count >= from + needle.count else { return nil }
            for start in from...(haystack.count - needle.count)
            where haystack[start..<(start + needle.count)].elementsEqual(needle) {
                return start
            }
            return nil
        }

        static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
            UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        }

        static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
            UInt32(uint16(bytes, offset)) | UInt32(uint16(bytes, offset + 2)) << 16
        }
    }

    /// Holds a synthesis after its first chunk until the test opens it.
    actor Gate {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var opened = false
        private(set) var isHolding = false

        func wait() async {
            guard !opened else { return }
            isHolding = true
            await withCheckedContinuation { waiting.append($0) }
            isHolding = false
        }

        func open() {
            opened = true
            for continuation in waiting { continuation.resume() }
            waiting = []
        }
    }

    /// espeak-ng, held by a ``Gate`` after its first chunk: proves that what the server sends does not wait for the
    /// end of the synthesis.
    struct HeldSynthesizer: StreamingSynthesizer {
        let gate: Gate
        let base = EspeakSynthesizer()
        var engine: String { base.engine }

        func voices() async throws(ParleyError) -> [SynthesisVoice] { try await base.voices() }

        func synthesize(_ request: SynthesisRequest, to file: URL) async throws(ParleyError) {
            try await base.synthesize(request, to: file)
        }

        func stream(_ request: SynthesisRequest) -> SpeechStream<AudioBuffer> {
            let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
            let source = base.stream(request)
            let gate = gate
            let task = Task {
                var first = true
                do throws(ParleyError) {
                    for try await chunk in source {
                        continuation.yield(chunk)
                        if first {
                            first = false
                            await gate.wait()
                        }
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
#endif
