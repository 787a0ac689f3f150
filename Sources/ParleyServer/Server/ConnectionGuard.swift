import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many connections are open, against the most the server takes (``ServerConfiguration/maxConnections``).
final class ConnectionCount: Sendable {
    /// The most connections open at once.
    let limit: Int
    private let open = NIOLockedValueBox(0)
    /// Called for each connection refused (``ServerMetrics/errors``, `server.busy`).
    private let refused: @Sendable () -> Void

    init(limit: Int, refused: @escaping @Sendable () -> Void = {}) {
        self.limit = limit
        self.refused = refused
    }

    /// Counts a new connection; false when the server is full (the connection is then refused, not counted).
    func admit() -> Bool {
        let admitted = open.withLockedValue { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
        if !admitted { refused() }
        return admitted
    }

    /// Forgets a closed connection that ``admit()`` counted.
    func release() {
        open.withLockedValue { $0 -= 1 }
    }

    /// The connections open now.
    var current: Int { open.withLockedValue { $0 } }

    /// The default limit: the process's descriptor limit, raised to its hard maximum first, less 128 descriptors
    /// kept for the database, attachments and logs. Without a limit below the descriptor limit, a flood of idle
    /// connections takes every descriptor and the server can neither accept nor open a file.
    static func defaultLimit() -> Int {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            var limits = rlimit()
            guard getrlimit(RLIMIT_NOFILE_VALUE, &limits) == 0 else { return 1024 - 128 }
            let ceiling: rlim_t = 1 << 20
            let wanted = min(limits.rlim_max, ceiling)
            if limits.rlim_cur < wanted {
                var raised = limits
                raised.rlim_cur = wanted
                if setrlimit(RLIMIT_NOFILE_VALUE, &raised) == 0 { limits = raised }
            }
            return max(16, Int(min(limits.rlim_cur, ceiling)) - 128)
        #else
            return 1024 - 128
        #endif
    }
}

#if canImport(Glibc)
    private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#elseif canImport(Musl) || canImport(Darwin)
    private let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
#endif

/// The first handler of every connection: it closes a connection whose request head does not arrive within
/// ``ServerConfiguration/headerTimeout`` (a client that opens a connection and sends its request a byte at a time
/// holds a descriptor forever otherwise), and answers a connection over ``ConnectionCount/limit`` with `503` and a
/// coded body, then closes it.
///
/// The first head must be complete within the timeout of the connection's opening; each later head on a kept-alive
/// connection within the timeout of its first byte (``RequestHeadWatch`` tells where requests end). Between
/// requests Hummingbird's idle timeout watches an HTTP connection, and WebSocket pings watch an upgraded one.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Sent by ``UpgradeGate`` and ``RequestHeadWatch`` (toward the front of the pipeline) when a request head is
    /// complete.
    struct HeadReceived: Sendable {}
    /// Sent by ``RequestHeadWatch`` when a request has ended: the next bytes start a head, which gets the timeout.
    struct RequestEnded: Sendable {}
    /// Sent by ``RequestHeadWatch`` when a head asks for a WebSocket: the guard leaves the pipeline.
    struct Upgrading: Sendable {}

    private let headerTimeout: TimeAmount
    /// Whether this connection is over the limit and gets `503`.
    private let busy: Bool
    private var timer: Scheduled<Void>?
    private var answered = false
    /// Whether the previous request has ended and no byte of the next one has arrived.
    private var betweenRequests = false

    init(headerTimeout: Duration, busy: Bool) {
        self.headerTimeout = TimeAmount(headerTimeout)
        self.busy = busy
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard busy else {
            if betweenRequests {
                betweenRequests = false
                arm(context, after: headerTimeout)
            }
            return context.fireChannelRead(data)
        }
        // Answer once the request has arrived (closing with unread bytes would reset the connection instead).
        guard !answered else { return }
        answered = true
        var body = context.channel.allocator.buffer(capacity: 256)
        body.writeString(
            #"{"error":{"code":"server.busy","message":"server.busy: "#
                + #"the server has as many connections as it takes; try again shortly"}}"#
        )
        var response = context.channel.allocator.buffer(capacity: 512)
        response.writeString(
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\n"
                + "content-length: \(body.readableBytes)\r\nretry-after: 1\r\nconnection: close\r\n\r\n")
        response.writeBuffer(&body)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(response)).whenComplete { _ in bound.value.close(promise: nil) }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        switch event {
        case is HeadReceived:
            timer?.cancel()
            timer = nil
            betweenRequests = false
        case is RequestEnded:
            betweenRequests = true
        case is Upgrading:
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        default:
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        promise?.succeed()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        // A busy connection gets a short grace to send its request, then is closed unanswered.
        arm(context, after: busy ? min(headerTimeout, .seconds(1)) : headerTimeout)
    }

    /// Closes the connection after `limit` unless a head arrives first.
    private func arm(_ context: ChannelHandlerContext, after limit: TimeAmount) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) {
            bound.value.close(promise: nil)
        }
    }
}

/// Tells the ``ConnectionGuard`` where each request of an HTTP connection starts and ends, so that every request
/// head, not only the first, must arrive within the header timeout. It sits just after the HTTP decoder and leaves
/// the pipeline when a head asks for a WebSocket (the connection then speaks frames, watched by pings).
final class RequestHeadWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if head.headers["upgrade"].first?.lowercased() == "websocket" {
                context.triggerUserOutboundEvent(ConnectionGuard.Upgrading(), promise: nil)
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            context.triggerUserOutboundEvent(ConnectionGuard.HeadReceived(), promise: nil)
        case .body:
            break
        case .end:
            context.triggerUserOutboundEvent(ConnectionGuard.RequestEnded(), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
