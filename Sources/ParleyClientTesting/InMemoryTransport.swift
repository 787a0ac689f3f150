public import Foundation
import NIOConcurrencyHelpers
public import ParleyClient

/// A ``ChatTransport`` that connects to an ``InMemoryServer`` in the same process, without a network: a test plays
/// the server, frame by frame.
///
/// ```swift
/// let (transport, server) = InMemoryTransport.pair()
/// let client = ChatClient(configuration: .init(url: URL(string: "http://parley.test")!, channelId: "c"),
///                         transport: transport)
/// async let initialized: Void = client.initialize()
/// var connections = server.connections.makeAsyncIterator()
/// let connection = await connections.next()!
/// var inbound = connection.inbound.makeAsyncIterator()
/// _ = await inbound.next()                          // {"state":{"type":"ping"}}
/// await connection.send(#"{"state":{"type":"pong"}}"#)
/// try await initialized
/// ```
///
/// It behaves as ``WebSocketTransport`` does: ``connect(to:headers:session:)`` runs the session with a
/// ``TransportConnection`` whose `inbound` yields what the server side sends; when the session returns (or throws)
/// the connection closes and the server side's ``InMemoryServerConnection/inbound`` ends; when the server side
/// closes, the client's `inbound` ends and `connect` returns the server's ``TransportClose`` once the session has
/// returned. A close the client starts is answered as Parley's server answers it, with a normal close.
public struct InMemoryTransport: ChatTransport {
    /// The server this transport connects to.
    public let server: InMemoryServer

    /// A transport connecting to `server`.
    public init(server: InMemoryServer) {
        self.server = server
    }

    /// A transport and the server it connects to.
    public static func pair() -> (transport: InMemoryTransport, server: InMemoryServer) {
        let server = InMemoryServer()
        return (InMemoryTransport(server: server), server)
    }

    /// Opens a connection to the in-memory server (the URL and headers are handed to the server side as they are)
    /// and runs `session` with it.
    /// - Returns: How the server side closed the connection; `TransportClose(code: .normal, reason: nil)` when the
    ///   client closed it (the answer to its close frame).
    /// - Throws: The error given to ``InMemoryServer/refuseNextConnections(_:count:)``; what `session` throws;
    ///   `CancellationError` when the calling task was cancelled before the server side closed. Cancellation ends
    ///   the client's `inbound`, so a session that reads it returns at once; the connection then closes normally.
    public func connect(
        to url: URL, headers: [String: String],
        session: @escaping @Sendable (TransportConnection) async throws -> Void
    ) async throws -> TransportClose? {
        try Task.checkCancellation()
        try server.admit()
        let link = InMemoryLink()
        let connection = TransportConnection(
            inbound: link.toClient.stream,
            send: { text in try link.clientSend(text) },
            close: { code, reason in link.close(by: .client, TransportClose(code: code, reason: reason)) })
        server.accept(InMemoryServerConnection(url: url, headers: headers, link: link))
        try await withTaskCancellationHandler {
            do {
                try await session(connection)
            } catch {
                link.close(by: .client, TransportClose(code: .normal, reason: nil))
                throw error
            }
            link.close(by: .client, TransportClose(code: .normal, reason: nil))
        } onCancel: {
            // As over a socket: the inbound ends, the session returns, and the connection closes normally.
            link.endClientInbound()
        }
        if case .server(let close)? = link.ending { return close }
        try Task.checkCancellation()
        return TransportClose(code: .normal, reason: nil)
    }
}

/// The server end of an ``InMemoryTransport``: every `connect` arrives on ``connections``. Thread-safe (its state
/// is behind a lock), so a test can use it from any task.
public final class InMemoryServer: Sendable {
    /// One element per `connect` call, in order (refused calls excepted). Iterate it from one task at a time.
    public let connections: AsyncStream<InMemoryServerConnection>
    private let continuation: AsyncStream<InMemoryServerConnection>.Continuation
    private let refusals = NIOLockedValueBox<(error: any Error, count: Int)?>(nil)

    /// A server with no connections. ``InMemoryTransport/pair()`` makes one with its transport.
    public init() {
        (connections, continuation) = AsyncStream.makeStream(of: InMemoryServerConnection.self)
    }

    /// Makes the next `count` calls of `connect` throw `error` without reaching ``connections`` (a refused
    /// upgrade, a network that is down). `count` `Int.max` refuses until ``acceptConnections()``.
    public func refuseNextConnections(_ error: any Error, count: Int = 1) {
        refusals.withLockedValue { $0 = count > 0 ? (error, count) : nil }
    }

    /// Accepts connections again after ``refuseNextConnections(_:count:)``.
    public func acceptConnections() {
        refusals.withLockedValue { $0 = nil }
    }

    /// Ends ``connections`` (a later `connect` still runs, but nobody sees it).
    public func finish() {
        continuation.finish()
    }

    func admit() throws {
        let refusal = refusals.withLockedValue { refusal -> (any Error)? in
            guard let current = refusal else { return nil }
            refusal = current.count > 1 ? (current.error, current.count - 1) : nil
            return current.error
        }
        if let refusal { throw refusal }
    }

    func accept(_ connection: InMemoryServerConnection) {
        continuation.yield(connection)
    }
}

/// The server side of one in-memory connection: what the client sent, and ways to answer and to close.
public struct InMemoryServerConnection: Sendable {
    /// The URL the client connected to, with its query.
    public let url: URL
    /// The headers of the client's opening request.
    public let headers: [String: String]
    /// The text frames the client sent, in order; ends when either side closes or the client's session ends.
    public let inbound: AsyncStream<String>
    private let link: InMemoryLink

    init(url: URL, headers: [String: String], link: InMemoryLink) {
        self.url = url
        self.headers = headers
        self.inbound = link.toServer.stream
        self.link = link
    }

    /// Sends a text frame to the client; dropped when the connection is closed.
    public func send(_ text: String) async {
        link.serverSend(text)
    }

    /// Closes the connection: the client's inbound ends and its `connect` returns
    /// `TransportClose(code: code, reason: reason)`. Does nothing when the connection is already closed.
    public func close(_ code: CloseCode = .normal, reason: String? = nil) async {
        link.close(by: .server, TransportClose(code: code, reason: reason))
    }

    /// How the client closed the connection: the code and reason it sent, or `.normal` without a reason when its
    /// session ended (also after its task was cancelled); `nil` while open or when the server side closed first.
    public var clientClose: TransportClose? {
        if case .client(let close) = link.ending { close } else { nil }
    }

    /// Whether either side has closed the connection.
    public var isClosed: Bool { link.ending != nil }
}

/// The two directions of one in-memory connection and who closed it first.
final class InMemoryLink: Sendable {
    enum Side { case client, server }
    enum Ending: Sendable {
        case client(TransportClose)
        case server(TransportClose)
    }

    let toClient = AsyncStream.makeStream(of: String.self)
    let toServer = AsyncStream.makeStream(of: String.self)
    private let state = NIOLockedValueBox<Ending?>(nil)

    var ending: Ending? { state.withLockedValue { $0 } }

    func clientSend(_ text: String) throws {
        // Under the lock, so that a frame cannot slip in after the close.
        try state.withLockedValue { ending in
            guard ending == nil else { throw ParleyError(.notConnected, "the in-memory connection is closed") }
            toServer.continuation.yield(text)
        }
    }

    func serverSend(_ text: String) {
        state.withLockedValue { ending in
            guard ending == nil else { return }
            toClient.continuation.yield(text)
        }
    }

    /// Ends what the client reads (its task was cancelled); the connection closes when the session returns.
    func endClientInbound() {
        toClient.continuation.finish()
    }

    /// The first close wins; both directions end.
    func close(by side: Side, _ close: TransportClose) {
        let first = state.withLockedValue { ending -> Bool in
            guard ending == nil else { return false }
            ending = side == .client ? .client(close) : .server(close)
            return true
        }
        guard first else { return }
        toClient.continuation.finish()
        toServer.continuation.finish()
    }
}
