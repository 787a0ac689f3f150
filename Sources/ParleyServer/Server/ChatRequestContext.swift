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

    /// The TCP peer's IP address as text; `unknown` when the connection has none. Per-address limits key on
    /// ``clientAddress(of:trusting:)`` instead, which sees through trusted proxies.
    var peer: String { channel.remoteAddress?.ipAddress ?? "unknown" }

    /// The client's address of `request`, the key of per-address limits: the TCP peer's, or, when the peer is one
    /// of `proxies`, the one its forwarding headers give (``TrustedProxies``).
    func clientAddress(of request: Request, trusting proxies: TrustedProxies) -> String {
        proxies.clientAddress(
            peer: peer, forwarded: request.headers[values: .forwarded],
            xForwardedFor: request.headers[values: .xForwardedFor])
    }
}
