import NIOConcurrencyHelpers
import NIOCore

/// Pings an upgraded WebSocket connection every interval and closes it when nothing arrived since the last ping.
///
/// Hummingbird's own pinging (`autoPing`) runs a task per socket, which keeps about 3 KiB of every idle connection
/// (docs/performance.md, `connection.memory`), and a timer per connection still kept about 1 KiB (its repeated task,
/// scheduled task, promise and closures): the connections of one event loop are pinged by one timer of that loop
/// (``Sweep``). The handler sits next to the network (behind TLS) and sees bytes: a ping is the two bytes of an
/// empty, unmasked ping frame, written between whole frames (each frame is written in one event-loop turn), and any
/// byte from the peer (its pong among them) shows that it is alive. A connection is first pinged within an interval
/// of its start (at the loop's next tick), then every interval; a peer silent for a whole interval after a ping
/// gets a close frame (1001, "Ping timeout") and the connection is closed, as with Hummingbird's `autoPing`.
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

    /// The timer pinging this connection, and the context to ping it in, while it is pinged.
    private var sweep: Sweep?
    private var context: ChannelHandlerContext?
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
        guard sweep == nil, start.interval > .zero else { return }
        self.context = context
        sweep = Sweep.on(context.eventLoop, every: start.interval)
        sweep?.add(self)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    /// The interval is over: a ping, or the close when nothing arrived since the last one.
    fileprivate func tick() {
        guard let context else { return }
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
        sweep?.remove(self)
        sweep = nil
        context = nil
    }
}

extension WebSocketKeepAlive {
    /// The connections of one event loop pinged at one interval, by one repeating timer of that loop, which runs
    /// while there are connections. Used only on its loop; the sweeps of all loops are found in one table.
    final class Sweep {
        private struct Key: Hashable {
            let loop: ObjectIdentifier
            let interval: TimeAmount
        }

        private static let sweeps = NIOLockedValueBox<[Key: NIOLoopBound<Sweep>]>([:])

        private let key: Key
        /// Held, so that the loop's identity in ``key`` stays its own while the sweep exists.
        private let eventLoop: any EventLoop
        private var connections: [ObjectIdentifier: WebSocketKeepAlive] = [:]
        private var timer: RepeatedTask?

        private init(_ key: Key, on eventLoop: any EventLoop) {
            self.key = key
            self.eventLoop = eventLoop
        }

        /// The sweep of `eventLoop` for `interval`, made when there is none; called on that loop.
        static func on(_ eventLoop: any EventLoop, every interval: TimeAmount) -> Sweep {
            let key = Key(loop: ObjectIdentifier(eventLoop), interval: interval)
            return sweeps.withLockedValue { sweeps in
                if let sweep = sweeps[key] { return sweep.value }
                let sweep = Sweep(key, on: eventLoop)
                sweeps[key] = NIOLoopBound(sweep, eventLoop: eventLoop)
                return sweep
            }
        }

        func add(_ connection: WebSocketKeepAlive) {
            connections[ObjectIdentifier(connection)] = connection
            guard timer == nil else { return }
            let bound = NIOLoopBound(self, eventLoop: eventLoop)
            timer = eventLoop.scheduleRepeatedTask(initialDelay: key.interval, delay: key.interval) { _ in
                bound.value.tick()
            }
        }

        /// Forgets a connection; the last one stops the timer and removes the sweep from the table.
        func remove(_ connection: WebSocketKeepAlive) {
            connections[ObjectIdentifier(connection)] = nil
            guard connections.isEmpty else { return }
            timer?.cancel()
            timer = nil
            let key = key
            Self.sweeps.withLockedValue { sweeps in
                if sweeps[key]?.value === self { sweeps[key] = nil }
            }
        }

        /// Whether a sweep of `eventLoop` is running (for tests).
        static func isRunning(on eventLoop: any EventLoop) -> Bool {
            sweeps.withLockedValue { sweeps in sweeps.keys.contains { $0.loop == ObjectIdentifier(eventLoop) } }
        }

        private func tick() {
            // A connection closed by its tick leaves the table while it is walked: walk a copy.
            for connection in Array(connections.values) { connection.tick() }
        }
    }
}
