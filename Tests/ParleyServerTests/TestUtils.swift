import Foundation
import Hummingbird
import Logging
import NIOWebSocket
import ParleyServerTesting
import ServiceLifecycle
import Testing
import WSClient
import WSCore

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Parley server on a free port, in this process, for the duration of `body`.
@discardableResult
func withServer<Result: Sendable>(
    channels: [ChannelConfiguration], dataDirectory: URL? = nil,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestServer) async throws -> Result
) async throws -> Result {
    try await InProcessServer.run(channels: channels, dataDirectory: dataDirectory, configure: configure) { server in
        try await body(TestServer(port: server.port, dataDirectory: server.dataDirectory))
    }
}

/// A server clock on `clock`, its dates starting now: a test moves the server's timeouts, rate windows and dates
/// with `clock.advance(by:)` instead of waiting.
func serverClock(on clock: VirtualClock) -> ServerClock {
    ServerClock(clock: clock, startingAt: Date())
}

struct TestServer: Sendable {
    let port: Int
    let dataDirectory: URL

    func socketURL(channel: String, user: String?, client: String = "websdk") -> String {
        var url = "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/\(client)?channelId=\(channel)"
        if let user { url += "&userId=\(user)" }
        return url
    }

    /// A WebSocket upgrade request for the chat socket with an `Authorization` header, to send over plain HTTP and
    /// see the server's refusal (a client library hides the status of a refused upgrade).
    func upgradeRequest(channel: String, user: String, authorization: String) -> URLRequest {
        var request = URLRequest(
            url: URL(
                string: "http://127.0.0.1:\(port)/chat/v1/chats/sockets/websdk?channelId=\(channel)&userId=\(user)")!)
        request.setValue("websocket", forHTTPHeaderField: "Upgrade")
        request.setValue("Upgrade", forHTTPHeaderField: "Connection")
        request.setValue("13", forHTTPHeaderField: "Sec-WebSocket-Version")
        request.setValue("dGhlIHNhbXBsZSBub25jZQ==", forHTTPHeaderField: "Sec-WebSocket-Key")
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        return request
    }

    /// Opens a chat socket and runs `body` with it; returns the server's close frame, if any.
    @discardableResult
    func chat(
        channel: String, user: String?, headers: HTTPFields = [:], client: String = "websdk",
        timeout: Duration = .seconds(30), _ body: @escaping @Sendable (inout TestSocket) async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        var clientLogger = Logger(label: "parley.test.client")
        clientLogger.logLevel =
            ProcessInfo.processInfo.environment["PARLEY_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        let logger = clientLogger
        let url = socketURL(channel: channel, user: user, client: client)
        let clientConfiguration = WebSocketClientConfiguration(maxFrameSize: 4 << 20, additionalHeaders: headers)
        return try await withTimeout(timeout, "the chat on \(url)") {
            try await WebSocketClient.connect(
                url: url, configuration: clientConfiguration, logger: logger
            ) { inbound, outbound, _ in
                var socket = TestSocket(
                    iterator: inbound.messages(maxSize: 4 << 20).makeAsyncIterator(), outbound: outbound)
                try await body(&socket)
            }
        }
    }
}

struct TimeoutError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body`, failing with a ``TimeoutError`` that names `what` if it takes longer than `limit`.
func withTimeout<Value: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw TimeoutError(description: "\(what) took longer than \(limit)")
        }
        group.cancelAll()
        return value
    }
}

/// One side of a chat socket, as a test drives it.
struct TestSocket {
    var iterator: WebSocketInboundMessageStream.AsyncIterator
    let outbound: WebSocketOutboundWriter

    mutating func send(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    mutating func send(_ frame: some JSONConvertible) async throws {
        try await outbound.write(.text(frame.jsonString()))
    }

    /// The next text frame, decoded as a server frame; nil when the socket closed.
    mutating func receive() async throws -> ServerFrame? {
        while let message = try await iterator.next(isolation: #isolation) {
            if case .text(let text) = message { return try ServerFrame(decoding: text) }
        }
        return nil
    }

    /// The next conversation message; fails the test on anything else.
    mutating func receiveMessage(sourceLocation: SourceLocation = #_sourceLocation) async throws -> SkillMessage {
        let frame = try await receive()
        guard case .message(let message)? = frame else {
            Issue.record("expected a message, got \(String(describing: frame))", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return message
    }

    /// The messages of one skill turn: up to and including the one with `endOfTurn`.
    mutating func receiveTurn() async throws -> [SkillMessage] {
        var turn: [SkillMessage] = []
        repeat {
            turn.append(try await receiveMessage())
        } while turn.last?.endOfTurn != true
        return turn
    }
}

extension UserMessage {
    static func text(_ text: String, user: String) -> UserMessage {
        UserMessage(payload: .text(text), userId: user)
    }
}
