import Foundation
import Hummingbird
import Logging
import NIOWebSocket
import ParleySpeech
import Testing
import WSClient
import WSCore

@testable import ParleyServer

/// Audio for the speech endpoints, as Oracle's Web SDK sends it: 16 kHz mono 16-bit little-endian PCM.
enum SpeechAudio {
    static let phrases = ["turn on the lights", "turn off the lights", "go to sleep", "play some music"]

    /// `text` spoken by espeak-ng and converted to 16 kHz by sox, between silences.
    static func spoken(_ text: String, before: Duration = .milliseconds(300), after: Duration = .milliseconds(1_500))
        async throws -> [UInt8]
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-speech-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("speech.wav")
        try await EspeakSynthesizer().synthesize(SynthesisRequest(text: text), to: wav)
        let chunks = try await SoxAudioSource.file(wav).frames().collect()
        #expect(chunks.allSatisfy { $0.sampleRate == 16_000 })
        return silence(before) + AudioBuffer(samples: chunks.flatMap(\.samples)).littleEndianBytes + silence(after)
    }

    /// Digital silence.
    static func silence(_ duration: Duration) -> [UInt8] {
        [UInt8](repeating: 0, count: 2 * AudioBuffer.samples(in: duration, sampleRate: 16_000))
    }

    /// A loud 440 Hz tone, which the energy detector of the scripted recognizer takes for speech.
    static func tone(_ duration: Duration) -> [UInt8] {
        let count = AudioBuffer.samples(in: duration, sampleRate: 16_000)
        let samples = (0..<count).map { Int16(12_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
        return AudioBuffer(samples: samples).littleEndianBytes
    }
}

extension TestServer {
    /// The recognition socket's URL, as Oracle's Web SDK 25.02 builds it.
    func recognitionURL(locale: String, channel: String, user: String?, authenticated: Bool = false) -> String {
        var url = "ws://127.0.0.1:\(port)/voice/stream/recognize/\(locale)/generic?channelId=\(channel)"
        if let user { url += "&userId=\(user)" }
        url += "&encodeURI=audio/raw"
        if authenticated { url += "&jwtInBody=true" }
        return url
    }

    /// Opens a recognition socket and runs `body` with it; returns the server's close frame.
    @discardableResult
    func recognize(
        locale: String = "en-us", channel: String, user: String?, authenticated: Bool = false,
        headers: HTTPFields = [:], _ body: @escaping @Sendable (inout SpeechSocket) async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        var clientLogger = Logger(label: "parley.test.speech")
        clientLogger.logLevel = .warning
        let logger = clientLogger
        let url = recognitionURL(locale: locale, channel: channel, user: user, authenticated: authenticated)
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers)
        return try await withTimeout(.seconds(60), "the recognition on \(url)") {
            try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                inbound, outbound, _ in
                var socket = SpeechSocket(
                    iterator: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                try await body(&socket)
            }
        }
    }
}

/// The client side of a recognition socket.
struct SpeechSocket {
    var iterator: WebSocketInboundMessageStream.AsyncIterator
    let outbound: WebSocketOutboundWriter

    mutating func send(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    /// Sends `audio` in binary frames of `frameSize` bytes (Chromium sends about 3 kB; odd sizes split samples).
    mutating func send(audio: [UInt8], frameSize: Int = 3_001) async throws {
        for start in stride(from: 0, to: audio.count, by: frameSize) {
            try await outbound.write(.binary(.init(bytes: audio[start..<min(start + frameSize, audio.count)])))
        }
    }

    /// The next text frame as JSON; nil when the socket closed.
    mutating func next() async throws -> JSONValue? {
        while let message = try await iterator.next(isolation: #isolation) {
            if case .text(let text) = message { return try JSONValue(parsing: Array(text.utf8)) }
        }
        return nil
    }

    /// Every text frame until the socket closes.
    mutating func rest() async throws -> [JSONValue] {
        var frames: [JSONValue] = []
        while let frame = try await next() { frames.append(frame) }
        return frames
    }
}

extension JSONValue {
    /// The utterances of a result frame's `nbest`.
    var utterances: [String]? {
        self["nbest"]?.arrayValue?.compactMap { $0["utterance"]?.stringValue }
    }
}
