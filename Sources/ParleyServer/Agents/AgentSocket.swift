import Crypto
import Foundation
import HummingbirdWebSocket
import Logging
import NIOWebSocket

/// The agent console's socket, `GET /agent/socket` (protocol: `docs/agents.md`).
///
/// The first frame must be `{"type":"auth","token":…,"agent":{…}}` with an agent token (``AgentToken``) signed with
/// the server's ``ServerConfiguration/agentKey``, within ``ServerConfiguration/authenticationTimeout``; otherwise the
/// socket gets an error frame and closes with ``CloseCode/authRequired``, ``CloseCode/invalidToken`` or
/// ``CloseCode/tokenExpired``. The agent is the token's `agent`: the name the frame's `agent` declares is replaced by
/// it (the frame gives only the avatar and colours). After that every frame is a command (`join`, `message`,
/// `typing`, `handBack`, `queuePage`, `ping`); a bad one gets an `error` frame and the socket stays open. When the
/// token expires, the socket is closed with ``CloseCode/tokenExpired``: the console signs in again with a new one.
struct AgentSocket: Sendable {
    let configuration: ServerConfiguration
    let hub: ChatHub
    /// Failed sign-ins per address, shared with the chat sockets: a guessed agent key is refused after a few tries.
    let signIns: SignInLimiter
    let metrics: ServerMetrics
    let logger: Logger

    /// `peer` is the client's address (``ChatRequestContext/clientAddress(of:trusting:)``), the key of the failed
    /// sign-in limit.
    func run(
        connection: ChatRequestContext, peer: String, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        var messages = inbound.messages(maxSize: configuration.maxFrameSize).makeAsyncIterator()
        let timeout = configuration.authenticationTimeout
        let clock = configuration.clock
        let timer = Task { () -> Bool in
            do { try await clock.sleep(for: timeout) } catch { return false }
            await refuse(ParleyError(.authRequired, "no auth frame within \(timeout)"), outbound)
            return true
        }
        let first = try await messages.next(isolation: #isolation)
        timer.cancel()
        guard await !timer.value, let first else { return }
        let details: AgentSession
        let expiresAt: Date
        switch authenticate(first, peer: peer) {
        case .success(let agent): (details, expiresAt) = agent
        case .failure(let error):
            await refuse(error, outbound)
            while try await messages.next(isolation: #isolation) != nil {}
            return
        }
        let id = UUID()
        logger.info("agent \(details.name ?? "?") connected")
        let outbox = SocketOutbox(
            writer: outbound, connection: connection.channel,
            limit: max(configuration.socketBufferLimit, 2 * configuration.maxFrameSize),
            writeTimeout: configuration.socketWriteTimeout, metrics: metrics, logger: logger)
        outbox.send(JSONValue.object(["type": "welcome", "agent": details.jsonValue]).jsonString())
        // The token bounds the socket: when it expires, the console must sign in again.
        let expiry = CredentialExpiry(expiresAt).watch(clock: clock) {
            outbox.close(ParleyError(.tokenExpired, "the agent token expired; sign in with a new one"))
        }
        defer { expiry.cancel() }
        await hub.attachAgent(id, details: details, outbox: outbox)
        metrics.socketOpened(.agent)
        defer { metrics.socketClosed(.agent) }
        do {
            while let message = try await messages.next(isolation: #isolation) {
                do throws(ParleyError) {
                    try await handle(message, agent: id, outbox: outbox)
                } catch {
                    metrics.errorSent(error.code)
                    outbox.send(JSONValue.object(["type": "error", "error": error.jsonValue]).jsonString())
                }
            }
        } catch {
            await hub.detachAgent(id, keepingConversations: hub.drainSwitch.isDraining)
            outbox.finish()
            await outbox.finished()
            throw error
        }
        // A server being drained keeps the agent's conversations: its console reconnects to another node.
        await hub.detachAgent(id, keepingConversations: hub.drainSwitch.isDraining)
        outbox.finish()
        await outbox.finished()
    }

    /// The agent of a valid first frame, and when its token expires. A token that is not a valid agent token counts
    /// as a failed sign-in of `peer`: an address that fails too often is refused for a while (``SignInLimiter``), so
    /// neither a token nor the key can be guessed at speed. The agent key itself does not sign in: whoever held it
    /// could act under any name.
    private func authenticate(
        _ first: WebSocketMessage, peer: String
    ) -> Result<(AgentSession, expiresAt: Date), ParleyError> {
        guard case .text(let text) = first, let frame = try? JSONValue(parsing: text), frame["type"] == "auth" else {
            return .failure(ParleyError(.authRequired, "the first frame must be {\"type\":\"auth\",…}"))
        }
        do {
            try signIns.check(peer)
        } catch {
            return .failure(error)
        }
        guard let key = configuration.agentKey, let token = frame["token"]?.stringValue else {
            signIns.recordFailure(peer)
            return .failure(
                ParleyError(
                    .invalidToken,
                    "sign in with an agent token (\"token\"), minted with `parley token --agent NAME`; "
                        + "the agent key itself does not sign in"))
        }
        let claims: AgentToken.Claims
        do {
            claims = try AgentToken.verify(token, key: key, now: configuration.clock.now())
        } catch {
            signIns.recordFailure(peer)
            return .failure(error)
        }
        // The frame may give the agent's avatar and colours; the name is the token's, whatever the frame says.
        var details = frame["agent"].flatMap { try? AgentSession(json: $0) } ?? AgentSession()
        details.name = claims.agent
        return .success((details, claims.expiresAt))
    }

    private func handle(_ message: WebSocketMessage, agent: UUID, outbox: SocketOutbox) async throws(ParleyError) {
        guard case .text(let text) = message else {
            throw ParleyError(.unsupportedFrame, "binary frames are not part of the agent protocol")
        }
        let frame = try JSONValue(parsing: text)
        var reader = try FieldReader(frame)
        let type: String = try reader.required("type")
        if type == "ping" {
            outbox.send(#"{"type":"pong"}"#)
            return
        }
        if type == "queuePage" {
            let limit: Int = try reader.optional("limit") ?? AgentQueueFeed.pageSize
            guard (1...AgentQueueFeed.maxPageSize).contains(limit) else {
                throw ParleyError(
                    .invalidValue, "limit is from 1 to \(AgentQueueFeed.maxPageSize)", path: JSONPath([.key("limit")]))
            }
            await hub.sendQueuePage(to: agent, after: try Self.position(reader.optional("after")), limit: limit)
            return
        }
        let key = ConversationKey(channelId: try reader.required("channelId"), userId: try reader.required("userId"))
        switch type {
        case "join":
            try await hub.join(key, agent: agent)
        case "message":
            let payload: MessagePayload = try reader.required("messagePayload")
            try await hub.agentSays(payload, in: key, agent: agent)
        case "typing":
            let status: TypingStatus = try reader.required("status")
            try await hub.agentTyping(status, in: key, agent: agent)
        case "handBack":
            try await hub.handBack(key, agent: agent, text: try reader.optional("text"))
        default:
            throw ParleyError(
                .unsupportedFrame,
                "unknown agent command \"\(type)\" (join, message, typing, handBack, queuePage, ping)",
                path: JSONPath([.key("type")]))
        }
    }

    /// The position of a `queuePage` command's `after`: an entry of the queue as the server sent it
    /// (`channelId`, `userId`, `since`).
    static func position(_ after: JSONValue?) throws(ParleyError) -> AgentQueue.Position? {
        guard let after else { return nil }
        var reader = try FieldReader(after)
        let key = ConversationKey(channelId: try reader.required("channelId"), userId: try reader.required("userId"))
        let since: String = try reader.required("since")
        guard let date = try? Date(since, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) else {
            throw ParleyError(
                .invalidValue, "since is a time as the queue gives it (2026-11-23T09:00:00.000Z)",
                path: JSONPath([.key("after"), .key("since")]))
        }
        return AgentQueue.Position(key: key, since: date)
    }

    private func refuse(_ error: ParleyError, _ outbound: WebSocketOutboundWriter) async {
        metrics.errorSent(error.code)
        try? await outbound.write(.text(JSONValue.object(["type": "error", "error": error.jsonValue]).jsonString()))
        try? await outbound.close(
            .init(codeNumber: Int(CloseCode(for: error.code).rawValue)), reason: error.message.clippedToCloseReason)
    }

    /// Compares secrets without leaking where or whether they differ through timing: both are hashed first, so the
    /// comparison always runs over 32 bytes whatever the lengths.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = SHA256.hash(data: Array(lhs.utf8))
        let b = SHA256.hash(data: Array(rhs.utf8))
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
