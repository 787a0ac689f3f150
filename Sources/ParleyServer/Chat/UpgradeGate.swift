import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ParleyCore

/// The server's HTTP/1 connection: hummingbird-websocket's upgrade channel with an ``UpgradeGate`` in front of
/// the upgrade handler.
///
/// hummingbird-websocket answers every refused upgrade with 400 and no body; the gate answers an upgrade whose
/// `Authorization` header is bad with 401 and the reason, before hummingbird-websocket sees it.
struct ChatServerChannel: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let base: HTTP1WebSocketUpgradeChannel.Value
        /// Whether the gate refused the connection's first request.
        let refused: EventLoopFuture<Bool>
        var channel: any Channel { base.channel }
    }
    typealias UpgradeHandler = NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>

    let base: HTTP1WebSocketUpgradeChannel
    /// Why an upgrade request must be refused with 401, or nil to let it through.
    let refusal: @Sendable (ChatSocket.Upgrade) -> ParleyError?
    /// The open connections, against the most the server takes.
    let connections: ConnectionCount
    /// How long a connection may take to send its first request head.
    let headerTimeout: Duration
    /// The proxies whose forwarding headers give the client's address, the key of the failed sign-in limit.
    let trustedProxies: TrustedProxies

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = connections.admit()
        if admitted {
            let connections = connections
            channel.closeFuture.whenComplete { _ in connections.release() }
        } else {
            logger.warning("refused a connection: \(connections.limit) are open")
        }
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            // Nearest the network, but behind TLS when the server has it (`TLSFiles`), so that the `503` of a busy
            // server is encrypted: just before the HTTP encoder, the first handler of the HTTP pipeline.
            let encoder = try pipeline.context(handlerType: HTTPResponseEncoder.self)
            try pipeline.addHandler(
                ConnectionGuard(headerTimeout: headerTimeout, busy: !admitted), position: .before(encoder.handler))
            guard admitted else {
                return Value(base: value, refused: channel.eventLoop.makeSucceededFuture(true))
            }
            // Inert until a WebSocket route starts it (`WebSocketKeepAlive.start(on:every:)`).
            try pipeline.addHandler(WebSocketKeepAlive(), position: .before(encoder.handler))
            let upgrader = try pipeline.context(handlerType: UpgradeHandler.self)
            // Every later request head gets the header timeout too (the guard is told where requests end).
            try pipeline.addHandler(RequestHeadWatch(), position: .before(upgrader.handler))
            let gate = UpgradeGate(
                refusal: refusal, trustedProxies: trustedProxies, decided: channel.eventLoop.makePromise())
            try pipeline.addHandler(gate, position: .before(upgrader.handler))
            return Value(base: value, refused: gate.decided.futureResult)
        }
    }

    func handle(value: Value, logger: Logger) async {
        // A refused connection is closed by the gate; hummingbird-websocket would only log that it closed.
        guard (try? await value.refused.get()) == false else { return }
        await base.handle(value: value.base, logger: logger)
    }
}

/// Looks at the first request of a connection: an upgrade that ``ChatServerChannel/refusal`` refuses gets
/// `401 Unauthorized` (`429 Too Many Requests` for an address that failed too often) and the connection closes;
/// anything else passes on, and the gate leaves the pipeline.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let refusal: @Sendable (ChatSocket.Upgrade) -> ParleyError?
    private let trustedProxies: TrustedProxies
    /// Succeeds with true when there is nothing for hummingbird-websocket to handle (the gate refused the request,
    /// or the connection closed before it sent one, such as one the header timeout dropped), false when it lets a
    /// request pass.
    let decided: EventLoopPromise<Bool>
    private var refused = false
    private var sawHead = false

    init(
        refusal: @escaping @Sendable (ChatSocket.Upgrade) -> ParleyError?, trustedProxies: TrustedProxies,
        decided: EventLoopPromise<Bool>
    ) {
        self.refusal = refusal
        self.trustedProxies = trustedProxies
        self.decided = decided
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        decided.succeed(refused || !sawHead)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if refused { return }  // the rest of a refused request
        if case .head = part {
            sawHead = true
            context.triggerUserOutboundEvent(ConnectionGuard.HeadReceived(), promise: nil)
        }
        guard case .head(let head) = part, head.headers["upgrade"].first?.lowercased() == "websocket",
            let error = refusal(
                .init(
                    uri: URI(head.uri), authorization: head.headers.first(name: "authorization"),
                    origin: head.headers.first(name: "origin"),
                    peer: trustedProxies.clientAddress(
                        peer: context.channel.remoteAddress?.ipAddress ?? "unknown",
                        forwarded: head.headers["forwarded"], xForwardedFor: head.headers["x-forwarded-for"])))
        else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        refused = true
        var body = context.channel.allocator.buffer(capacity: 128)
        body.writeBytes(
            JSONValue.object([
                "error": .object([
                    "code": .string(error.code.rawValue), "message": .string("\(error.code): \(error.message)"),
                ])
            ]).jsonBytes())
        var headers: HTTPHeaders = [
            "content-type": "application/json; charset=utf-8", "content-length": "\(body.readableBytes)",
            "connection": "close",
        ]
        let status: HTTPResponseStatus
        if error.code == .rateLimited {
            status = .tooManyRequests
            headers.add(name: "retry-after", value: "60")
        } else if error.code == .serverDraining {
            status = .serviceUnavailable
            headers.add(name: "retry-after", value: "1")
        } else {
            status = .unauthorized
            headers.add(name: "www-authenticate", value: "Bearer")
        }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
