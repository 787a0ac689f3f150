import HTTPTypes
public import Logging
import NIOCore
import NIOWebSocket
public import ParleySpeech
import WSClient
import WSCore

#if canImport(FoundationNetworking)
    public import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The chat server's speech endpoints, as Oracle's SDKs use them (`docs/protocol.md` §5):
///
/// - recognition: a WebSocket to `/voice/stream/recognize/{locale}/generic?channelId=…&userId=…&encoding=audio/raw`;
///   on a channel with client authentication the first text frame is `Bearer <JWT>`; then binary frames of 16 kHz
///   mono 16-bit little-endian PCM, and the text frame `Done` when the user stops; the server answers with JSON
///   `{"event":"partialResult"|"finalResult","requestId":…,"nbest":[{"utterance":…}]}`;
/// - synthesis: `GET /tts/speak?text=…&stream=chunked[&voice=…]&channelId=…&userId=…` (a WAV stream), with
///   `Authorization: Bearer` when there is a token, and `GET /tts/voices` for the voices.
public struct ServerSpeechService: SpeechService {
    /// The chat server (the client's configured URL); the speech paths go under it.
    public var url: URL
    /// The locales the server recognises. Default: the ten Oracle documents. A server that offers fewer refuses the
    /// others when the recording starts, and ``recognize(_:locale:context:)`` fails with
    /// ``ParleyError/Code/speechUnsupportedLocale``, as ``ChatClient/startRecording()`` does for a locale not listed.
    public var locales: [String]
    /// The URL session for synthesis.
    public var urlSession: URLSession
    /// Where `WSClient` logs.
    public var logger: Logger

    /// Oracle's recognition locales.
    public static let oracleLocales = [
        "de-de", "en-au", "en-gb", "en-in", "en-us", "es-es", "fr-fr", "hi-in", "it-it", "pt-br",
    ]

    /// A service for the chat server at `url`.
    public init(
        url: URL, locales: [String] = ServerSpeechService.oracleLocales, urlSession: URLSession = .shared,
        logger: Logger = Logger(label: "parley.client.speech")
    ) {
        self.url = url
        self.locales = locales
        self.urlSession = urlSession
        self.logger = logger
    }

    /// The server needs no permission besides the microphone's.
    public var recognitionPermissions: [Permission] { [] }

    /// ``locales``.
    public func recognitionLocales() async -> [String] { locales }

    /// Streams `audio` to the recognition socket and reports what the server sends.
    public func recognize(_ audio: SpeechStream<AudioBuffer>, locale: String, context: SpeechContext)
        -> SpeechStream<SpeechRecognitionUpdate>
    {
        let (updates, continuation) = SpeechStream<SpeechRecognitionUpdate>.makeStream()
        let logger = logger
        let socketURL: URL
        do {
            socketURL = try endpoint(
                "voice/stream/recognize/\(Self.normalized(locale))/generic", websocket: true,
                query: query(context) + [("encoding", "audio/raw")])
        } catch {
            continuation.finish(throwing: error)
            return updates
        }
        let task = Task {
            let outcome = RecognitionOutcome()
            let close: WebSocketCloseFrame?
            do {
                close = try await WebSocketClient.connect(
                    url: socketURL.absoluteString, configuration: .init(), logger: logger
                ) { inbound, outbound, _ in
                    if let token = context.token { try await outbound.write(.text("Bearer \(token)")) }
                    let sending = Task {
                        do {
                            for try await chunk in audio {
                                try await outbound.write(.binary(ByteBuffer(bytes: chunk.littleEndianBytes)))
                            }
                        } catch {
                            // The microphone failed: what was sent is still recognised.
                        }
                        try? await outbound.write(.text("Done"))
                    }
                    defer { sending.cancel() }
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        if let refusal = Self.refusal(from: text) { await outcome.refused(refusal) }
                        guard let update = Self.update(from: text) else { continue }
                        continuation.yield(update)
                        if case .partial = update { continue }
                        await outcome.finish()
                        break
                    }
                    try? await outbound.close(.normalClosure, reason: nil)
                }
            } catch {
                // A refusal that came before the failure says more than the failure.
                if await !outcome.finished, await outcome.refusal == nil {
                    continuation.finish(
                        throwing: ParleyError(
                            .speechRecognitionFailed, "the recognition socket \(socketURL) failed: \(error)",
                            underlying: error))
                    return
                }
                close = nil
            }
            if await outcome.finished {
                continuation.finish()
            } else {
                continuation.finish(
                    throwing: Self.failure(
                        refusal: await outcome.refusal, closeCode: close?.closeCode, closeReason: close?.reason,
                        locale: locale))
            }
        }
        continuation.onTermination { task.cancel() }
        return updates
    }

    /// An update from a server frame; `nil` for frames that carry none (an error `code` without an `event`).
    static func update(from text: String) -> SpeechRecognitionUpdate? {
        guard let frame = try? JSONValue(parsing: text), let event = frame["event"]?.stringValue else { return nil }
        let utterances = (frame["nbest"]?.arrayValue ?? []).compactMap { $0["utterance"]?.stringValue }
        switch event {
        case "partialResult":
            return utterances.first.map(SpeechRecognitionUpdate.partial)
        case "finalResult":
            guard let best = utterances.first, !best.isEmpty else {
                return frame["resultCode"] != nil ? .tooMuchSpeech : .noSpeech
            }
            let requestId = frame["requestId"]?.stringValue ?? UUID().uuidString.lowercased()
            return .final(SpeechResult(requestId: requestId, text: best, alternatives: utterances))
        default:
            return nil
        }
    }

    /// The error of a frame with a `code` and no `event` (how a server refuses: `{"code":…,"message":…}`); Oracle's
    /// Web SDK ignores it, Parley's client reports it when no result follows.
    static func refusal(from text: String) -> ParleyError? {
        guard let frame = try? JSONValue(parsing: text), frame["event"] == nil,
            let code = frame["code"]?.stringValue
        else { return nil }
        return ParleyError(ParleyError.Code(rawValue: code), frame["message"]?.stringValue ?? code)
    }

    /// The error of a socket that closed without a terminal result, from the server's error frame (`refusal`) or,
    /// when that frame was lost, its close (`closeCode` 1003 and the `closeReason` `"<code>: <message>"`,
    /// `docs/speech.md`).
    ///
    /// A locale the server does not hear is ``ParleyError/Code/speechUnsupportedLocale``, the error
    /// ``ChatClient/startRecording()`` gives for a locale the service does not list, so that the app shows
    /// `odais_speech_unsupported_locale` whichever side found it out; any other refusal is
    /// ``ParleyError/Code/speechRecognitionFailed`` with the server's error as its `underlying`.
    static func failure(
        refusal: ParleyError?, closeCode: WebSocketErrorCode?, closeReason: String?, locale: String
    ) -> ParleyError {
        let closeReason = closeCode == .normalClosure || closeReason?.isEmpty == true ? nil : closeReason
        let refusedLocale =
            if let refusal { refusal.code == .speechUnsupportedLocale } else if let closeReason {
                closeReason.hasPrefix("\(ParleyError.Code.speechUnsupportedLocale.rawValue):")
            } else {
                closeCode == .unacceptableData  // 1003 without a reason: the code Parley closes with for it
            }
        if refusedLocale {
            let why = refusal?.message ?? closeReason ?? "closed with 1003"
            return ParleyError(
                .speechUnsupportedLocale, "the speech server does not recognise \(locale): \(why)",
                underlying: refusal)
        }
        if let refusal {
            return ParleyError(
                .speechRecognitionFailed, "the speech server refused: \(refusal.code): \(refusal.message)",
                underlying: refusal)
        }
        if let closeReason {
            return ParleyError(.speechRecognitionFailed, "the speech server refused: \(closeReason)")
        }
        return ParleyError(.speechRecognitionFailed, "the recognition socket closed without a result")
    }

    /// `GET /tts/voices`: `{"voices":[{"name","culture","default"}]}`, the server's default voice first.
    public func voices(context: SpeechContext) async throws(ParleyError) -> [SynthesisVoice] {
        let url = try endpoint("tts/voices", websocket: false, query: query(context))
        let body = try await get(url, token: context.token)
        guard let json = try? JSONValue(parsing: [UInt8](body)), let list = json["voices"]?.arrayValue else {
            throw ParleyError(.speechEngineFailed, "\(url) did not answer {\"voices\":[…]}")
        }
        let voices = list.compactMap { voice -> (SynthesisVoice, Bool)? in
            guard let name = voice["name"]?.stringValue else { return nil }
            let isDefault = voice["default"] == .bool(true)
            return (
                SynthesisVoice(
                    engine: "server", identifier: name, name: name, language: voice["culture"]?.stringValue ?? "",
                    quality: isDefault ? "default" : "unknown"), isDefault
            )
        }
        return voices.filter(\.1).map(\.0) + voices.filter { !$0.1 }.map(\.0)
    }

    /// `GET /tts/speak?text=…&stream=chunked`, parsed as a WAV stream.
    ///
    /// The body is read whole before its audio is handed out: `URLSession`'s byte streams do not exist in
    /// swift-corelibs-foundation, so Linux has no portable way to read it as it arrives.
    public func synthesize(_ text: String, voice: String?, language: String?, context: SpeechContext)
        -> SpeechStream<AudioBuffer>
    {
        let (stream, continuation) = SpeechStream<AudioBuffer>.makeStream()
        var parameters = [("text", text), ("stream", "chunked")]
        if let voice { parameters.append(("voice", voice)) }
        let task = Task {
            do throws(ParleyError) {
                let url = try endpoint("tts/speak", websocket: false, query: parameters + query(context))
                let body = try await get(url, token: context.token)
                var parser = WAVStreamParser()
                let samples = try parser.append([UInt8](body))
                guard let rate = parser.sampleRate else {
                    throw ParleyError(.badAudio, "\(url) did not answer a WAV stream")
                }
                let chunk = max(1, rate / 10)
                for start in stride(from: 0, to: samples.count, by: chunk) {
                    continuation.yield(
                        AudioBuffer(
                            samples: Array(samples[start..<min(start + chunk, samples.count)]), sampleRate: rate))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination { task.cancel() }
        return stream
    }

    private func query(_ context: SpeechContext) -> [(String, String)] {
        var query = [("channelId", context.channelId), ("userId", context.userId)]
        if let secret = context.sessionSecret { query.append(("sessionSecret", secret)) }
        return query
    }

    private func get(_ url: URL, token: String?) async throws(ParleyError) -> Data {
        var request = URLRequest(url: url)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await urlSession.data(for: request)
        } catch {
            throw ParleyError(.speechEngineFailed, "GET \(url.path) failed: \(error)", underlying: error)
        }
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            throw ParleyError(.speechEngineFailed, "GET \(url.path) answered HTTP \(status)")
        }
        return data
    }

    private func endpoint(_ path: String, websocket: Bool, query: [(String, String)]) throws(ParleyError) -> URL {
        var configuration = ChatClient.Configuration(url: url, channelId: "")
        configuration.url = url
        return try configuration.endpoint(path, websocket: websocket, query: query)
    }
}

/// Whether the socket delivered its terminal result (set from the socket's closure).
private actor RecognitionOutcome {
    private(set) var finished = false
    /// The server's last refusal frame.
    private(set) var refusal: ParleyError?

    func finish() { finished = true }
    func refused(_ error: ParleyError) { refusal = error }
}
