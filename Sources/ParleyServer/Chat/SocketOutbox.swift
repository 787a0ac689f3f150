import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// What waits to be written to one socket, and the one task that writes it.
///
/// Whoever sends to a socket (a reply broadcast to all of a user's sockets, a queue update to every agent) only
/// queues the frame and goes on: no sender ever waits for a slow reader. The socket's own writer (``run()``) writes
/// the frames in order. A socket that falls behind by more than ``limit`` bytes, or whose single write takes longer
/// than the write timeout, is closed: with ``CloseCode/socketTooSlow`` when the close frame can still get through,
/// by closing the connection when it cannot. What it missed is in the store; a Parley client resumes from its
/// cursor when it reconnects.
final class SocketOutbox: Sendable {
    private enum Item {
        case text(String, bytes: Int)
        case close(ParleyError)
    }

    private struct State {
        var items: [Item] = []
        var head = 0
        /// Bytes queued or being written.
        var bytes = 0
        /// The writer, waiting for an item.
        var writer: CheckedContinuation<Void, Never>?
        /// Senders waiting for room (``sendWhenRoom(_:)``).
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        /// No more items are taken: the socket closed, overflowed or finished.
        var closed = false
        var finishing = false

        mutating func take() -> Item? {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return item
        }
    }

    /// The most bytes queued before the socket is closed as too slow.
    let limit: Int
    private let writer: WebSocketOutboundWriter
    private let connection: any Channel
    private let writeTimeout: TimeAmount
    private let logger: Logger
    /// Counts the close frames queued (``ServerMetrics/errors``).
    private let metrics: ServerMetrics
    private let state = NIOLockedValueBox(State())

    /// Creates the outbox of a socket.
    /// - Parameters:
    ///   - writer: The socket's writer.
    ///   - connection: The socket's connection, closed when a write is stuck.
    ///   - limit: The most bytes queued (``ServerConfiguration/socketBufferLimit``).
    ///   - writeTimeout: How long one write may take (``ServerConfiguration/socketWriteTimeout``).
    ///   - metrics: Where the close frames queued are counted.
    ///   - logger: Where to log a socket closed as too slow.
    init(
        writer: WebSocketOutboundWriter, connection: any Channel, limit: Int, writeTimeout: Duration,
        metrics: ServerMetrics, logger: Logger
    ) {
        self.metrics = metrics
        self.writer = writer
        self.connection = connection
        self.limit = limit
        self.writeTimeout = TimeAmount(writeTimeout)
        self.logger = logger
    }

    /// Queues a text frame. Returns false when the socket is closed, or when the frame would put it more than
    /// ``limit`` bytes behind: then what is queued is dropped and the socket is closed as too slow.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = text.utf8.count
        var overflowed = false
        let (accepted, wake) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.closed, !state.finishing else { return (false, nil) }
            if state.bytes + bytes > limit {
                overflowed = true
                state.items = [
                    .close(ParleyError(.socketTooSlow, "the socket fell more than \(limit) bytes behind; reconnect"))
                ]
                state.head = 0
                state.bytes = 0
                state.finishing = true
            } else {
                state.items.append(.text(text, bytes: bytes))
                state.bytes += bytes
            }
            defer { state.writer = nil }
            return (!overflowed, state.writer)
        }
        wake?.resume()
        if overflowed {
            metrics.errorSent(.socketTooSlow)
            logger.info("closing a socket that fell \(limit) bytes behind")
            // The close frame waits behind a write that may never finish: the connection goes after a moment anyway.
            let connection = connection
            _ = connection.eventLoop.scheduleTask(in: .seconds(2)) { connection.close(promise: nil) }
        }
        return accepted
    }

    /// Queues a text frame once fewer than half of ``limit`` bytes are waiting: for a socket's own replay of what it
    /// missed, which may be longer than the limit, so that the socket is paced instead of closed.
    func sendWhenRoom(_ text: String) async {
        while true {
            let wait: Bool = state.withLockedValue { state in
                !state.closed && !state.finishing && state.bytes > 0 && state.bytes + text.utf8.count > limit / 2
            }
            guard wait else { break }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = state.withLockedValue { state -> Bool in
                    guard !state.closed, !state.finishing, state.bytes > 0 else { return true }
                    state.roomWaiters.append(waiter)
                    return false
                }
                if ready { waiter.resume() }
            }
        }
        send(text)
    }

    /// Queues a close frame for `error` after what is queued; nothing is queued after it.
    func close(_ error: ParleyError) {
        let (queued, wake) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.closed, !state.finishing else { return (false, nil) }
            state.items.append(.close(error))
            state.finishing = true
            defer { state.writer = nil }
            return (true, state.writer)
        }
        if queued { metrics.errorSent(error.code) }
        wake?.resume()
    }

    /// Ends ``run()`` once what is queued is written (the socket's reading side ended).
    func finish() {
        let wake = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.finishing = true
            defer { state.writer = nil }
            return state.writer
        }
        wake?.resume()
    }

    /// Writes what is queued, in order, until ``finish()``, a close, or a failed write.
    func run() async {
        defer { closeAll() }
        while let item = await next() {
            let connection = connection
            let timer = connection.eventLoop.scheduleTask(in: writeTimeout) { connection.close(promise: nil) }
            defer { timer.cancel() }
            switch item {
            case .text(let text, let bytes):
                do {
                    try await writer.write(.text(text))
                } catch {
                    return
                }
                written(bytes)
            case .close(let error):
                var reason = "\(error.code): \(error.message)"
                while reason.utf8.count > 123 { reason.removeLast() }
                try? await writer.close(.init(codeNumber: Int(CloseCode(for: error.code).rawValue)), reason: reason)
                return
            }
        }
    }

    private func next() async -> Item? {
        while true {
            let (item, done) = state.withLockedValue { state -> (Item?, Bool) in
                if let item = state.take() { return (item, false) }
                return (nil, state.finishing || state.closed)
            }
            if let item { return item }
            if done { return nil }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = state.withLockedValue { state -> Bool in
                    guard state.head >= state.items.count, !state.finishing, !state.closed else { return true }
                    state.writer = waiter
                    return false
                }
                if ready { waiter.resume() }
            }
        }
    }

    private func written(_ bytes: Int) {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.bytes = max(0, state.bytes - bytes)  // an overflow empties the count while a write is out
            guard state.bytes <= limit / 2 else { return [] }
            defer { state.roomWaiters = [] }
            return state.roomWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// After the writer stops: nothing more is queued, and whoever waits for room stops waiting.
    private func closeAll() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.closed = true
            state.items = []
            state.head = 0
            if let writer = state.writer {
                state.writer = nil
                writer.resume()
            }
            defer { state.roomWaiters = [] }
            return state.roomWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
