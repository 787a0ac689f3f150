import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every Parley route: Hummingbird's core storage, the WebSocket upgrade reference, and the
/// connection itself, so that a handler knows the peer's address (for rate limits) and can close a connection
/// whose writes are stuck (a socket that never reads).
struct ChatRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }

    /// The peer's address.
    var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// The peer's IP address as text, the key of per-address limits; `unknown` when the connection has none.
    var peer: String { channel.remoteAddress?.ipAddress ?? "unknown" }
}
