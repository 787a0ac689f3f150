public import Foundation

/// The seam between ``ChatClient`` and the network: opens a text-frame connection and hands it to a session.
///
/// The default, ``WebSocketTransport``, uses swift-websocket's `WSClient` on Linux and Apple platforms.
/// `ParleyClientTesting` adds an in-memory pair and a fault-injecting proxy; an app can add its own (a
/// `URLSessionWebSocketTask` one on Apple platforms, say).
public protocol ChatTransport: Sendable {
    /// Opens a connection to `url` and runs `session` with it. The connection closes when `session` returns.
    /// - Parameters:
    ///   - url: The socket URL, with its query.
    ///   - headers: Extra headers for the opening request (such as `Authorization`).
    ///   - session: Reads the connection's inbound frames until they end and writes through it.
    /// - Returns: How the peer closed the connection, when it did.
    /// - Throws: When the connection cannot be opened (or fails), or what `session` throws.
    func connect(
        to url: URL, headers: [String: String],
        session: @escaping @Sendable (TransportConnection) async throws -> Void
    ) async throws -> TransportClose?
}

/// An open connection: the text frames that arrive, and ways to send and to close.
public struct TransportConnection: Sendable {
    /// The text frames from the peer, in order; ends when the connection closes.
    public let inbound: AsyncStream<String>
    private let sendText: @Sendable (String) async throws -> Void
    private let closeConnection: @Sendable (CloseCode, String?) async -> Void

    /// A connection made of its parts (for transports).
    public init(
        inbound: AsyncStream<String>, send: @escaping @Sendable (String) async throws -> Void,
        close: @escaping @Sendable (CloseCode, String?) async -> Void
    ) {
        self.inbound = inbound
        self.sendText = send
        self.closeConnection = close
    }

    /// Sends one text frame.
    public func send(_ text: String) async throws {
        try await sendText(text)
    }

    /// Starts closing the connection; ``inbound`` ends when it has closed.
    public func close(_ code: CloseCode = .normal, reason: String? = nil) async {
        await closeConnection(code, reason)
    }
}

/// How a peer closed a connection.
public struct TransportClose: Sendable, Hashable {
    /// The close code; `nil` when the close frame had none.
    public var code: CloseCode?
    /// The close reason.
    public var reason: String?

    /// A close.
    public init(code: CloseCode?, reason: String?) {
        self.code = code
        self.reason = reason
    }
}
