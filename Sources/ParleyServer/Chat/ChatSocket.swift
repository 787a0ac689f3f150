import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

/// One chat socket: authentication, then frames in, replies out.
struct ChatSocket {
    let configuration: ServerConfiguration
    let hub: ChatHub
    /// Failed sign-ins per address (bad tokens, bad session secrets), shared with uploads and the agent console.
    let signIns: SignInLimiter
    /// The session secrets of channels that bind user ids to them.
    let sessions: SessionSecrets
    let metrics: ServerMetrics
    let logger: Logger
    /// The messages of each conversation per minute (``ServerConfiguration/messagesPerMinute``), on this node.
    let inputs: SignInLimiter

    init(
        configuration: ServerConfiguration, hub: ChatHub, signIns: SignInLimiter, sessions: SessionSecrets,
        metrics: ServerMetrics, logger: Logger
    ) {
        self.configuration = configuration
        self.hub = hub
        self.signIns = signIns
        self.sessions = sessions
        self.metrics = metrics
        self.logger = logger
        inputs = SignInLimiter(
            limit: configuration.messagesPerMinute, clock: configuration.clock, what: "messages in this conversation")
    }

    /// What the upgrade request said, and who asked.
    struct Upgrade {
        var channelId: String?
        var userId: String?
        var authorization: String?
        var origin: String?
        /// The client's IP address, the key of the failed sign-in limit.
        var peer: String
        /// The `sessionSecret` query parameter, or the `X-Parley-Session-Secret` header.
        var sessionSecret: String?

        init(_ request: Request, peer: String) {
            self.init(
                uri: request.uri, authorization: request.headers[.authorization], origin: request.headers[.origin],
                peer: peer)
            sessionSecret =
                request.uri.queryParameters.get("sessionSecret") ?? request.headers[Self.sessionSecretHeader]
        }

        static let sessionSecretHeader = HTTPField.Name.parleySessionSecret

        init(uri: URI, authorization: String?, origin: String?, peer: String) {
            channelId = uri.queryParameters.get("channelId")
            userId = uri.queryParameters.get("userId")
            self.authorization = authorization
            self.origin = origin
            self.peer = peer
        }

        /// The token of an `Authorization: Bearer` header.
        var bearerToken: String? {
            ChannelToken.bearerToken(in: authorization)
        }
    }

    /// Why the upgrade must be refused with HTTP 401 (or 503 while the node drains), or nil: an `Authorization`
    /// header that is present, on an enabled authenticated channel, but is not a valid `Bearer` token for it.
    /// Everything else is decided after the upgrade, with an error payload and a close code a browser can see.
    func refusalAtUpgrade(_ upgrade: Upgrade) -> ParleyError? {
        // A draining node takes no new sockets: `503`, which a load balancer retries on another node.
        if hub.drainSwitch.isDraining { return DrainSwitch.error }
        guard upgrade.authorization != nil, let channelId = upgrade.channelId,
            let channel = configuration.channel(channelId), channel.enabled, channel.clientAuthenticationEnabled
        else { return nil }
        do {
            _ = try verify(upgrade.bearerToken, for: channel, userId: upgrade.userId, peer: upgrade.peer)
            return nil
        } catch {
            return error
        }
    }

    /// Verifies a token from `peer`, refusing at once when `peer` has failed too often lately (``SignInLimiter``)
    /// and counting a failure.
    func verify(_ token: String?, for channel: ChannelConfiguration, userId: String?, peer: String) throws(ParleyError)
        -> TokenClaims
    {
        try signIns.check(peer)
        do throws(ParleyError) {
            guard let token else {
                throw ParleyError(.invalidToken, "the Authorization header is not \"Bearer <token>\"")
            }
            return try ChannelToken.verify(token, for: channel, userId: userId, now: configuration.clock.now())
        } catch {
            signIns.recordFailure(peer)
            throw error
        }
    }

    /// Runs the socket until it closes.
    ///
    /// An idle socket waits in ``serve``, and a task keeps the memory of the deepest frames it has had until it ends
    /// (docs/performance.md, `connection.memory`): the admission's locals (tokens, refusals, the `auth` frame) live in
    /// functions of their own, called only when the upgrade request does not decide alone, and what the frames
    /// hold while the socket is served is boxed.
    @inline(never)
    func run(
        _ request: Request, connection: ChatRequestContext, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        var messages = InboundMessages(inbound, maxSize: configuration.maxFrameSize)
        let upgrade = Upgrade(
            request, peer: connection.clientAddress(of: request, trusting: configuration.trustedProxies))
        do {
            let admitted: Admitted?
            // Most sockets are admitted by their upgrade request alone, without a frame of the admission's.
            switch try admission(upgrade) {
            case .admitted(let ready): admitted = ready
            case let pending: admitted = try await admit(pending, upgrade, &messages, outbound)
            }
            guard let admitted else { return }
            try await serve(admitted, connection: connection.channel, &messages, outbound)
        } catch let violation as InboundMessages.Violation {
            try await outbound.close(violation.code, reason: nil)
        }
    }

    /// Who a socket serves, once admitted: a class, so that the frames that hold it stay small.
    private final class Admitted: Sendable {
        let channel: ChannelConfiguration
        let key: ConversationKey
        let peer: String
        /// When the token the socket was opened with expires (an `auth` frame on the socket renews it); nil on a
        /// channel without tokens.
        let expiry: CredentialExpiry?

        init(channel: ChannelConfiguration, key: ConversationKey, peer: String, expiresAt: Date? = nil) {
            self.channel = channel
            self.key = key
            self.peer = peer
            self.expiry = expiresAt.map(CredentialExpiry.init)
        }
    }

    /// What the upgrade request alone decides (``admission(_:)``); boxed, so that the frames that hold it stay small.
    private indirect enum Admission {
        case admitted(Admitted)
        case refused(ParleyError, CloseCode?)
        /// An authenticated channel without a bearer token: the first frame must be `auth`.
        case awaitingAuthFrame(ChannelConfiguration)
        /// A channel with session secrets (``SessionSecrets``): the secret must match the user's.
        case checkingSessionSecret(Admitted)
    }

    /// Finishes an admission that the upgrade request did not decide alone: refuses, or reads the `auth` frame,
    /// or checks the session secret; nil when the socket was refused.
    @inline(never)
    private func admit(
        _ admission: Admission, _ upgrade: Upgrade, _ messages: inout InboundMessages,
        _ outbound: WebSocketOutboundWriter
    ) async throws -> Admitted? {
        switch admission {
        case .admitted(let admitted):
            return admitted
        case .refused(let error, let code):
            try await refuseOnOpen(error, code, &messages, outbound)
            return nil
        case .awaitingAuthFrame(let channel):
            return try await authenticateFirstFrame(upgrade, channel: channel, &messages, outbound)
        case .checkingSessionSecret(let admitted):
            return try await checkSessionSecret(upgrade, admitted, &messages, outbound)
        }
    }

    /// What the upgrade request decides before any frame is read.
    /// - Throws: The error of a bearer token that is not valid for the channel.
    private func admission(_ upgrade: Upgrade) throws(ParleyError) -> Admission {
        guard let channelId = upgrade.channelId, let channel = configuration.channel(channelId) else {
            return .refused(ParleyError(.unknownChannel, "no channel \"\(upgrade.channelId ?? "")\""), nil)
        }
        guard channel.enabled else {
            return .refused(ParleyError(.channelDisabled, "channel \"\(channel.id)\" is disabled"), nil)
        }
        guard channel.allows(origin: upgrade.origin) else {
            let error = ParleyError(
                .originForbidden, "origin \(upgrade.origin ?? "") may not use channel \"\(channel.id)\"")
            return .refused(error, nil)
        }
        var userId = upgrade.userId
        var expiresAt: Date?
        if channel.clientAuthenticationEnabled {
            guard let token = upgrade.bearerToken else { return .awaitingAuthFrame(channel) }
            let claims = try verify(token, for: channel, userId: userId, peer: upgrade.peer)
            userId = claims.userId
            expiresAt = claims.expiryDate
        }
        let admitted: Admitted
        do throws(ParleyError) {
            admitted = try self.admitted(userId, on: channel, peer: upgrade.peer, expiresAt: expiresAt)
        } catch {
            return .refused(error, .policyViolation)
        }
        return SessionSecrets.applies(to: channel) ? .checkingSessionSecret(admitted) : .admitted(admitted)
    }

    /// The socket of `userId` (from the query or the token) on `channel`.
    /// - Throws: `decode.missingField` without a user id, `decode.invalidValue` for one that
    ///   ``ConversationKey/validate(userId:)`` refuses.
    private func admitted(
        _ userId: String?, on channel: ChannelConfiguration, peer: String, expiresAt: Date? = nil
    ) throws(ParleyError) -> Admitted {
        guard let userId, !userId.isEmpty else {
            throw ParleyError(.missingField, "the userId query parameter is required")
        }
        try ConversationKey.validate(userId: userId)
        return Admitted(
            channel: channel, key: ConversationKey(channelId: channel.id, userId: userId), peer: peer,
            expiresAt: expiresAt)
    }

    /// Admits a socket whose first frame, within the configured time, is a valid `auth` frame.
    @inline(never)
    private func authenticateFirstFrame(
        _ upgrade: Upgrade, channel: ChannelConfiguration,
        _ messages: inout InboundMessages, _ outbound: WebSocketOutboundWriter
    ) async throws -> Admitted? {
        let timeout = configuration.authenticationTimeout
        let late = ParleyError(.authRequired, "no auth frame within \(timeout)")
        guard let first = try await firstFrame(within: timeout, orRefuse: late, nil, &messages, outbound) else {
            return nil
        }
        switch authenticate(first, channel: channel, userId: upgrade.userId, peer: upgrade.peer) {
        case .success(let claims):
            do throws(ParleyError) {
                return try admitted(claims.userId, on: channel, peer: upgrade.peer, expiresAt: claims.expiryDate)
            } catch {
                try await refuseOnOpen(error, .policyViolation, &messages, outbound)
            }
        case .failure(let error):
            try await refuse(error, outbound)
            try await Self.drain(&messages)
        }
        return nil
    }

    /// Admits a socket whose session secret is the user's (``SessionSecrets``), until the secret's expiry.
    @inline(never)
    private func checkSessionSecret(
        _ upgrade: Upgrade, _ admitted: Admitted, _ messages: inout InboundMessages,
        _ outbound: WebSocketOutboundWriter
    ) async throws -> Admitted? {
        let expiresAt: Date?
        do throws(ParleyError) {
            try signIns.check(upgrade.peer)
            do throws(ParleyError) {
                expiresAt = try await sessions.verify(
                    channel: admitted.channel, userId: admitted.key.userId, secret: upgrade.sessionSecret)
            } catch {
                if error.code == .sessionInvalid { signIns.recordFailure(upgrade.peer) }
                throw error
            }
        } catch {
            try await refuseOnOpen(error, nil, &messages, outbound)
            return nil
        }
        return Admitted(channel: admitted.channel, key: admitted.key, peer: admitted.peer, expiresAt: expiresAt)
    }

    /// The error a socket on `channel` closes with when its credential expires: its token's (4003) on an
    /// authenticated channel, its session secret's (4009) on an open one.
    static func expiredCredential(on channel: ChannelConfiguration) -> ParleyError {
        channel.clientAuthenticationEnabled
            ? ParleyError(.tokenExpired, "the token expired; reconnect with a fresh one")
            : ParleyError(
                .sessionExpired, "the session secret expired; renew it (POST /chat/v1/sessions) and reconnect")
    }

    /// Serves an admitted socket: frames in, replies out, until it closes.
    @inline(never)
    private func serve(
        _ admitted: Admitted, connection: any Channel, _ messages: inout InboundMessages,
        _ outbound: WebSocketOutboundWriter
    ) async throws {
        let key = admitted.key
        let socket = UUID()
        let outbox = SocketOutbox(
            writer: outbound, connection: connection,
            limit: max(configuration.socketBufferLimit, 2 * configuration.maxFrameSize),
            writeTimeout: configuration.socketWriteTimeout, metrics: metrics, logger: logger)
        await hub.attach(socket, to: key, outbox: outbox)
        metrics.socketOpened(.chat)
        defer { metrics.socketClosed(.chat) }
        // A token bounds the socket, not only its opening: at its expiry (unless an `auth` frame renewed it) the
        // socket closes with 4003 `auth.expired`, and a client reconnects with a fresh token. A session secret bounds
        // it the same way: 4009 `session.expired`, and the client renews the secret and reconnects.
        let expired = Self.expiredCredential(on: admitted.channel)
        let expiryWatch = admitted.expiry?.watch(clock: configuration.clock) { [logger] in
            logger.info("closing a socket of \(key): \(expired.message)")
            outbox.close(expired)
        }
        defer { expiryWatch?.cancel() }
        do {
            while let message = try await messages.next() {
                try await handle(message, admitted, socket: socket, outbox: outbox)
            }
        } catch {
            await hub.detach(socket, from: key)
            outbox.finish()
            await outbox.finished()
            throw error
        }
        await hub.detach(socket, from: key)
        outbox.finish()
        await outbox.finished()
    }

    /// Refuses a socket that was wrong from the start, after the client's first frame or after
    /// ``ServerConfiguration/refusalDelay``, whichever comes first.
    ///
    /// Several WebSocket client libraries (swift-websocket's `WSClient` among them) drop frames that
    /// arrive in the same read as the `101 Switching Protocols` response; waiting for the client to speak,
    /// or a moment, makes sure the refusal is seen.
    private func refuseOnOpen(
        _ error: ParleyError, _ code: CloseCode?, _ messages: inout InboundMessages,
        _ outbound: WebSocketOutboundWriter
    ) async throws {
        guard
            try await firstFrame(within: configuration.refusalDelay, orRefuse: error, code, &messages, outbound) != nil
        else { return }
        try await refuse(error, outbound, code: code)
        try await Self.drain(&messages)
    }

    /// The client's first frame; nil when the client closed first, or when it sent nothing within `limit`
    /// and the socket has been refused with `error`.
    private func firstFrame(
        within limit: Duration, orRefuse error: ParleyError, _ code: CloseCode?,
        _ messages: inout InboundMessages, _ outbound: WebSocketOutboundWriter
    ) async throws -> WebSocketMessage? {
        let clock = configuration.clock
        let timer = Task { () -> Bool in
            do { try await clock.sleep(for: limit) } catch { return false }
            try? await refuse(error, outbound, code: code)
            return true
        }
        let first = try await messages.next()
        timer.cancel()
        guard await !timer.value else {
            try await Self.drain(&messages)
            return nil
        }
        return first
    }

    /// Reads what the client still sends after the server's close frame, until its close answer ends the
    /// stream: that completes the closing handshake at once instead of after the close timeout.
    private static func drain(_ messages: inout InboundMessages) async throws {
        while try await messages.next() != nil {}
    }

    /// The claims of a first frame that is a valid `auth` frame for `channel`.
    private func authenticate(_ first: WebSocketMessage, channel: ChannelConfiguration, userId: String?, peer: String)
        -> Result<TokenClaims, ParleyError>
    {
        guard case .text(let text) = first, case .state(let state)? = try? ClientFrame(decoding: text),
            state.type == .auth, let token = state.token
        else {
            return .failure(ParleyError(.authRequired, "the first frame on this channel must be an auth frame"))
        }
        return Result { () throws(ParleyError) in try verify(token, for: channel, userId: userId, peer: peer) }
    }

    /// Handles one message; `admitted` is passed whole, a pointer, so that the waiting frame of ``serve`` holds no
    /// copy of the channel's configuration for the call.
    @inline(never)
    private func handle(_ message: WebSocketMessage, _ admitted: Admitted, socket: UUID, outbox: SocketOutbox)
        async throws
    {
        let (channel, key, peer) = (admitted.channel, admitted.key, admitted.peer)
        guard case .text(let text) = message else {
            return reject(
                ParleyError(.unsupportedFrame, "binary frames are not part of the chat protocol"), key, outbox)
        }
        let json: JSONValue
        let frame: ClientFrame
        do {
            json = try JSONValue(parsing: text)
        } catch {
            return reject(error, key, outbox)
        }
        do {
            frame = try ClientFrame(json: json)
        } catch {
            reject(error, key, outbox)
            // A message Parley's client will resend until it hears about it: tell it, so it stops.
            if let id = json["clientMessageId"]?.stringValue {
                outbox.send(Acknowledgement(clientMessageId: id, error: error).stateFrame.jsonString())
            }
            return
        }
        switch frame {
        case .state(let state) where state.type == .ping:
            outbox.send(StateFrame.pong.jsonString())
        case .state(let state) where state.type == .auth:
            // A fresh token on an open socket: check it, keep the socket if it is good.
            if channel.clientAuthenticationEnabled, let token = state.token {
                do {
                    let claims = try verify(token, for: channel, userId: key.userId, peer: peer)
                    admitted.expiry?.renew(until: claims.expiryDate)
                } catch {
                    logger.info("refused a socket: \(error)")
                    return outbox.close(error)
                }
            }
        case .state(let state) where state.type == .parley:
            if let hello = ParleyHello(state) {
                if hello.resumeAfter != nil { metrics.reconnected(channel: key.channelId) }
                await hub.hello(hello, from: socket, of: key, maxFrameSize: configuration.maxFrameSize)
            }
        case .state:
            break
        case .message(let user):
            try await receive(.message(user), key: key, socket: socket, outbox: outbox)
        case .profile(let update):
            try await receive(.profile(update), key: key, socket: socket, outbox: outbox)
        case .unknown(let object):
            reject(
                ParleyError(
                    .unsupportedFrame,
                    "a frame with keys \(object.keys.joined(separator: ", ")) is not a message, profile or state frame",
                    path: JSONPath()),
                key, outbox)
        }
    }

    /// Stores an input (the skill answers it in turn) and acknowledges it when it has a `clientMessageId`.
    ///
    /// A conversation past ``ServerConfiguration/messagesPerMinute`` gets its input refused, not stored:
    /// `server.rateLimited` in the acknowledgement with `retryAfter` (Parley's client sends it again then), or as an
    /// error payload on a socket without acknowledgements. The socket stays open.
    private func receive(_ input: InputFrame, key: ConversationKey, socket: UUID, outbox: SocketOutbox) async throws {
        let conversation = key.channelId + "\u{0}" + key.userId
        do {
            try inputs.admit(conversation)
        } catch {
            metrics.errorSent(error.code)
            if let clientMessageId = input.clientMessageId {
                var ack = Acknowledgement(clientMessageId: clientMessageId, error: error)
                ack.retryAfter = inputs.refusal(conversation).map(Int.init) ?? 1
                outbox.send(ack.stateFrame.jsonString())
            } else {
                hub.send(SkillMessage(payload: .error(error), userId: key.userId), to: outbox)
            }
            return
        }
        let received: ReceivedInput
        do {
            received = try await hub.receive(input, for: key, from: socket)
        } catch {
            logger.error("cannot store an input of \(key): \(error)")
            let failure = ParleyError(.internalError, "the server could not store this message; send it again")
            metrics.errorSent(failure.code)
            hub.send(SkillMessage(payload: .error(failure), userId: key.userId), to: outbox)
            // Closed (1011, not final): the client reconnects and sends again what was not acknowledged; without
            // the close a client waiting for the acknowledgement would wait for a reconnect that never comes.
            return outbox.close(
                ParleyError(.internalError, "a message could not be stored; reconnect to send it again"))
        }
        guard let clientMessageId = input.clientMessageId else { return }
        let ack = Acknowledgement(
            clientMessageId: clientMessageId, sequence: received.sequence, duplicate: received.duplicate)
        outbox.send(ack.stateFrame.jsonString())
    }

    /// Answers a frame that cannot be used with an error payload; the socket stays open.
    private func reject(_ error: ParleyError, _ key: ConversationKey, _ outbox: SocketOutbox) {
        logger.debug("rejected a frame from \(key): \(error)")
        metrics.errorSent(error.code)
        hub.send(SkillMessage(payload: .error(error), userId: key.userId), to: outbox)
    }

    /// Closes a socket that may not be used with the error's close code and the reason `"<code>: <message>"`.
    ///
    /// No error payload goes before it: ODA closes a socket it refuses, and the Oracle Web SDK shows every frame with
    /// a `source` as a chat bubble, so an error payload would appear as a message from the skill. Parley's client
    /// reads the code from the close reason.
    private func refuse(_ error: ParleyError, _ outbound: WebSocketOutboundWriter, code: CloseCode? = nil) async throws
    {
        logger.info("refused a socket: \(error)")
        metrics.errorSent(error.code)
        let closeCode = code ?? CloseCode(for: error.code)
        try await outbound.close(.init(codeNumber: Int(closeCode.rawValue)), reason: error.closeReason)
    }
}
