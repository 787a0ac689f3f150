import Foundation
import NIOCore
import ParleySpeech
import Prometheus
import Testing

@testable import ParleyServer

/// The speech socket writes through the chat socket's bounded outbox: a client that never reads is dropped with a
/// coded close, and does not hold the recognition slot others need.
@Suite("Speech socket outbox", .serialized, .timeLimit(.minutes(2)))
struct SpeechOutboxTests {
    static let voice = ChannelConfiguration(
        id: "voice", skill: .echo, speech: ChannelSpeech(enabled: true, locales: ["en-us"]))

    /// A masked client text frame (a zero mask: the payload as it is).
    static func maskedText(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        precondition(payload.count < 126)
        return [0x81, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload
    }

    @Test
    func aSpeechClientThatNeverReadsIsDroppedAndFreesItsSlot() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withServer(
            channels: [Self.voice],
            configure: {
                $0.speech = SpeechConfiguration(
                    recognizer: ScriptedStreamingRecognizer(transcripts: ["stuck", "next"]), synthesizer: nil)
                $0.speech.maxConcurrentRecognitions = 1
                $0.maxFrameSize = 16 << 10
                $0.socketBufferLimit = 64 << 10
                // Neither the write timeout nor a missed ping may be what ends the stuck socket: its outbox must.
                $0.socketWriteTimeout = .seconds(600)
                $0.webSocketPingInterval = .seconds(600)
                $0.metricsFactory = PrometheusMetricsFactory(registry: registry)
            }
        ) { server in
            let stuck = try await RawConnection.open(port: server.port)
            try await stuck.send(
                "GET /voice/stream/recognize/en-us/generic?channelId=voice&userId=dave HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            // Each frame that is not `Done` is answered with an error frame of about 170 bytes: 60,000 of them are
            // some 10 MB the client never reads, far past its kernel buffers and its outbox.
            let frame = Self.maskedText("hello?")
            var burst: [UInt8] = []
            burst.reserveCapacity(frame.count * 2_000)
            for _ in 0..<2_000 { burst += frame }
            for _ in 0..<30 {
                // The server may drop the connection before the last burst: that is the defence at work.
                do {
                    try await stuck.channel.writeAndFlush(ByteBuffer(bytes: burst)).get()
                } catch {
                    break
                }
            }
            #expect(try await stuck.waitForClose(within: .seconds(30)))
            // Dropped as too slow, once (the close frame cannot reach a peer that reads nothing: counted).
            #expect(
                Samples(registry.emitToString()).value(
                    ServerMetrics.errors, ["code": "socket.tooSlow", "via": "socket"]) == 1)
            // The one recognition slot is free again: another user is heard. (The server gives the slot back once
            // its reader has seen the outbox refuse, which may come just after the client saw the connection end: a
            // try that comes first is refused with `server.busy`, and tries again.)
            let frames = FrameBox()
            for _ in 0..<500 {
                do {
                    try await server.recognize(channel: "voice", user: "erin") { socket in
                        try await socket.send(audio: SpeechAudio.tone(.seconds(1)))
                        try await socket.send("Done")
                        frames.set(try await socket.rest())
                    }
                } catch {
                    continue  // refused as busy and closed while the audio was still being sent
                }
                if frames.value.first?["code"] != "server.busy" { break }
            }
            #expect(frames.value.last?["event"] == "finalResult", "\(frames.value)")
            #expect(frames.value.last?.utterances == ["next"], "\(frames.value)")
        }
    }
}
