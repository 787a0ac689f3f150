import NIOCore

/// Pings an upgraded WebSocket connection every interval and closes it when nothing arrived since the last ping.
///
/// Hummingbird's own pinging (`autoPing`) runs a task per socket, which keeps about 3 KiB of every idle connection
/// (docs/performance.md, `connection.memory`); this handler keeps a timer on the connection's event loop instead.
/// It sits next to the network (behind TLS) and sees bytes: a ping is the two bytes of an empty, unmasked ping
/// frame, written between whole frames (each frame is written in one event-loop turn), and any byte from the peer
/// (its pong among them) shows that it is alive. A peer silent for a whole interval after a ping gets a close frame
/// (1001, "Ping timeout") and the connection is closed, as with Hummingbird's `autoPing`.
///
/// It does nothing until ``Start`` arrives as a user outbound event, sent by a WebSocket route once the connection
/// is upgraded (``start(on:every:)``): before that, the connection speaks HTTP, which ping frames would break.
final class WebSocketKeepAlive: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Starts pinging every `interval`.
    struct Start: Sendable {
        let interval: TimeAmount
    }

    /// An empty ping frame: FIN and opcode 9, no mask, no payload (RFC 6455 §5.5.2).
    static let ping: [UInt8] = [0x89, 0x00]
    /// A close frame with code 1001 and the reason "Ping timeout" (RFC 6455 §5.5.1).
    static let timeoutClose: [UInt8] = [0x88, 14, 0x03, 0xE9] + Array("Ping timeout".utf8)

    private var timer: RepeatedTask?
    /// Whether the peer sent anything since the last ping.
    private var heard = true

    /// Starts pinging `channel` every `interval`, once it is an upgraded WebSocket connection.
    static func start(on channel: any Channel, every interval: Duration) {
        channel.triggerUserOutboundEvent(Start(interval: TimeAmount(interval)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        heard = true
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let start = event as? Start else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        promise?.succeed()
        guard timer == nil, start.interval > .zero else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: start.interval, delay: start.interval) { _ in
            let (handler, context) = bound.value
            handler.tick(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func tick(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return stop() }
        guard heard else {
            stop()
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Self.timeoutClose))).whenComplete { _ in
                bound.value.close(promise: nil)
            }
            return
        }
        heard = false
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Self.ping)), promise: nil)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
    }
}
