import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOWebSocket
import Prometheus
import Testing
import WSClient
import WSCore

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sockets that misbehave: invalid UTF-8, a peer that never reads, guessed keys and tokens.
@Suite("Hostile sockets", .serialized, .timeLimit(.minutes(2)))
struct HostileSocketTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    /// RFC 6455 §8.1: a text frame that is not UTF-8 fails the connection with 1007; it is not "repaired".
    @Test func invalidUTF8InATextFrameClosesWith1007() async throws {
        try await withServer(channels: [Self.echo]) { server in
            let close = try await server.chat(channel: "echo", user: "ann") { socket in
                let bytes: [UInt8] =
                    Array(#"{"messagePayload":{"type":"text","text":"caf"#.utf8) + [0xC3, 0x28]
                    + Array(#""},"userId":"ann"}"#.utf8)
                try await socket.outbound.write(
                    .custom(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes))))
                #expect(try await socket.receive() == nil)
            }
            #expect(close?.closeCode == .dataInconsistentWithMessage)
            // The server goes on: the same user chats on a new socket, and nothing was stored from the bad frame.
            try await server.chat(channel: "echo", user: "ann") { socket in
                try await socket.send(UserMessage.text("hello", user: "ann"))
                #expect(try await socket.receiveMessage().payload == .text("hello"))
            }
        }
    }

    /// A message in several frames (RFC 6455 §5.4) is collated; a continuation without a start closes with 1002, a
    /// message above the size limit across its frames with 1009.
    @Test func fragmentedMessagesAreCollatedAndBoundedBySize() async throws {
        try await withServer(channels: [Self.echo], configure: { $0.maxFrameSize = 4096 }) { server in
            let bytes = Array(UserMessage.text("in three parts", user: "ann").jsonString().utf8)
            let parts = [bytes[..<10], bytes[10..<20], bytes[20...]]
            try await server.chat(channel: "echo", user: "ann") { socket in
                for (index, part) in parts.enumerated() {
                    let frame = WebSocketFrame(
                        fin: index == parts.count - 1, opcode: index == 0 ? .text : .continuation,
                        data: ByteBuffer(bytes: part))
                    try await socket.outbound.write(.custom(frame))
                }
                #expect(try await socket.receiveMessage().payload == .text("in three parts"))
            }
            let stray = try await server.chat(channel: "echo", user: "ann") { socket in
                try await socket.outbound.write(
                    .custom(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "{}"))))
                #expect(try await socket.receive() == nil)
            }
            #expect(stray?.closeCode == .protocolError)
            let tooLong = try await server.chat(channel: "echo", user: "ann") { socket in
                let part = ByteBuffer(bytes: [UInt8](repeating: UInt8(ascii: " "), count: 3000))
                try await socket.outbound.write(.custom(WebSocketFrame(fin: false, opcode: .text, data: part)))
                try await socket.outbound.write(.custom(WebSocketFrame(fin: true, opcode: .continuation, data: part)))
                #expect(try await socket.receive() == nil)
            }
            #expect(tooLong?.closeCode == .messageTooLarge)
        }
    }

    /// A user id with a control character is refused: SQLite would read "ann\0x" as "ann" in some lookups.
    @Test func aUserIdWithAControlCharacterIsRefused() async throws {
        try await withServer(channels: [Self.echo]) { server in
            let close = try await server.chat(channel: "echo", user: "ann%00x") { socket in  // ann, NUL, x
                try await socket.send(UserMessage.text("hello", user: "ann"))
                #expect(try await socket.receive() == nil)
            }
            #expect(close?.closeCode == .policyViolation)
            #expect(close?.reason?.hasPrefix("decode.invalidValue") == true)
        }
    }

    /// A socket of the same user that never reads fills its buffers; the user's other socket gets every reply
    /// anyway, and the stuck socket is closed as too slow (`socket.tooSlow`, close code 4020).
    ///
    /// The 4020 close frame itself cannot reach a peer that reads nothing (it waits behind the frame that is stuck,
    /// and the connection is closed two seconds later, `SocketOutbox`), so the server's count of the coded closes
    /// it sent (`parley_errors_total{code="socket.tooSlow"}`) tells which way the socket was closed.
    @Test func aSocketThatNeverReadsStallsNobody() async throws {
        // A write timeout far beyond the wait: the buffer limit, not the write timeout, must close the stuck socket.
        let tooSlow = try await Self.tooSlowClosesPastAStuckSocket(bufferLimit: 256 << 10, writeTimeout: .seconds(60))
        // As too slow, once: the stuck socket, not the one that read every reply.
        #expect(tooSlow == 1)
    }

    /// A socket whose one write never finishes is closed after the write timeout, even when its buffer limit is
    /// far off; there is no close frame to send then (nothing gets through), so no `socket.tooSlow` is counted.
    @Test func aWriteThatNeverFinishesClosesTheSocketAfterTheWriteTimeout() async throws {
        // A buffer limit above the 8 MB of replies: never reached.
        let tooSlow = try await Self.tooSlowClosesPastAStuckSocket(bufferLimit: 64 << 20, writeTimeout: .seconds(1))
        #expect(tooSlow == nil)
    }

    /// `ann` chats past a socket of hers that reads nothing (``chatPastAStuckSocket(_:)``), on a server with these
    /// outbox limits; checks that the server closed the stuck connection, and returns how many `socket.tooSlow`
    /// closes it counted (nil for none).
    static func tooSlowClosesPastAStuckSocket(bufferLimit: Int, writeTimeout: Duration) async throws -> Double? {
        let registry = PrometheusCollectorRegistry()
        return try await withServer(
            channels: [Self.echo],
            configure: {
                $0.maxFrameSize = 128 << 10
                $0.socketBufferLimit = bufferLimit
                $0.socketWriteTimeout = writeTimeout
                $0.metricsFactory = PrometheusMetricsFactory(registry: registry)
            }
        ) { server in
            let stuck = try await Self.stuckSocket(port: server.port)
            try await Self.chatPastAStuckSocket(server)
            // The server closed the stuck connection (it reads nothing; the server gives up on it).
            #expect(try await stuck.waitForClose(within: .seconds(20)))
            return Samples(registry.emitToString()).value(
                ServerMetrics.errors, ["code": "socket.tooSlow", "via": "socket"])
        }
    }

    /// A chat socket of `ann` on the echo channel that reads nothing after its upgrade request.
    static func stuckSocket(port: Int) async throws -> RawConnection {
        let stuck = try await RawConnection.open(port: port)
        try await stuck.send(
            "GET /chat/v1/chats/sockets/websdk?channelId=echo&userId=ann HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        return stuck
    }

    /// `ann` chats on a second socket: 80 replies of 100 KB, far more than a stuck socket's kernel buffers and
    /// outbox together, each of which must arrive. About 5 s alone; beside the whole suite on two cores it took more
    /// than 30 s, so the chat has 90 s (a stall would take for ever).
    static func chatPastAStuckSocket(_ server: TestServer) async throws {
        let text = String(repeating: "x", count: 100_000)
        try await server.chat(channel: "echo", user: "ann", timeout: .seconds(90)) { socket in
            for index in 0..<80 {
                try await socket.send(UserMessage.text("\(index) \(text)", user: "ann"))
                let reply = try await socket.receiveMessage()
                #expect(reply.payload.text?.hasPrefix("\(index) ") == true)
            }
        }
    }

    /// A peer that never answers is pinged, then closed with 1001 "Ping timeout" one interval later.
    @Test func aPeerThatNeverAnswersPingsIsClosed() async throws {
        try await withServer(channels: [Self.echo], configure: { $0.webSocketPingInterval = .milliseconds(200) }) {
            server in
            let (connection, peer) = try await PingPeer.connect(port: server.port, answering: false)
            #expect(try await connection.waitForClose(within: .seconds(20)))
            #expect(peer.frames == WebSocketKeepAlive.ping + WebSocketKeepAlive.timeoutClose)
        }
    }

    /// A peer that answers pings (as every WebSocket library does) keeps its socket, ping after ping.
    @Test func aPeerThatAnswersPingsStays() async throws {
        try await withServer(channels: [Self.echo], configure: { $0.webSocketPingInterval = .milliseconds(100) }) {
            server in
            let (connection, peer) = try await PingPeer.connect(port: server.port, answering: true)
            var pings = 0
            for await _ in peer.pings {
                pings += 1
                if pings == 4 { break }
            }
            #expect(connection.channel.isActive)
            #expect(peer.frames == Array([[UInt8]](repeating: WebSocketKeepAlive.ping, count: 4).joined()))
            try await connection.channel.close()
        }
    }

    /// Tokens signed with a guessed agent key are refused after a few tries from the same address, even when the next
    /// token is signed with the right key.
    @Test func guessingTheAgentKeyIsRateLimited() async throws {
        try await withServer(
            channels: [Self.echo],
            configure: {
                $0.agentKey = "right-key"
                $0.failedSignInsPerMinute = 3
            }
        ) { server in
            for attempt in 0..<4 {
                let key = attempt < 3 ? "guess-\(attempt)" : "right-key"
                let close = try await Self.agentSignIn(port: server.port, key: key)
                let expected: CloseCode = attempt < 3 ? .invalidToken : .tryAgainLater
                #expect(close?.closeCode == .unknown(expected.rawValue), "attempt \(attempt)")
            }
        }
    }

    /// Bad tokens in the upgrade header count too: after the limit even a good token gets 429 for a while.
    @Test func badTokensAreRateLimitedPerAddress() async throws {
        let secured = ChannelConfiguration(
            id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, skill: .echo)
        try await withServer(channels: [secured], configure: { $0.failedSignInsPerMinute = 3 }) { server in
            let good = ChannelToken.mint(channelId: "secured", userId: "alice", secret: "s3cret", lifetime: 600)
            let bad = ChannelToken.mint(channelId: "secured", userId: "alice", secret: "guess", lifetime: 600)
            var statuses: [Int] = []
            for token in [bad, bad, bad, good] {
                let request = server.upgradeRequest(channel: "secured", user: "alice", authorization: "Bearer \(token)")
                let (body, response) = try await URLSession.shared.data(for: request)
                statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
                if statuses.count == 4 {
                    #expect(try JSONValue(parsing: body)["error"]?["code"]?.stringValue == "server.rateLimited")
                }
            }
            #expect(statuses == [401, 401, 401, 429])
        }
    }

    /// On a channel with session secrets, a user id is no longer enough: the socket needs the secret the server
    /// issued for it (4007 without one, 4008 with a wrong one).
    @Test func aSessionSecretChannelNeedsTheUsersSecret() async throws {
        let bound = ChannelConfiguration(id: "bound", skill: .echo, sessionSecrets: true)
        try await withServer(channels: [bound]) { server in
            var request = URLRequest(
                url: URL(string: "http://127.0.0.1:\(server.port)/chat/v1/sessions?channelId=bound&userId=ann")!)
            request.httpMethod = "POST"
            let (body, _) = try await URLSession.shared.data(for: request)
            let secret = try #require(try JSONValue(parsing: body)["sessionSecret"]?.stringValue)
            let without = try await server.chat(channel: "bound", user: "ann") { socket in
                try await socket.send(StateFrame.ping)
                #expect(try await socket.receive() == nil)
            }
            #expect(without?.closeCode == .unknown(CloseCode.sessionRequired.rawValue))
            let wrong = try await server.chat(channel: "bound", user: "ann&sessionSecret=guess") { socket in
                try await socket.send(StateFrame.ping)
                #expect(try await socket.receive() == nil)
            }
            #expect(wrong?.closeCode == .unknown(CloseCode.sessionInvalid.rawValue))
            let encoded = try #require(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            try await server.chat(channel: "bound", user: "ann&sessionSecret=\(encoded)") { socket in
                try await socket.send(UserMessage.text("it is me", user: "ann"))
                #expect(try await socket.receiveMessage().payload == .text("it is me"))
            }
        }
    }

    /// Opens the agent console's socket, signs in with a token signed with `key`, returns the server's close frame.
    static func agentSignIn(port: Int, key: String) async throws -> WebSocketCloseFrame? {
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/agent/socket", logger: Logger(label: "parley.test.agent")
        ) { inbound, outbound, _ in
            let token = AgentToken.mint(agent: "Eve", key: key, lifetime: 600)
            try await outbound.write(.text(#"{"type":"auth","token":"\#(token)"}"#))
            for try await _ in inbound.messages(maxSize: 1 << 20) {}
        }
    }
}

/// A TCP connection that writes what it is told and reads nothing until it is asked to wait for the close.
struct RawConnection: Sendable {
    let channel: any Channel

    static func open(port: Int) async throws -> RawConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            .channelOption(.socketOption(.so_rcvbuf), value: 4096)
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// Starts reading (and discarding) and waits until the server closes the connection; false after `limit`.
    func waitForClose(within limit: Duration) async throws -> Bool {
        do {
            try await channel.setOption(.autoRead, value: true).get()
        } catch {
            // Already closed: setting an option on it fails, and there is nothing to wait for.
            if !channel.isActive { return true }
            throw error
        }
        channel.read()
        return try await withTimeout(limit, "the server closing a stuck socket") {
            try? await channel.closeFuture.get()
            return true
        }
    }
}

/// A raw WebSocket peer that never sends a frame of its own: it keeps the bytes the server sends after the upgrade,
/// and answers each ping with a pong when `answering`.
final class PingPeer: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let received = NIOLockedValueBox<(head: [UInt8], frames: [UInt8], upgraded: Bool)>(([], [], false))
    private let answering: Bool
    private let continuation: AsyncStream<Void>.Continuation
    /// One element per ping received.
    let pings: AsyncStream<Void>

    init(answering: Bool) {
        self.answering = answering
        (pings, continuation) = AsyncStream.makeStream()
    }

    /// The bytes received after the `101` response.
    var frames: [UInt8] { received.withLockedValue { $0.frames } }

    /// Opens a chat socket on the echo channel as user `ann`.
    static func connect(port: Int, answering: Bool) async throws -> (RawConnection, PingPeer) {
        let connection = try await RawConnection.open(port: port)
        let peer = PingPeer(answering: answering)
        try await connection.channel.pipeline.addHandler(peer).get()
        try await connection.channel.setOption(.autoRead, value: true).get()
        try await connection.send(
            "GET /chat/v1/chats/sockets/websdk?channelId=echo&userId=ann HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        return (connection, peer)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Array(unwrapInboundIn(data).readableBytesView)
        let newFrames = received.withLockedValue { state -> [UInt8] in
            guard !state.upgraded else {
                state.frames += bytes
                return bytes
            }
            state.head += bytes
            guard let end = state.head.firstRange(of: Array("\r\n\r\n".utf8)) else { return [] }
            state.upgraded = true
            state.frames = Array(state.head[end.upperBound...])
            return state.frames
        }
        // The server's frames here are empty pings (2 bytes each) until its close frame.
        for start in stride(from: 0, to: newFrames.count - 1, by: 2) where newFrames[start] == 0x89 {
            continuation.yield()
            // A pong, masked as a client's frames must be (RFC 6455 §5.3), with a zero key and no payload.
            if answering {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [0x8A, 0x80, 0, 0, 0, 0])), promise: nil)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }
}
