import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import ParleyCore
import ParleySpeech

/// Oracle's speech-recognition socket, `GET /voice/stream/recognize/{locale}/generic?channelId=…&userId=…`
/// (`docs/protocol.md` §5, `docs/speech.md`, "The server").
///
/// One socket recognises one utterance, as Oracle's clients use it (they open a socket per recording):
/// 1. identity, as on the chat socket: on a client-authenticated channel the token is the first text frame
///    `Bearer <JWT>` (Oracle's Web SDK; Parley's `auth` state frame works too) or an `Authorization: Bearer` header
///    on the upgrade (Oracle's Android SDK); on an open channel the `userId` query parameter, with the session
///    secret when the channel binds users to them;
/// 2. binary frames of 16 kHz mono 16-bit little-endian PCM, of any size, are recognised as they arrive;
///    `{"event":"partialResult","requestId":…,"nbest":[{"utterance":…}]}` frames report what is heard so far;
/// 3. the recogniser finds the end of the utterance itself and the server sends `finalResult` unprompted (Oracle's
///    Web SDK 25.02 never sends `Done` on its own); the text frame `Done` (or Android's `{"event":"audioDone"}`)
///    forces it. No speech: `finalResult` with an empty `nbest`; too much speech: the same with a `resultCode`;
/// 4. the server closes the socket with 1000.
///
/// Every refusal is an error frame `{"code":…,"message":…,"requestId":…}` (a frame Oracle's Web SDK ignores and
/// Android reads) and then a close whose code matches the error (the chat socket's codes; 1003 for an unsupported
/// locale, 1008 for a channel without speech, 1013 over a concurrency limit).
struct RecognitionSocket {
    let configuration: ServerConfiguration
    /// The chat socket's checks: tokens, failed sign-ins.
    let chat: ChatSocket
    let sessions: SessionSecrets
    let speech: SpeechService
    let logger: Logger

    private var metrics: ServerMetrics { speech.metrics }

    /// Why a recognition socket is refused: the error and the close code.
    struct Refusal: Error {
        let error: ParleyError
        let code: CloseCode

        init(_ error: ParleyError, _ code: CloseCode? = nil) {
            self.error = error
            self.code = code ?? Self.closeCode(for: error.code)
        }

        static func closeCode(for code: ParleyError.Code) -> CloseCode {
            switch code {
            case .speechUnsupportedLocale: .unsupportedData
            case .speechDisabled, .speechTimeout: .policyViolation
            // The engine's own concurrency cap (whisper's), like the server's: try again shortly.
            case .speechEngineBusy: .tryAgainLater
            default: CloseCode(for: code)
            }
        }
    }

    /// Runs the socket until it closes.
    func run(
        _ request: Request, locale: String, connection: ChatRequestContext, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        let requestId = UUID().uuidString.lowercased()
        var messages = inbound.messages(maxSize: configuration.maxFrameSize).makeAsyncIterator()
        let upgrade = ChatSocket.Upgrade(
            request, peer: connection.clientAddress(of: request, trusting: configuration.trustedProxies))
        let channel: ChannelConfiguration
        do throws(Refusal) {
            channel = try admittedChannel(upgrade)
        } catch {
            return try await refuseOnOpen(error, heard: false, requestId, outbound, &messages)
        }
        // Whether the client has spoken: until it has, a refusal waits for its first frame (see refuseOnOpen).
        var heard = false
        var token = upgrade.bearerToken
        if channel.clientAuthenticationEnabled, token == nil {
            let timeout = configuration.authenticationTimeout
            let late = Refusal(ParleyError(.authRequired, "no \"Bearer <token>\" frame within \(timeout)"))
            guard let first = try await firstFrame(within: timeout, orRefuse: late, requestId, outbound, &messages)
            else { return }
            heard = true
            guard case .text(let text) = first, let frameToken = Self.token(in: text) else {
                let error = ParleyError(.authRequired, "the first frame on this channel must be \"Bearer <token>\"")
                return try await refuse(Refusal(error), requestId: requestId, outbound, &messages)
            }
            token = frameToken
        }
        let userId: String
        let expiresAt: Date?
        do throws(Refusal) {
            (userId, expiresAt) = try await identify(upgrade, token: token, on: channel)
        } catch {
            return try await refuseOnOpen(error, heard: heard, requestId, outbound, &messages)
        }
        let speechSettings = channel.speech
        let session: any RecognitionSession
        let ticket: SpeechService.Ticket
        do throws(ParleyError) {
            let engineLocale = try await speech.engineLocale(for: locale, on: speechSettings)
            ticket = try speech.admitRecognition(channelId: channel.id, userId: userId)
            do throws(ParleyError) {
                session = try await speech.recognizer().startSession(
                    StreamingRecognitionRequest(
                        locale: engineLocale, phrases: speechSettings.phrases, partialResults: true,
                        noSpeechTimeout: speech.configuration.noSpeechTimeout,
                        maxSpeech: speech.configuration.maxSpeech, endSilence: speech.configuration.endSilence))
            } catch {
                speech.release(ticket)
                throw error
            }
        } catch {
            return try await refuseOnOpen(Refusal(error), heard: heard, requestId, outbound, &messages)
        }
        metrics.recognitionStarted(channel: channel.id)
        logger.debug("recognition \(requestId) started for \(userId) on \(channel.id) in \(locale)")
        // The chat socket's bounded outbox: a client that does not read is closed as too slow (or when its writes
        // stop moving), never waited for, so it cannot hold a recognition slot.
        let outbox = SocketOutbox(
            writer: outbound, connection: connection.channel,
            limit: max(configuration.socketBufferLimit, 2 * configuration.maxFrameSize),
            writeTimeout: configuration.socketWriteTimeout, metrics: metrics, logger: logger)
        // As on the chat socket, the token or session secret bounds the socket: at its expiry the socket closes with
        // 4003 or 4009.
        let expired = ChatSocket.expiredCredential(on: channel)
        let expiryWatch = expiresAt.map(CredentialExpiry.init)?.watch(clock: configuration.clock) {
            outbox.close(expired)
        }
        let outcome = await recognize(
            session, requestId: requestId, outbox: outbox, connection: connection.channel, &messages)
        // Nothing from admission to here throws. The slot is free once the recognition is over, not once the
        // socket's last frames are written: a client that reads nothing holds its socket until the outbox gives up.
        speech.release(ticket)
        expiryWatch?.cancel()
        outbox.finish()
        await outbox.finished()
        metrics.recognitionFinished(channel: channel.id, outcome)
    }

    // MARK: Identity

    /// The channel of the socket, when it exists, is enabled, serves speech and allows the origin.
    private func admittedChannel(_ upgrade: ChatSocket.Upgrade) throws(Refusal) -> ChannelConfiguration {
        guard let channelId = upgrade.channelId, let channel = configuration.channel(channelId) else {
            throw Refusal(ParleyError(.unknownChannel, "no channel \"\(upgrade.channelId ?? "")\""))
        }
        guard channel.enabled else {
            throw Refusal(ParleyError(.channelDisabled, "channel \"\(channel.id)\" is disabled"))
        }
        guard channel.speech.enabled else {
            throw Refusal(ParleyError(.speechDisabled, "channel \"\(channel.id)\" does not serve speech"))
        }
        guard channel.allows(origin: upgrade.origin) else {
            throw Refusal(
                ParleyError(.originForbidden, "origin \(upgrade.origin ?? "") may not use channel \"\(channel.id)\""))
        }
        return channel
    }

    /// The user of the socket, and when its credential expires: from the token (header, or the first frame) on an
    /// authenticated channel; from the query, with its session secret when the channel binds users, on an open one.
    private func identify(_ upgrade: ChatSocket.Upgrade, token: String?, on channel: ChannelConfiguration)
        async throws(Refusal) -> (String, Date?)
    {
        if channel.clientAuthenticationEnabled {
            guard let token else {
                throw Refusal(ParleyError(.authRequired, "this channel needs a token"))
            }
            let claims = try verify(token, upgrade, channel)
            return (claims.userId, claims.expiryDate)
        }
        guard let userId = upgrade.userId, !userId.isEmpty else {
            throw Refusal(ParleyError(.missingField, "the userId query parameter is required"), .policyViolation)
        }
        var expiresAt: Date?
        if SessionSecrets.applies(to: channel) {
            do throws(ParleyError) {
                try chat.signIns.check(upgrade.peer)
                do throws(ParleyError) {
                    expiresAt = try await sessions.verify(
                        channel: channel, userId: userId, secret: upgrade.sessionSecret)
                } catch {
                    if error.code == .sessionInvalid { chat.signIns.recordFailure(upgrade.peer) }
                    throw error
                }
            } catch {
                throw Refusal(error)
            }
        }
        return (userId, expiresAt)
    }

    private func verify(_ token: String, _ upgrade: ChatSocket.Upgrade, _ channel: ChannelConfiguration)
        throws(Refusal) -> TokenClaims
    {
        do {
            return try chat.verify(token, for: channel, userId: upgrade.userId, peer: upgrade.peer)
        } catch {
            throw Refusal(error)
        }
    }

    /// The token of a first frame: `Bearer <JWT>` (Oracle's Web SDK) or an `auth` state frame (Parley's clients).
    static func token(in text: String) -> String? {
        if let token = ChannelToken.bearerToken(in: text), !token.isEmpty { return token }
        guard case .state(let state)? = try? ClientFrame(decoding: text), state.type == .auth else { return nil }
        return state.token
    }

    /// The client's next frame; nil when the client closed first, or when it sent nothing within `limit` (on the
    /// server's clock) and the socket has been refused with `refusal`.
    private func firstFrame(
        within limit: Duration, orRefuse refusal: Refusal, _ requestId: String, _ outbound: WebSocketOutboundWriter,
        _ messages: inout WebSocketInboundMessageStream.AsyncIterator
    ) async throws -> WebSocketMessage? {
        let clock = configuration.clock
        let timer = Task { () -> Bool in
            do { try await clock.sleep(for: limit) } catch { return false }
            try? await sendRefusal(refusal, requestId: requestId, outbound)
            return true
        }
        let first = try await messages.next(isolation: #isolation)
        timer.cancel()
        guard await !timer.value else {
            while try await messages.next(isolation: #isolation) != nil {}
            return nil
        }
        return first
    }

    // MARK: Recognition

    /// What the reader and the writer of a running recognition share.
    private final class Progress: Sendable {
        private let state = NIOLockedValueBox<ServerMetrics.RecognitionOutcome?>(nil)

        /// How the recognition ended, once it has.
        var outcome: ServerMetrics.RecognitionOutcome? { state.withLockedValue { $0 } }

        /// Records the end; false when it had already ended.
        func end(_ outcome: ServerMetrics.RecognitionOutcome) -> Bool {
            state.withLockedValue { current in
                guard current == nil else { return false }
                current = outcome
                return true
            }
        }
    }

    /// Feeds the socket's audio to `session` and sends its results, until the terminal result has been sent and the
    /// client has closed, or the client leaves.
    private func recognize(
        _ session: any RecognitionSession, requestId: String, outbox: SocketOutbox, connection: any Channel,
        _ messages: inout WebSocketInboundMessageStream.AsyncIterator
    ) async -> ServerMetrics.RecognitionOutcome {
        let progress = Progress()
        let writer = Task {
            await sendResults(of: session, requestId: requestId, outbox: outbox, progress: progress)
        }
        let clock = configuration.clock
        let timeout = speech.configuration.recognitionTimeout
        let timer = Task {
            do { try await clock.sleep(for: timeout) } catch { return }
            guard progress.end(.failed) else { return }
            let error = ParleyError(.speechTimeout, "the recognition took longer than \(timeout)")
            await session.cancel()
            sendRefusal(Refusal(error), requestId: requestId, outbox)
        }
        defer { timer.cancel() }
        let maxBytes = 2 * AudioBuffer.samples(in: speech.configuration.maxAudio, sampleRate: 16_000)
        var bytesFed = 0
        var finished = false
        do {
            reading: while let message = try await messages.next(isolation: #isolation) {
                guard progress.outcome == nil else { continue }  // audio after the final: the client has not read it
                switch message {
                case .binary(let buffer):
                    guard !finished else { continue }
                    let bytes = Array(buffer.readableBytesView)
                    let room = maxBytes - bytesFed
                    try await session.feed(bytes: room < bytes.count ? Array(bytes.prefix(room)) : bytes)
                    bytesFed += min(room, bytes.count)
                    if bytesFed >= maxBytes {
                        logger.debug("recognition \(requestId) reached \(speech.configuration.maxAudio) of audio")
                        finished = true
                        await session.finishAudio()
                    }
                case .text(let text):
                    if Self.isEndOfAudio(text) {
                        if !finished { await session.finishAudio() }
                        finished = true
                    } else if Self.token(in: text) == nil {
                        // A token again (a client that refreshed it) is harmless; anything else is answered.
                        let error = ParleyError(
                            .unsupportedFrame,
                            "a text frame on the speech socket is \"Done\", {\"event\":\"audioDone\"} or a token")
                        metrics.errorSent(error.code)
                        // Refused when the client has fallen too far behind, or its socket failed: the recognition
                        // ends now, and so does the connection (a close frame cannot reach a client that reads
                        // nothing, and the close handshake would wait for it).
                        guard outbox.send(Self.errorFrame(error, requestId: requestId)) else {
                            connection.close(promise: nil)
                            break reading
                        }
                    }
                }
            }
        } catch {
            if progress.end(.failed), let error = error as? ParleyError {
                sendRefusal(Refusal(error), requestId: requestId, outbox)
            }
            logger.debug("recognition \(requestId) ended: \(error)")
        }
        // The client left (or the socket failed): nothing more to hear.
        if progress.end(.abandoned) { await session.cancel() }
        await writer.value
        return progress.outcome ?? .abandoned
    }

    /// Sends the session's results; after the terminal one, closes the socket with 1000.
    private func sendResults(
        of session: any RecognitionSession, requestId: String, outbox: SocketOutbox, progress: Progress
    ) async {
        do throws(ParleyError) {
            for try await event in session.events {
                let frame: JSONValue
                let outcome: ServerMetrics.RecognitionOutcome
                switch event {
                case .speechStarted:
                    continue
                case .partial(let result):
                    guard progress.outcome == nil, !result.text.isEmpty else { continue }
                    outbox.send(Self.result("partialResult", requestId: requestId, [result.text]).jsonString())
                    continue
                case .final(let result):
                    frame = Self.result("finalResult", requestId: requestId, result.alternatives.map(\.text))
                    outcome = .final
                case .noSpeech:
                    frame = Self.result("finalResult", requestId: requestId, [])
                    outcome = .noSpeech
                case .tooMuchSpeech:
                    var object = Self.result("finalResult", requestId: requestId, []).objectValue ?? [:]
                    object.append("resultCode", "tooMuchSpeech")
                    frame = .object(object)
                    outcome = .tooMuchSpeech
                }
                guard progress.end(outcome) else { return }
                outbox.send(frame.jsonString())
                outbox.closeNormally()
                return
            }
        } catch {
            guard progress.end(.failed) else { return }
            logger.warning("recognition \(requestId) failed: \(error)")
            sendRefusal(Refusal(error), requestId: requestId, outbox)
        }
    }

    /// `Done` (Oracle's Web SDK) or `{"event":"audioDone"}` (Oracle's Android SDK).
    static func isEndOfAudio(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed == "Done" { return true }
        guard trimmed.hasPrefix("{"), let json = try? JSONValue(parsing: Array(trimmed.utf8)) else { return false }
        return json["event"]?.stringValue == "audioDone"
    }

    /// A `partialResult` or `finalResult` frame.
    static func result(_ event: String, requestId: String, _ utterances: [String]) -> JSONValue {
        [
            "event": .string(event), "requestId": .string(requestId),
            "nbest": .array(utterances.map { ["utterance": .string($0)] }),
        ]
    }

    /// An error frame: `{"code":…,"message":…,"requestId":…}`.
    static func errorFrame(_ error: ParleyError, requestId: String) -> String {
        JSONValue.object([
            "code": .string(error.code.rawValue), "message": .string(error.message), "requestId": .string(requestId),
        ]).jsonString()
    }

    // MARK: Refusals

    /// Queues the error frame and the close with the refusal's code on a running recognition's outbox.
    private func sendRefusal(_ refusal: Refusal, requestId: String, _ outbox: SocketOutbox) {
        logger.info("ended a recognition: \(refusal.error)")
        outbox.send(Self.errorFrame(refusal.error, requestId: requestId))
        outbox.close(refusal.error, code: refusal.code)  // counted there
    }

    /// Sends the error frame and closes with the refusal's code.
    private func sendRefusal(_ refusal: Refusal, requestId: String, _ outbound: WebSocketOutboundWriter) async throws {
        logger.info("refused a speech socket: \(refusal.error)")
        metrics.errorSent(refusal.error.code)
        try await outbound.write(.text(Self.errorFrame(refusal.error, requestId: requestId)))
        try await outbound.close(.init(codeNumber: Int(refusal.code.rawValue)), reason: refusal.error.closeReason)
    }

    /// Refuses a socket whose client may not have spoken yet: after its first frame, or after
    /// ``ServerConfiguration/refusalDelay``, whichever comes first. Several WebSocket client libraries
    /// (swift-websocket's `WSClient` among them) drop frames that arrive in the same read as the `101 Switching
    /// Protocols` response, as the chat socket's refusals know.
    private func refuseOnOpen(
        _ refusal: Refusal, heard: Bool, _ requestId: String, _ outbound: WebSocketOutboundWriter,
        _ messages: inout WebSocketInboundMessageStream.AsyncIterator
    ) async throws {
        if !heard {
            let delay = configuration.refusalDelay
            guard try await firstFrame(within: delay, orRefuse: refusal, requestId, outbound, &messages) != nil else {
                return
            }
        }
        try await refuse(refusal, requestId: requestId, outbound, &messages)
    }

    /// Refuses the socket and reads what the client still sends until its close answer.
    private func refuse(
        _ refusal: Refusal, requestId: String, _ outbound: WebSocketOutboundWriter,
        _ messages: inout WebSocketInboundMessageStream.AsyncIterator
    ) async throws {
        try await sendRefusal(refusal, requestId: requestId, outbound)
        while try await messages.next(isolation: #isolation) != nil {}
    }
}
