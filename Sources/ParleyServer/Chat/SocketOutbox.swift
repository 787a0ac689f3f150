import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// What waits to be written to one socket, written from the socket's event loop.
///
/// Whoever sends to a socket (a reply broadcast to all of a user's sockets, a queue update to every agent) only
/// queues the frame and goes on: no sender ever waits for a slow reader. The first frame queued on an idle outbox
/// asks the connection's event loop to write; there, every frame queued by then is written and flushed at once, so
/// an acknowledgement and the reply ready just after it leave in one `writev`. No task and no continuation per frame
/// (docs/performance.md, `server.throughput`), and an idle socket holds nothing for writing
/// (`connection.memory`).
///
/// Frames go straight into the connection's pipeline, beside Hummingbird's writer, which still writes the close
/// frame (its handshake state must know of it): a close is handed to it after the frames before it are in the
/// pipeline, so it follows them.
///
/// A socket that falls behind by more than ``limit`` bytes (queued or written but not yet taken by the kernel), or
/// whose writes make no progress for the write timeout, is closed: with ``CloseCode/socketTooSlow`` when the close
/// frame can still get through, by closing the connection when it cannot. What it missed is in the store; a Parley
/// client resumes from its cursor when it reconnects.
final class SocketOutbox: Sendable {
    private enum Item {
        case text(String, bytes: Int)
        case close(WebSocketErrorCode, reason: String?)

        /// The close frame of `error`, with its close code unless `code` is given.
        static func closing(_ error: ParleyError, code: CloseCode? = nil) -> Item {
            .close(
                WebSocketErrorCode(codeNumber: Int((code ?? CloseCode(for: error.code)).rawValue)),
                reason: error.closeReason)
        }
    }

    private struct State {
        var items: [Item] = []
        /// Bytes queued, or written and not yet taken by the kernel.
        var bytes = 0
        /// A write is asked of the event loop (``flush()``) and has not run yet.
        var scheduled = false
        /// Batches written into the pipeline whose write has not completed.
        var outstanding = 0
        /// When the writes last made progress (the first batch written, or a batch completed).
        var progress = NIODeadline.uptimeNanoseconds(0)
        /// The write timeout's check, armed while batches are outstanding.
        var timer: Scheduled<Void>?
        /// The close frame is being written (by Hummingbird's writer).
        var closing = false
        /// Senders waiting for room (``sendWhenRoom(_:)``).
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        /// Waiting for the last write after ``finish()`` (``finished()``).
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        /// No more items are taken: the socket closed, overflowed or finished.
        var closed = false
        var finishing = false

        /// Whether the outbox has nothing left to write, so that a finishing outbox is done.
        var idle: Bool { items.isEmpty && !scheduled && outstanding == 0 && !closing }

        /// Marks a write as asked of the event loop, when none is asked yet and there is something to write.
        mutating func schedule() -> Bool {
            guard !scheduled, !closed, !items.isEmpty else { return false }
            scheduled = true
            return true
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
    ///   - writer: The socket's writer, for the close frame.
    ///   - connection: The socket's connection: frames are written into its pipeline, and it is closed when writes
    ///     are stuck.
    ///   - limit: The most bytes queued (``ServerConfiguration/socketBufferLimit``).
    ///   - writeTimeout: How long writes may make no progress (``ServerConfiguration/socketWriteTimeout``).
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
                    .closing(ParleyError(.socketTooSlow, "the socket fell more than \(limit) bytes behind; reconnect"))
                ]
                state.bytes = 0
                state.finishing = true
            } else {
                state.items.append(.text(text, bytes: bytes))
                state.bytes += bytes
            }
            return (!overflowed, state.schedule())
        }
        if start { scheduleFlush() }
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
    @discardableResult
    func sendWhenRoom(_ text: String) async -> Bool {
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
        return send(text)
    }

    /// Queues a close frame for `error` after what is queued, with `code` (by default the error's own close code,
    /// ``CloseCode/init(for:)``); nothing is queued after it.
    func close(_ error: ParleyError, code: CloseCode? = nil) {
        if enqueue(.closing(error, code: code)) { metrics.errorSent(error.code) }
    }

    /// Queues a normal close (1000) after what is queued; nothing is queued after it.
    func closeNormally() {
        enqueue(.close(.normalClosure, reason: nil))
    }

    /// Queues a close frame, unless the outbox takes nothing more; whether it was queued.
    @discardableResult
    private func enqueue(_ close: Item) -> Bool {
        let (queued, start) = state.withLockedValue { state -> (Bool, Bool) in
            guard !state.closed, !state.finishing else { return (false, false) }
            state.items.append(close)
            state.finishing = true
            return (true, state.schedule())
        }
        if start { scheduleFlush() }
        return queued
    }

    /// Takes no more frames: what is queued is still written (the socket's reading side ended).
    func finish() {
        let done = state.withLockedValue { state -> Bool in
            state.finishing = true
            return state.idle
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

    private func scheduleFlush() {
        let loop = connection.eventLoop
        if loop.inEventLoop {
            flush()
        } else {
            loop.execute { self.flush() }
        }
    }

    /// On the event loop: writes every frame queued, in order, and flushes them together; a close frame is handed
    /// to Hummingbird's writer once the frames before it are in the pipeline.
    private func flush() {
        let (items, closed) = state.withLockedValue { state -> ([Item], Bool) in
            state.scheduled = false
            // Taken whole: keeping the capacity would copy the array's storage at once (it is shared with `items`),
            // and an outbox gone idle would hold it.
            defer { state.items = [] }
            return (state.items, state.closed)
        }
        guard !closed, !items.isEmpty else { return }
        var batch = 0
        var last: WebSocketFrame?
        var close: (code: WebSocketErrorCode, reason: String?)?
        for item in items {
            switch item {
            case .text(let text, let bytes):
                if let last { connection.write(last, promise: nil) }
                last = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))
                batch += bytes
            case .close(let code, let reason):
                close = (code, reason)
            }
            if close != nil { break }
        }
        if let last {
            // Frames complete in order: the batch's last frame completes it.
            let promise = connection.eventLoop.makePromise(of: Void.self)
            let bytes = batch
            promise.futureResult.whenComplete { result in
                switch result {
                case .success: self.written(bytes)
                case .failure: self.closeAll()
                }
            }
            state.withLockedValue { state in
                if state.outstanding == 0 { state.progress = .now() }
                state.outstanding += 1
                if state.timer == nil { state.timer = armTimer(in: writeTimeout) }
                if close != nil { state.closing = true }
            }
            connection.writeAndFlush(last, promise: promise)
        } else if close != nil {
            state.withLockedValue { $0.closing = true }
        }
        if let close { sendClose(close.code, reason: close.reason) }
    }

    /// Writes the close frame through Hummingbird's writer (after the frames already in the pipeline), then ends.
    private func sendClose(_ code: WebSocketErrorCode, reason: String?) {
        let writer = writer
        Task {
            try? await writer.close(code, reason: reason)
            self.closeAll()
        }
    }

    /// Checks, `delay` from now, that the outstanding writes made progress within the write timeout; closes the
    /// connection when they did not. Called with the state locked.
    private func armTimer(in delay: TimeAmount) -> Scheduled<Void> {
        connection.eventLoop.scheduleTask(in: delay) { self.checkProgress() }
    }

    private func checkProgress() {
        let stuck = state.withLockedValue { state -> Bool in
            state.timer = nil
            guard state.outstanding > 0, !state.closed else { return false }
            let quiet = NIODeadline.now() - state.progress
            if quiet >= writeTimeout { return true }
            state.timer = armTimer(in: writeTimeout - quiet)
            return false
        }
        if stuck { connection.close(promise: nil) }
    }

    /// A batch of `bytes` was taken by the kernel.
    private func written(_ bytes: Int) {
        let (waiters, done) = state.withLockedValue { state -> ([CheckedContinuation<Void, Never>], Bool) in
            state.outstanding -= 1
            state.progress = .now()
            state.bytes = max(0, state.bytes - bytes)  // an overflow empties the count while a write is out
            let done = state.finishing && state.idle
            guard state.bytes <= limit / 2 else { return ([], done) }
            defer { state.roomWaiters = [] }
            return (state.roomWaiters, done)
        }
        for waiter in waiters { waiter.resume() }
        if done { closeAll() }
    }

    /// After the last write: nothing more is queued, and whoever waits for room or for the end stops waiting.
    private func closeAll() {
        let (waiters, timer) = state.withLockedValue {
            state -> ([CheckedContinuation<Void, Never>], Scheduled<Void>?) in
            state.closed = true
            state.items = []
            defer {
                state.roomWaiters = []
                state.finishWaiters = []
                state.timer = nil
            }
            return (state.roomWaiters + state.finishWaiters, state.timer)
        }
        timer?.cancel()
        for waiter in waiters { waiter.resume() }
    }
}
