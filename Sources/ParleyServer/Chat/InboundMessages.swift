import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// The messages of a WebSocket, assembled from its data frames as Hummingbird's `messages(maxSize:)` does, but
/// waiting with a small frame.
///
/// An idle socket waits in ``next()``, and what it keeps while waiting is part of every idle connection's memory.
/// Hummingbird's message iterator keeps about 2 KiB there (its collation of frames lives across the wait); this one
/// waits for a frame with little, and collates a message of several frames (rare: browsers and Parley's client
/// send each message in one frame) in a function of its own (docs/performance.md, `connection.memory`).
///
/// Only the socket's own task reads it (hence `@unchecked Sendable`: it crosses to the executor that Hummingbird's
/// iterator runs on, never to another task).
struct InboundMessages: @unchecked Sendable {
    /// A message that breaks the protocol: the socket is to be closed with `code` (RFC 6455 §7.4.1), as Hummingbird
    /// closes it.
    struct Violation: Error {
        let code: WebSocketErrorCode
    }

    /// The longest message, in bytes, across all of its frames (`ServerConfiguration.maxFrameSize`).
    let maxSize: Int
    private var frames: WebSocketInboundStream.AsyncIterator

    init(_ inbound: WebSocketInboundStream, maxSize: Int) {
        frames = inbound.makeAsyncIterator()
        self.maxSize = maxSize
    }

    /// The next text or binary message; nil once the peer closed.
    /// - Throws: ``Violation`` for a continuation without a start, a message over ``maxSize`` or text that is not
    ///   UTF-8; the errors of the connection.
    @concurrent
    mutating func next() async throws -> WebSocketMessage? {
        guard let frame = try await frames.next() else { return nil }
        guard frame.fin else { return try await collate(frame) }
        return try Self.message(frame.opcode, frame.data)
    }

    /// The message that `first` starts, once its last frame arrived.
    @inline(never) @concurrent
    private mutating func collate(_ first: WebSocketDataFrame) async throws -> WebSocketMessage? {
        guard first.opcode != .continuation else { throw Violation(code: .protocolError) }
        var data = first.data
        while let frame = try await frames.next() {
            guard frame.opcode == .continuation else { throw Violation(code: .protocolError) }
            guard data.readableBytes + frame.data.readableBytes <= maxSize else {
                throw Violation(code: .messageTooLarge)
            }
            var part = frame.data
            data.writeBuffer(&part)
            if frame.fin { return try Self.message(first.opcode, data) }
        }
        return nil
    }

    private static func message(_ opcode: WebSocketDataFrame.Opcode, _ data: ByteBuffer) throws(Violation)
        -> WebSocketMessage
    {
        switch opcode {
        case .binary:
            return .binary(data)
        case .text:
            // RFC 6455 §8.1: text that is not UTF-8 fails the connection (1007); it is never "repaired".
            guard let text = validatedText(data) else { throw Violation(code: .dataInconsistentWithMessage) }
            return .text(text)
        case .continuation:
            throw Violation(code: .protocolError)
        }
    }

    private static func validatedText(_ data: ByteBuffer) -> String? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            var data = data
            return try? data.readUTF8ValidatedString(length: data.readableBytes)
        }
        return String(bytes: data.readableBytesView, encoding: .utf8)  // nil for bytes that are not UTF-8
    }
}
