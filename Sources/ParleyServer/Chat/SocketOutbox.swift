import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// What waits to be written to one socket, and the one task at a time that writes it.
///
/// Whoever sends to a socket (a reply broadcast to all of a user's sockets, a queue update to every agent) only
/// queues the frame and goes on: no sender ever waits for a slow reader. A writing task, started when a frame is
/// queued on an idle outbox and ended when the queue is empty, writes the frames in order: an idle socket holds no
/// task of its own for writing (each would keep about 3 KiB, docs/performance.md, `connection.memory`).
///
/// A socket that falls behind by more than ``limit`` bytes, or whose single write takes longer than the write
/// timeout, is closed: with ``CloseCode/socketTooSlow`` when the close frame can still get through,
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
        /// A writing task runs (``drain()``): it takes items until none is left.
        var writing = false
        /// Senders waiting for room (``sendWhenRoom(_:)``).
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        /// Waiting for the last write after ``finish()`` (``finished()``).
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        /// No more items are taken: the socket closed, overflowed or finished.
        var closed = false
        var finishing = false

        /// Marks a writing task as started, when none runs and there is something to write.
        mutating func startWriting() -> Bool {
            guard !writing, !closed, head < items.count else { return false }
            writing = true
            return true
        }

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
        let (accepted, start) = state.withLockedValue { state -> (Bool, Bool) in
            guard !state.closed, !state.finishing else { return (false, false) }
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
            return (!overflowed, state.startWriting())
        }
        if start { startWriting() }
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
        let (queued, start) = state.withLockedValue { state -> (Bool, Bool) in
            guard !state.closed, !state.finishing else { return (false, false) }
            state.items.append(.close(error))
            state.finishing = true
            return (true, state.startWriting())
        }
        if queued { metrics.errorSent(error.code) }
        if start { startWriting() }
    }

    /// Takes no more frames: what is queued is still written (the socket's reading side ended).
    func finish() {
        let done = state.withLockedValue { state -> Bool in
            state.finishing = true
            return !state.writing
        }
        if done { closeAll() }
    }

    /// Returns once what was queued before ``finish()`` is written, or the socket failed.
    func finished() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state -> Bool in
                guard !state.closed else { return true }
                state.finishWaiters.append(waiter)
                return false
            }
            if done { waiter.resume() }
        }
    }

    private func startWriting() {
        Task { await drain() }
    }

    /// Writes what is queued, in order, until the queue is empty, a close is written, or a write fails.
    private func drain() async {
        while let item = next() {
            let connection = connection
            let timer = connection.eventLoop.scheduleTask(in: writeTimeout) { connection.close(promise: nil) }
            defer { timer.cancel() }
            switch item {
            case .text(let text, let bytes):
                do {
                    try await writer.write(.text(text))
                } catch {
                    return closeAll()
                }
                written(bytes)
            case .close(let error):
                var reason = "\(error.code): \(error.message)"
                while reason.utf8.count > 123 { reason.removeLast() }
                try? await writer.close(.init(codeNumber: Int(CloseCode(for: error.code).rawValue)), reason: reason)
                return closeAll()
            }
        }
    }

    /// The next item to write; nil, ending the writing task, when there is none (and, once finishing, the outbox).
    private func next() -> Item? {
        let (item, done) = state.withLockedValue { state -> (Item?, Bool) in
            if let item = state.take() { return (item, false) }
            state.writing = false
            return (nil, state.finishing)
        }
        if done { closeAll() }
        return item
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

    /// After the last write: nothing more is queued, and whoever waits for room or for the end stops waiting.
    private func closeAll() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.closed = true
            state.writing = false
            state.items = []
            state.head = 0
            defer {
                state.roomWaiters = []
                state.finishWaiters = []
            }
            return state.roomWaiters + state.finishWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
