import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ParleyCore
import ParleySpeech

/// Oracle's text-to-speech endpoints (`docs/protocol.md` §5, `docs/speech.md`, "The server"):
///
/// - `GET /tts/speak?text=…&stream=chunked[&voice=…]&channelId=…&userId=…`: a chunked WAV stream, the 44-byte header
///   with the synthesiser's rate and then 16-bit PCM, sent as the synthesiser speaks (the first bytes go out before
///   the whole text is spoken). `text` wrapped in `<speak>…</speak>` is SSML.
/// - `GET /tts/voices?channelId=…&userId=…`: `{"voices":[{"name":…,"culture":…,"default":…}]}`.
///
/// On a client-authenticated channel both need `Authorization: Bearer <JWT>`; on an open one the `userId` (and the
/// session secret where the channel binds users to them). Oracle's Web SDK calls them cross-origin, so both answer
/// CORS preflights from the channel's allowed origins. Refusals are coded JSON bodies (``CodedHTTPError``).
struct SpeechRoutes {
    let configuration: ServerConfiguration
    let chat: ChatSocket
    let sessions: SessionSecrets
    let speech: SpeechService

    /// The preflight of both endpoints: `GET` with an `Authorization` header.
    static let cors = CORS(methods: [.get], allowedHeaders: ["authorization"])

    func register(on router: Router<ChatRequestContext>) {
        router.get("/tts/speak") { request, context in
            try await answer(request, context: context) { channel, cors in
                try await speak(request, channel: channel, cors: cors, context: context)
            }
        }
        router.get("/tts/voices") { request, context in
            try await answer(request, context: context) { channel, cors in
                try await voices(channel: channel, cors: cors)
            }
        }
        for path in ["/tts/speak", "/tts/voices"] {
            router.on(RouterPath(path), method: .options) { request, _ in
                let channel = try channel(of: request)
                return try Self.cors.preflight(request, allowedOrigins: channel.allowedOrigins)
            }
        }
    }

    /// Checks the channel, the origin and the caller, then runs `body` with the CORS headers every answer carries.
    private func answer(
        _ request: Request, context: ChatRequestContext,
        _ body: (ChannelConfiguration, HTTPFields) async throws -> Response
    ) async throws -> Response {
        let channel = try channel(of: request)
        let cors = try CORS.checkedResponseHeaders(for: request, allowedOrigins: channel.allowedOrigins)
        do {
            guard channel.speech.enabled else {
                throw CodedHTTPError(.forbidden, .speechDisabled, "channel \"\(channel.id)\" does not serve speech")
            }
            try await authorize(
                request, on: channel,
                peer: context.clientAddress(of: request, trusting: configuration.trustedProxies))
            return try await body(channel, cors)
        } catch let error as CodedHTTPError {
            throw error.adding(cors)
        }
    }

    /// The channel of `channelId`: `404 channel.unknown`, `403 channel.disabled`.
    private func channel(of request: Request) throws(CodedHTTPError) -> ChannelConfiguration {
        guard let id = request.uri.queryParameters.get("channelId"), let channel = configuration.channel(id) else {
            throw CodedHTTPError(.notFound, .unknownChannel, "no such channel")
        }
        guard channel.enabled else {
            throw CodedHTTPError(.forbidden, .channelDisabled, "channel \"\(channel.id)\" is disabled")
        }
        return channel
    }

    /// The token on an authenticated channel (`401`, or `429` for an address that failed too often); the user id
    /// and its session secret on an open one.
    private func authorize(_ request: Request, on channel: ChannelConfiguration, peer: String)
        async throws(CodedHTTPError)
    {
        let userId = request.uri.queryParameters.get("userId")
        if channel.clientAuthenticationEnabled {
            do throws(ParleyError) {
                _ = try chat.verify(
                    ChannelToken.bearerToken(in: request.headers[.authorization]), for: channel, userId: userId,
                    peer: peer)
            } catch {
                if error.code == .rateLimited {
                    throw CodedHTTPError(.tooManyRequests, error, headers: [.retryAfter: "60"])
                }
                throw CodedHTTPError(.unauthorized, error, headers: [.wwwAuthenticate: "Bearer"])
            }
            return
        }
        guard let userId, !userId.isEmpty else {
            throw CodedHTTPError(.badRequest, .missingField, "the query needs the userId")
        }
        do throws(ParleyError) {
            try ConversationKey.validate(userId: userId)
        } catch {
            throw CodedHTTPError(.badRequest, error)
        }
        guard SessionSecrets.applies(to: channel) else { return }
        do {
            try chat.signIns.check(peer)
        } catch {
            throw CodedHTTPError(.tooManyRequests, error, headers: [.retryAfter: "60"])
        }
        let secret =
            request.uri.queryParameters.get("sessionSecret") ?? request.headers[ChatSocket.Upgrade.sessionSecretHeader]
        do throws(ParleyError) {
            try await sessions.verify(channel: channel, userId: userId, secret: secret)
        } catch {
            if error.code == .sessionInvalid { chat.signIns.recordFailure(peer) }
            throw CodedHTTPError(.unauthorized, error)
        }
    }

    // MARK: Speak

    private func speak(_ request: Request, channel: ChannelConfiguration, cors: HTTPFields, context: ChatRequestContext)
        async throws -> Response
    {
        do {
            let response = try await stream(request, channel: channel, cors: cors, logger: context.logger)
            speech.metrics.synthesis(channel: channel.id, streamed: true)
            return response
        } catch {
            speech.metrics.synthesis(channel: channel.id, streamed: false)
            throw error
        }
    }

    private func stream(_ request: Request, channel: ChannelConfiguration, cors: HTTPFields, logger: Logger)
        async throws(CodedHTTPError) -> Response
    {
        guard let text = request.uri.queryParameters.get("text"), !text.trimmingCharacters(in: .whitespaces).isEmpty
        else {
            throw CodedHTTPError(.badRequest, .missingField, "the query needs the text to speak")
        }
        let limit = speech.configuration.maxTextLength
        guard text.count <= limit else {
            throw CodedHTTPError(.contentTooLarge, .speechTextTooLong, "the text is limited to \(limit) characters")
        }
        let voice = request.uri.queryParameters.get("voice").flatMap { $0.isEmpty ? nil : String($0) }
        let synthesizer: any StreamingSynthesizer
        let known: [SynthesisVoice]
        do throws(ParleyError) {
            synthesizer = try speech.synthesizer()
            known = voice == nil ? [] : try await speech.voices()
        } catch {
            throw CodedHTTPError(.serviceUnavailable, error)
        }
        if let voice, !known.contains(where: { $0.identifier == voice }) {
            throw CodedHTTPError(.badRequest, .invalidValue, "no voice \"\(voice)\"; GET /tts/voices lists them")
        }
        do {
            try speech.admitSynthesis()
        } catch {
            throw CodedHTTPError(.serviceUnavailable, error, headers: [.retryAfter: "1"])
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let isSSML = trimmed.hasPrefix("<speak") && trimmed.hasSuffix("</speak>")
        let language = channel.speech.locales.first.map(Self.bcp47) ?? "en-US"
        let chunks = AudioChunks(
            synthesizer.stream(SynthesisRequest(text: text, isSSML: isSSML, voice: voice, language: language)),
            releasing: speech)
        // The first chunk before the answer: an engine that fails at once is a coded error, not an empty 200.
        let first: AudioBuffer?
        do throws(ParleyError) {
            first = try await chunks.next()
        } catch {
            throw CodedHTTPError(
                error.code == .speechEngineUnavailable ? .serviceUnavailable : .internalServerError, error)
        }
        let clock = configuration.clock
        let deadline = clock.elapsed + speech.configuration.synthesisTimeout
        var headers = cors
        headers[.contentType] = "audio/wav"
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                var buffer = ByteBuffer(bytes: WAVHeader.bytes(sampleRate: first?.sampleRate ?? 22_050))
                if let first { buffer.writeBytes(first.littleEndianBytes) }
                try await writer.write(buffer)
                while let chunk = try await chunks.next() {
                    try await writer.write(ByteBuffer(bytes: chunk.littleEndianBytes))
                    if clock.elapsed > deadline {
                        logger.notice("a synthesis was cut off after \(speech.configuration.synthesisTimeout)")
                        break
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// `en-US` for `en-us`: the channel's locales as Oracle spells them, the language tags synthesisers take.
    static func bcp47(_ locale: String) -> String {
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard parts.count == 2 else { return locale }
        return "\(parts[0].lowercased())-\(parts[1].uppercased())"
    }

    // MARK: Voices

    private func voices(channel: ChannelConfiguration, cors: HTTPFields) async throws(CodedHTTPError) -> Response {
        let voices: [SynthesisVoice]
        do {
            voices = try await speech.voices()
        } catch {
            throw CodedHTTPError(.serviceUnavailable, error)
        }
        let languages = Set(channel.speech.locales.map(SpeechService.language(of:)))
        let offered = voices.filter { languages.contains(SpeechService.language(of: $0.language)) }
        let preferred = channel.speech.locales.first?.lowercased()
        let defaultVoice =
            offered.first { $0.language.lowercased() == preferred } ?? offered.first
        let list: [JSONValue] = offered.map { voice in
            [
                "name": .string(voice.identifier), "culture": .string(Self.bcp47(voice.language)),
                "default": .bool(voice == defaultVoice),
            ]
        }
        var headers = cors
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONValue.object(["voices": .array(list)]).jsonBytes())))
    }
}

/// A synthesis's audio, read by the request and then by its response body: an actor, since the stream's iterator is
/// not `Sendable`. Dropping it ends the synthesis (the synthesiser's program is stopped) and frees its slot.
private actor AudioChunks {
    private var iterator: SpeechStream<AudioBuffer>.AsyncIterator
    private let service: SpeechService

    init(_ stream: SpeechStream<AudioBuffer>, releasing service: SpeechService) {
        iterator = stream.makeAsyncIterator()
        self.service = service
    }

    deinit {
        service.releaseSynthesis()
    }

    func next() async throws(ParleyError) -> AudioBuffer? {
        var current = iterator
        defer { iterator = current }
        return try await current.next(isolation: self)
    }
}
