public import Foundation
import HTTPTypes
public import Logging
import NIOCore
import NIOWebSocket
import WSClient
import WSCore

/// The default ``ChatTransport``: a WebSocket through swift-websocket's `WSClient`, which works on Linux and on
/// Apple platforms (`URLSessionWebSocketTask` does not work on Linux).
public struct WebSocketTransport: ChatTransport {
    /// The largest frame accepted from the server.
    public var maxFrameSize: Int
    /// Where `WSClient` logs.
    public var logger: Logger

    /// A transport.
    public init(maxFrameSize: Int = 4 << 20, logger: Logger = Logger(label: "parley.client.websocket")) {
        self.maxFrameSize = maxFrameSize
        self.logger = logger
    }

    /// Opens a WebSocket to `url` with `headers`, runs `session` on it, and returns the close the server sent.
    public func connect(
        to url: URL, headers: [String: String],
        session: @escaping @Sendable (TransportConnection) async throws -> Void
    ) async throws -> TransportClose? {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let maxFrameSize = maxFrameSize
        let configuration = WebSocketClientConfiguration(maxFrameSize: maxFrameSize, additionalHeaders: fields)
        let close = try await WebSocketClient.connect(
            url: url.absoluteString, configuration: configuration, logger: logger
        ) { inbound, outbound, _ in
            let (texts, continuation) = AsyncStream.makeStream(of: String.self)
            let connection = TransportConnection(
                inbound: texts,
                send: { text in try await outbound.write(.text(text)) },
                close: { code, reason in
                    try? await outbound.close(.init(codeNumber: Int(code.rawValue)), reason: reason)
                })
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The connection closes when the session returns (or throws).
                    do {
                        try await session(connection)
                    } catch {
                        try? await outbound.close(.normalClosure, reason: nil)
                        throw error
                    }
                    try? await outbound.close(.normalClosure, reason: nil)
                }
                // Reading here also lets WSClient answer pings and see the close handshake.
                do {
                    for try await message in inbound.messages(maxSize: maxFrameSize) {
                        if case .text(let text) = message { continuation.yield(text) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish()
                    throw error
                }
                try await group.waitForAll()
            }
        }
        return close.map {
            TransportClose(code: CloseCode(rawValue: UInt16(webSocketErrorCode: $0.closeCode)), reason: $0.reason)
        }
    }
}
