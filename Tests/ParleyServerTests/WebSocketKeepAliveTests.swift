import NIOCore
import NIOEmbedded
import Testing

@testable import ParleyServer

/// The connections of one event loop share one timer (`WebSocketKeepAlive.Sweep`), and each is still pinged and
/// closed on its own.
@Suite struct WebSocketKeepAliveTests {
    static func connection(on loop: EmbeddedEventLoop) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: WebSocketKeepAlive(), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        WebSocketKeepAlive.start(on: channel, every: .seconds(1))
        return channel
    }

    static func written(_ channel: EmbeddedChannel) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
        return bytes
    }

    @Test func connectionsOfALoopArePingedByOneTimerAndClosedEachOnItsOwn() throws {
        let loop = EmbeddedEventLoop()
        let (quiet, answering, late) = (
            try Self.connection(on: loop), try Self.connection(on: loop), try Self.connection(on: loop)
        )
        #expect(WebSocketKeepAlive.Sweep.isRunning(on: loop))

        loop.advanceTime(by: .seconds(1))
        #expect(try Self.written(quiet) == WebSocketKeepAlive.ping)
        #expect(try Self.written(answering) == WebSocketKeepAlive.ping)
        #expect(try Self.written(late) == WebSocketKeepAlive.ping)

        // Any byte from the peer is an answer (here a pong's first bytes); the others stay silent.
        try answering.writeInbound(ByteBuffer(bytes: [0x8A, 0x80]))
        _ = try answering.readInbound(as: ByteBuffer.self)
        loop.advanceTime(by: .seconds(1))
        #expect(try Self.written(quiet) == WebSocketKeepAlive.timeoutClose)
        #expect(!quiet.isActive)
        #expect(!late.isActive)
        #expect(try Self.written(answering) == WebSocketKeepAlive.ping, "pinged again, not closed")
        #expect(answering.isActive)

        // The last connection gone, the loop's timer stops and its sweep is forgotten.
        _ = try answering.finish(acceptAlreadyClosed: true)
        #expect(!WebSocketKeepAlive.Sweep.isRunning(on: loop))
        loop.advanceTime(by: .seconds(5))
    }

    /// A connection that was never started (still speaking HTTP) is never pinged.
    @Test func nothingIsSentBeforeTheStart() throws {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: WebSocketKeepAlive(), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        loop.advanceTime(by: .seconds(60))
        #expect(try Self.written(channel).isEmpty)
        #expect(!WebSocketKeepAlive.Sweep.isRunning(on: loop))
        _ = try channel.finish()
    }
}
