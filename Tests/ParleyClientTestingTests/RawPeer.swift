import Foundation
import NIOCore
import NIOPosix
import ParleyClientTesting
import Testing

/// A WebSocket frame as read off the wire by a test, below any WebSocket library.
struct RawFrame: Equatable, CustomStringConvertible {
    var fin: Bool
    var opcode: UInt8
    /// The payload, unmasked.
    var payload: [UInt8]
    /// The frame exactly as it travelled.
    var bytes: [UInt8]

    var text: String { String(decoding: payload, as: UTF8.self) }

    var description: String {
        let name =
            switch opcode {
            case 0: "continuation"
            case 1: "text"
            case 2: "binary"
            case 8: "close"
            case 9: "ping"
            case 10: "pong"
            default: "opcode \(opcode)"
            }
        if opcode == Self.close, payload.count >= 2 {
            return "close \(UInt16(payload[0]) << 8 | UInt16(payload[1]))"
        }
        return payload.count <= 40 ? "\(name) \"\(text)\"" : "\(name) (\(payload.count) bytes)"
    }

    static let text: UInt8 = 1
    static let binary: UInt8 = 2
    static let close: UInt8 = 8
    static let ping: UInt8 = 9
    static let pong: UInt8 = 10

    /// The bytes of a frame; masked (as a client sends) when `mask` is given.
    static func encode(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: [UInt8]? = nil) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case ..<126:
            bytes.append(maskBit | UInt8(payload.count))
        case ..<65536:
            bytes.append(maskBit | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xFF) }
        }
        guard let mask else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// A text frame from the client (masked).
    static func clientText(_ text: String) -> [UInt8] {
        encode(Self.text, Array(text.utf8), mask: [0x11, 0x22, 0x33, 0x44])
    }

    /// A text frame from the server (unmasked).
    static func serverText(_ text: String) -> [UInt8] {
        encode(Self.text, Array(text.utf8))
    }
}

/// One end of a raw TCP connection for frame-level tests of ``FaultProxy``: writes bytes, reads an HTTP head and
/// RFC 6455 frames.
struct RawPeer {
    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var buffer = ByteBuffer()
    private var ended = false

    static let upgradeRequest = Array(
        "GET /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
    static let upgradeResponse = Array(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.iterator = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    func write(_ bytes: [UInt8]) async throws {
        try await outbound.write(ByteBuffer(bytes: bytes))
    }

    /// The bytes up to and including the first `\r\n\r\n`; `nil` when the connection ends first.
    mutating func readHead() async throws -> [UInt8]? {
        while true {
            let view = buffer.readableBytesView
            if let end = view.indices.first(where: { index in
                index + 3 < view.endIndex && view[index] == 13 && view[index + 1] == 10 && view[index + 2] == 13
                    && view[index + 3] == 10
            }) {
                return buffer.readBytes(length: end - view.startIndex + 4)
            }
            guard try await fill() else { return nil }
        }
    }

    /// The next frame; `nil` when the connection ends (or fails) first.
    mutating func readFrame() async throws -> RawFrame? {
        while true {
            if let frame = Self.parse(&buffer) { return frame }
            guard try await fill() else { return nil }
        }
    }

    /// The next `count` frames; fails the test when the connection ends first.
    mutating func readFrames(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [RawFrame]
    {
        var frames: [RawFrame] = []
        for _ in 0..<count {
            frames.append(
                try #require(await readFrame(), "frame \(frames.count + 1) of \(count)", sourceLocation: sourceLocation)
            )
        }
        return frames
    }

    /// Every byte until the connection ends.
    mutating func readToEnd() async throws -> [UInt8] {
        while try await fill() {}
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    /// Reads more; `false` when the connection has ended. A reset counts as an end.
    private mutating func fill() async throws -> Bool {
        guard !ended else { return false }
        do {
            if var more = try await iterator.next(isolation: #isolation) {
                buffer.writeBuffer(&more)
                return true
            }
        } catch let error as IOError where error.errnoCode == ECONNRESET {
            // A reset ends the connection too (the proxy's drops can reach a peer as one).
        }
        ended = true
        return false
    }

    private static func parse(_ buffer: inout ByteBuffer) -> RawFrame? {
        let view = Array(buffer.readableBytesView)
        guard view.count >= 2 else { return nil }
        var offset = 2
        var length = UInt64(view[1] & 0x7F)
        if length == 126 {
            guard view.count >= 4 else { return nil }
            length = UInt64(view[2]) << 8 | UInt64(view[3])
            offset = 4
        } else if length == 127 {
            guard view.count >= 10 else { return nil }
            length = view[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            offset = 10
        }
        var mask: [UInt8]?
        if view[1] & 0x80 != 0 {
            guard view.count >= offset + 4 else { return nil }
            mask = Array(view[offset..<offset + 4])
            offset += 4
        }
        guard view.count >= offset + Int(length) else { return nil }
        var payload = Array(view[offset..<offset + Int(length)])
        if let mask { payload = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] } }
        let bytes = buffer.readBytes(length: offset + Int(length))!
        return RawFrame(fin: view[0] & 0x80 != 0, opcode: view[0] & 0x0F, payload: payload, bytes: bytes)
    }
}

/// A TCP server for frame-level tests: it stands where a Parley server would, behind the proxy.
struct RawListener {
    let port: Int
    private var accepted: NIOAsyncChannelInboundStream<NIOAsyncChannel<ByteBuffer, ByteBuffer>>.AsyncIterator

    /// Runs `body` with a listener on a free port of 127.0.0.1, then closes it.
    static func run<Result>(_ body: (inout RawListener) async throws -> Result) async throws -> Result {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = try #require(channel.channel.localAddress?.port)
        return try await channel.executeThenClose { inbound in
            var listener = RawListener(port: port, accepted: inbound.makeAsyncIterator())
            return try await body(&listener)
        }
    }

    /// Waits for the next connection and runs `body` with it, then closes it.
    mutating func accept<Result>(_ body: (inout RawPeer) async throws -> Result) async throws -> Result {
        let connection = try #require(try await accepted.next(isolation: #isolation), "a connection")
        return try await connection.executeThenClose { inbound, outbound in
            var peer = RawPeer(inbound, outbound)
            return try await body(&peer)
        }
    }
}

/// Connects to `port` on 127.0.0.1 and runs `body` with the connection, then closes it.
func withRawConnection<Result>(
    to port: Int, _ body: (inout RawPeer) async throws -> Result
) async throws -> Result {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    return try await channel.executeThenClose { inbound, outbound in
        var peer = RawPeer(inbound, outbound)
        return try await body(&peer)
    }
}

/// Waits until `condition` holds, checking every millisecond: for counts the proxy keeps on another thread, where
/// there is nothing to await. Fails the test after 10 seconds.
func waitUntil(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool
) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while !(await condition()) {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}
