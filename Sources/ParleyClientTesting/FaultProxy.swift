public import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 that sits between a client and a Parley server and damages the WebSocket traffic in
/// reproducible ways: duplicated, reordered and delayed frames, connections that drop, a server that stops
/// answering (a zombie socket), a server that moves.
///
/// With ParleyServerTesting's `InProcessServer` as the server:
///
/// ```swift
/// try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
///     let proxy = try await FaultProxy.start(upstreamPort: server.port, faults: .init(seed: 7, duplicate: 1))
///     let client = ChatClient(configuration: .init(url: proxy.url, channelId: "echo"))
///     try await client.initialize()
///     // …every frame arrives twice…
///     await proxy.stop()
/// }
/// ```
///
/// Each connection first passes the HTTP upgrade request and response through unchanged; everything after them is
/// read as RFC 6455 frames. Only complete data frames (FIN set, opcode text or binary) are subject to ``Faults``;
/// continuation and control frames (close, ping, pong) pass unchanged and in place: a frame held back for
/// reordering goes out before them, and delayed frames are never overtaken within a direction. When the server
/// does not answer the upgrade with `101`, the rest of the connection passes through untouched.
///
/// Random choices come from ``SeededRandomNumberGenerator``s derived from ``Faults/seed``, one per connection
/// (numbered in the order the proxy accepts them) and direction, so a schedule does not depend on how the two
/// directions interleave: the same traffic with the same seed gets the same faults.
public actor FaultProxy {
    /// What to do to the data frames that pass. Probabilities are from 0 (never) to 1 (always).
    public struct Faults: Sendable, Hashable {
        /// The seed of the proxy's random choices.
        public var seed: UInt64
        /// The probability that a data frame is sent twice (the same bytes, mask included).
        public var duplicate: Double
        /// The probability that a data frame is held back and sent after the next data frame in the same
        /// direction. A held frame goes out after 50 ms when no data frame follows, and before any control or
        /// continuation frame.
        public var reorder: Double
        /// A random extra delay for each data frame, from this range; frames keep their order within a direction
        /// (a later frame waits for a delayed one). `nil` adds none.
        public var delay: ClosedRange<Duration>?
        /// Per connection: after a random number of data frames (from this range, both directions together) the
        /// proxy sends on what it holds in that frame's direction and closes both sockets, without a close frame.
        /// `nil` never drops.
        public var dropConnectionAfterFrames: ClosedRange<Int>?

        /// Faults; the defaults do nothing.
        public init(
            seed: UInt64, duplicate: Double = 0, reorder: Double = 0, delay: ClosedRange<Duration>? = nil,
            dropConnectionAfterFrames: ClosedRange<Int>? = nil
        ) {
            self.seed = seed
            self.duplicate = duplicate
            self.reorder = reorder
            self.delay = delay
            self.dropConnectionAfterFrames = dropConnectionAfterFrames
        }
    }

    /// What the proxy has done so far.
    public struct Stats: Sendable, Hashable {
        /// Client connections accepted.
        public var connections = 0
        /// Data frames sent on to the server (a duplicate counts once, in ``duplicated``).
        public var dataFramesToServer = 0
        /// Data frames sent on to the client (a duplicate counts once, in ``duplicated``).
        public var dataFramesToClient = 0
        /// Data frames sent a second time.
        public var duplicated = 0
        /// Data frames sent after the data frame that followed them.
        public var reordered = 0
        /// Data frames given an extra delay.
        public var delayed = 0
        /// Frames (and upgrade messages) swallowed by the black hole.
        public var swallowed = 0
        /// Connections the proxy closed on purpose: ``Faults/dropConnectionAfterFrames`` and
        /// ``FaultProxy/dropAllConnections()``.
        public var droppedConnections = 0
        /// Client connections closed because the server could not be reached.
        public var failedUpstreamConnections = 0

        /// No counts.
        public init() {}
    }

    /// The port clients connect to, at 127.0.0.1.
    public nonisolated let port: Int
    /// The proxy's base URL, `http://127.0.0.1:<port>`, for ``ChatClient/Configuration``.
    public nonisolated var url: URL { .loopback(port: port) }

    private let serverChannel: any Channel
    private let shared: ProxyState

    private init(port: Int, serverChannel: any Channel, shared: ProxyState) {
        self.port = port
        self.serverChannel = serverChannel
        self.shared = shared
    }

    /// Starts a proxy on a free port of 127.0.0.1 in front of `upstreamHost:upstreamPort`.
    /// - Parameters:
    ///   - upstreamHost: The server's host.
    ///   - upstreamPort: The server's port, such as ParleyServerTesting's `InProcessServer.port`.
    ///   - faults: What to do to the frames.
    /// - Throws: When the proxy cannot listen.
    public static func start(
        upstreamHost: String = "127.0.0.1", upstreamPort: Int, faults: Faults
    ) async throws -> FaultProxy {
        let shared = ProxyState(upstreamHost: upstreamHost, upstreamPort: upstreamPort, faults: faults)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let relay = Relay(shared: shared, client: channel)
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(relay: relay, side: .client))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        return FaultProxy(port: port, serverChannel: channel, shared: shared)
    }

    /// Replaces the faults. Probabilities, delays and the drop range apply to the next frame on every connection;
    /// a new seed restarts the random choices of every connection and direction.
    public func setFaults(_ faults: Faults) {
        shared.state.withLockedValue { $0.faults = faults }
    }

    /// The faults in force.
    public var faults: Faults {
        shared.state.withLockedValue { $0.faults }
    }

    /// Closes every proxied connection abruptly: both sockets, no close frame, frames in flight lost.
    public func dropAllConnections() {
        for relay in shared.state.withLockedValue({ Array($0.relays.values) }) {
            relay.eventLoop.execute { relay.value.drop(countAsDropped: true) }
        }
    }

    /// Turns the black hole on or off. While on, every byte in both directions is swallowed (frames are still
    /// parsed, so the connection can recover when it goes off) and connections stay open, like a peer that stopped
    /// answering; new connections are accepted and black-holed too.
    public func setBlackHole(_ on: Bool) {
        shared.state.withLockedValue { $0.blackHole = on }
    }

    /// Sends new connections to another server port (the server restarted elsewhere). Open connections stay where
    /// they are.
    public func setUpstreamPort(_ port: Int) {
        shared.state.withLockedValue { $0.upstreamPort = port }
    }

    /// What the proxy has done so far.
    public var stats: Stats {
        shared.state.withLockedValue { $0.stats }
    }

    /// Stops listening and closes every connection. The proxy cannot be started again.
    public func stop() async {
        try? await serverChannel.close()
        var closing: [EventLoopFuture<Void>] = []
        for relay in shared.state.withLockedValue({ Array($0.relays.values) }) {
            closing.append(relay.eventLoop.submit { relay.value.drop(countAsDropped: false) })
        }
        for future in closing { try? await future.get() }
    }
}

// MARK: - Shared state

/// What the proxy's connections share with the actor: the settings and the counts, behind a lock.
final class ProxyState: Sendable {
    struct State: Sendable {
        var upstreamHost: String
        var upstreamPort: Int
        var faults: FaultProxy.Faults
        var blackHole = false
        var stats = FaultProxy.Stats()
        var nextConnectionID = 0
        var relays: [Int: NIOLoopBound<Relay>] = [:]
    }

    let state: NIOLockedValueBox<State>

    init(upstreamHost: String, upstreamPort: Int, faults: FaultProxy.Faults) {
        state = NIOLockedValueBox(State(upstreamHost: upstreamHost, upstreamPort: upstreamPort, faults: faults))
    }

    var blackHole: Bool { state.withLockedValue { $0.blackHole } }

    func count(_ update: (inout FaultProxy.Stats) -> Void) {
        state.withLockedValue { update(&$0.stats) }
    }
}

// MARK: - One proxied connection

/// The two sockets of one proxied connection and the traffic between them. Lives on one event loop: the upstream
/// socket is opened on the client socket's loop, so both handlers, the timers and this object share a thread.
final class Relay {
    enum Side { case client, upstream }

    let shared: ProxyState
    let eventLoop: any EventLoop
    let client: any Channel
    private(set) var id = -1
    private var upstream: (any Channel)?
    /// What the client sent before the upstream socket was open.
    private var waiting: [ByteBuffer] = []
    private let toServer: Direction
    private let toClient: Direction
    /// Whether the server answered the upgrade with something else than `101`: bytes then pass untouched.
    private var raw = false
    private var closed = false
    /// Data frames seen in both directions, for ``FaultProxy/Faults/dropConnectionAfterFrames``.
    private var dataFrames = 0
    private var dropPlan: (range: ClosedRange<Int>, after: Int)?
    private var dropGenerator = SeededRandomNumberGenerator(seed: 0)
    private var dropSeed: UInt64?

    init(shared: ProxyState, client: any Channel) {
        self.shared = shared
        self.eventLoop = client.eventLoop
        self.client = client
        self.toServer = Direction(toServer: true)
        self.toClient = Direction(toServer: false)
    }

    // MARK: Opening and closing

    func clientActive() {
        let (id, host, port) = shared.state.withLockedValue { state in
            let id = state.nextConnectionID
            state.nextConnectionID += 1
            state.stats.connections += 1
            state.relays[id] = NIOLoopBound(self, eventLoop: eventLoop)
            return (id, state.upstreamHost, state.upstreamPort)
        }
        self.id = id
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(relay: bound.value, side: .upstream))
                }
            }
            .connect(host: host, port: port)
            .assumeIsolated()
            .whenComplete { result in self.upstreamConnected(result) }
    }

    private func upstreamConnected(_ result: Result<any Channel, any Error>) {
        switch result {
        case .success(let channel):
            guard !closed else {
                channel.close(promise: nil)
                return
            }
            upstream = channel
            let waiting = self.waiting
            self.waiting = []
            for bytes in waiting { received(bytes, from: .client) }
        case .failure:
            guard !closed else { return }
            shared.count { $0.failedUpstreamConnections += 1 }
            finish()
            client.close(promise: nil)
        }
    }

    /// One socket closed: what is on its way from it still goes out, then the other socket closes.
    func inactive(_ side: Side) {
        guard !closed else { return }
        finish()
        let from = side == .client ? toServer : toClient
        let other = side == .client ? upstream : client
        guard let other else { return }
        let last = write(from.takeAll(), to: other, toServer: side == .client)
        if let last {
            last.assumeIsolated().whenComplete { _ in other.close(promise: nil) }
        } else {
            other.close(promise: nil)
        }
    }

    /// Closes both sockets at once, dropping whatever is held or delayed.
    func drop(countAsDropped: Bool) {
        guard !closed else { return }
        finish()
        if countAsDropped { shared.count { $0.droppedConnections += 1 } }
        client.close(promise: nil)
        upstream?.close(promise: nil)
    }

    /// Marks the relay closed, stops its timers and forgets it in the proxy.
    private func finish() {
        closed = true
        toServer.cancelTimers()
        toClient.cancelTimers()
        let id = self.id
        shared.state.withLockedValue { _ = $0.relays.removeValue(forKey: id) }
    }

    // MARK: Reading

    func received(_ bytes: ByteBuffer, from side: Side) {
        guard !closed else { return }
        if side == .client, upstream == nil {
            waiting.append(bytes)
            return
        }
        let direction = side == .client ? toServer : toClient
        direction.buffer.writeImmutableBuffer(bytes)
        if !direction.pastUpgrade {
            guard let end = Self.endOfHeader(in: direction.buffer),
                let header = direction.buffer.readSlice(length: end)
            else { return }
            direction.pastUpgrade = true
            if side == .upstream, !Self.isSwitchingProtocols(header) { raw = true }
            pass(header, in: direction, isData: false)
        }
        if raw {
            if let rest = direction.buffer.readSlice(length: direction.buffer.readableBytes), rest.readableBytes > 0 {
                pass(rest, in: direction, isData: false)
            }
        } else {
            while !closed, let next = Self.nextFrame(in: &direction.buffer) {
                if next.isData {
                    dataFrame(next.frame, in: direction)
                } else {
                    pass(next.frame, in: direction, isData: false)
                }
            }
        }
        direction.buffer.discardReadBytes()
    }

    /// Sends a frame that is not subject to faults, after any frame held back (so that nothing moves past it).
    private func pass(_ bytes: ByteBuffer, in direction: Direction, isData: Bool) {
        if shared.blackHole {
            shared.count { $0.swallowed += 1 }
            return
        }
        if let held = direction.takeHeld() { enqueue(held, in: direction) }
        enqueue(Direction.Item(bytes: bytes, isData: isData), in: direction)
    }

    private func dataFrame(_ frame: ByteBuffer, in direction: Direction) {
        let (faults, blackHole) = shared.state.withLockedValue { ($0.faults, $0.blackHole) }
        if blackHole {
            shared.count { $0.swallowed += 1 }
            return
        }
        direction.reseed(faults.seed, connection: id)
        // Always the same draws per frame, so that changing one probability does not shift the others' choices.
        let duplicate = Double.random(in: 0..<1, using: &direction.generator) < faults.duplicate
        let reorder = Double.random(in: 0..<1, using: &direction.generator) < faults.reorder
        let delay = faults.delay.map { Self.random(in: $0, using: &direction.generator) }
        var item = Direction.Item(bytes: frame, isData: true, copies: duplicate ? 2 : 1, delay: delay)
        if let held = direction.takeHeld() {
            enqueue(item, in: direction)
            item = held
            item.reordered = true
            enqueue(item, in: direction)
        } else if reorder {
            direction.hold(item, on: eventLoop) {
                if let held = direction.takeHeld() { self.enqueue(held, in: direction) }
            }
        } else {
            enqueue(item, in: direction)
        }
        countDataFrame(faults.dropConnectionAfterFrames, seed: faults.seed, direction: direction)
    }

    private func countDataFrame(_ range: ClosedRange<Int>?, seed: UInt64, direction: Direction) {
        dataFrames += 1
        guard let range else {
            dropPlan = nil
            return
        }
        if dropSeed != seed {
            dropSeed = seed
            dropGenerator = SeededRandomNumberGenerator(seed: Self.derivedSeed(seed, connection: id, stream: 2))
            dropPlan = nil
        }
        if dropPlan?.range != range {
            dropPlan = (range, dataFrames - 1 + Int.random(in: range, using: &dropGenerator))
        }
        guard let dropPlan, dataFrames >= dropPlan.after else { return }
        // Send on what this direction holds, then drop both sockets.
        let target = direction.toServer ? upstream : client
        finish()
        shared.count { $0.droppedConnections += 1 }
        let close = { [client, upstream] in
            client.close(promise: nil)
            upstream?.close(promise: nil)
        }
        if let target, let last = write(direction.takeAll(), to: target, toServer: direction.toServer) {
            last.assumeIsolated().whenComplete { _ in close() }
        } else {
            close()
        }
    }

    // MARK: Writing

    private func enqueue(_ item: Direction.Item, in direction: Direction) {
        var item = item
        let now = NIODeadline.now()
        if let delay = item.delay, delay > .zero {
            shared.count { $0.delayed += 1 }
            item.due = max(now + delay, direction.lastDue)
        } else {
            item.due = max(now, direction.lastDue)
        }
        direction.lastDue = item.due
        direction.queue.append(item)
        pump(direction)
    }

    /// Writes the frames whose time has come and sets a timer for the next one.
    private func pump(_ direction: Direction) {
        guard !closed, let target = direction.toServer ? upstream : client else { return }
        let now = NIODeadline.now()
        var due: [Direction.Item] = []
        while let first = direction.queue.first, first.due <= now {
            due.append(direction.queue.removeFirst())
        }
        _ = write(due, to: target, toServer: direction.toServer)
        if let next = direction.queue.first, direction.timer == nil {
            direction.timer = eventLoop.assumeIsolated().scheduleTask(deadline: next.due) {
                direction.timer = nil
                self.pump(direction)
            }
        }
    }

    /// Writes and flushes `items`; the future of the last write, `nil` when nothing was written.
    @discardableResult
    private func write(_ items: [Direction.Item], to target: any Channel, toServer: Bool) -> EventLoopFuture<Void>? {
        guard !items.isEmpty else { return nil }
        if shared.blackHole {
            let frames = items.count
            shared.count { $0.swallowed += frames }
            return nil
        }
        var counts = (forwarded: 0, duplicated: 0, reordered: 0)
        for item in items where item.isData {
            counts.forwarded += 1
            counts.duplicated += item.copies - 1
            if item.reordered { counts.reordered += 1 }
        }
        // Counted before the bytes go, so that a peer that got them sees them counted.
        if counts.forwarded > 0 {
            shared.count { stats in
                if toServer {
                    stats.dataFramesToServer += counts.forwarded
                } else {
                    stats.dataFramesToClient += counts.forwarded
                }
                stats.duplicated += counts.duplicated
                stats.reordered += counts.reordered
            }
        }
        var last: EventLoopFuture<Void>?
        for item in items {
            for _ in 0..<item.copies { last = target.write(item.bytes) }
        }
        target.flush()
        return last
    }

    // MARK: Framing

    /// The length of the HTTP head at the start of `buffer`, up to and including the first `\r\n\r\n`.
    static func endOfHeader(in buffer: ByteBuffer) -> Int? {
        let view = buffer.readableBytesView
        guard view.count >= 4 else { return nil }
        var index = view.startIndex
        while index + 3 < view.endIndex {
            if view[index] == 13, view[index + 1] == 10, view[index + 2] == 13, view[index + 3] == 10 {
                return index - view.startIndex + 4
            }
            index += 1
        }
        return nil
    }

    /// Whether an HTTP response head is `101 Switching Protocols`.
    static func isSwitchingProtocols(_ header: ByteBuffer) -> Bool {
        let statusLine = header.readableBytesView.prefix { $0 != 13 }
        let parts = String(decoding: statusLine, as: UTF8.self).split(separator: " ")
        return parts.count >= 2 && parts[1] == "101"
    }

    /// Reads one complete RFC 6455 frame from `buffer`; whether it is a complete data frame (FIN set, opcode 1 or
    /// 2). `nil` when the frame is not complete yet.
    static func nextFrame(in buffer: inout ByteBuffer) -> (frame: ByteBuffer, isData: Bool)? {
        let start = buffer.readerIndex
        guard let first = buffer.getInteger(at: start, as: UInt8.self),
            let second = buffer.getInteger(at: start + 1, as: UInt8.self)
        else { return nil }
        var headerLength = 2
        var payloadLength: UInt64
        switch second & 0x7F {
        case 126:
            guard let length = buffer.getInteger(at: start + 2, as: UInt16.self) else { return nil }
            headerLength += 2
            payloadLength = UInt64(length)
        case 127:
            guard let length = buffer.getInteger(at: start + 2, as: UInt64.self) else { return nil }
            headerLength += 8
            payloadLength = length
        case let length:
            payloadLength = UInt64(length)
        }
        if second & 0x80 != 0 { headerLength += 4 }
        guard payloadLength <= UInt64(Int.max - headerLength),
            let frame = buffer.readSlice(length: headerLength + Int(payloadLength))
        else { return nil }
        let opcode = first & 0x0F
        return (frame, first & 0x80 != 0 && (opcode == 1 || opcode == 2))
    }

    static func random(in range: ClosedRange<Duration>, using generator: inout SeededRandomNumberGenerator)
        -> TimeAmount
    {
        let lower = nanoseconds(range.lowerBound)
        let upper = nanoseconds(range.upperBound)
        return .nanoseconds(Int64.random(in: lower...max(lower, upper), using: &generator))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The seed of one random stream of one connection (stream 0 and 1: the directions; 2: the drop).
    static func derivedSeed(_ seed: UInt64, connection: Int, stream: UInt64) -> UInt64 {
        var mixer = SeededRandomNumberGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: connection) &* 3 &+ stream))
        return mixer.next()
    }
}
