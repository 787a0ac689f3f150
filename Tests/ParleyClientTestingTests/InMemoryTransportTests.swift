import Foundation
import ParleyClientTesting
import Testing

private struct Refused: Error, Equatable {}

@Suite("In-memory transport", .timeLimit(.minutes(1)))
struct InMemoryTransportTests {
    static let url = URL(string: "ws://parley.test/chat/v1/chats/sockets/iossdk?channelId=c&userId=u")!

    @Test func framesGoBothWaysInOrderAndTheServerClose() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let (received, receivedContinuation) = AsyncStream.makeStream(of: String.self)
        let client = Task {
            try await transport.connect(to: Self.url, headers: ["Authorization": "Bearer t"]) { connection in
                try await connection.send("one")
                try await connection.send("two")
                for await text in connection.inbound { receivedContinuation.yield(text) }
                receivedContinuation.finish()
            }
        }
        var connections = server.connections.makeAsyncIterator()
        let connection = try #require(await connections.next())
        #expect(connection.url == Self.url)
        #expect(connection.headers == ["Authorization": "Bearer t"])
        var inbound = connection.inbound.makeAsyncIterator()
        #expect(await inbound.next() == "one")
        #expect(await inbound.next() == "two")
        #expect(!connection.isClosed)

        await connection.send("three")
        await connection.send("four")
        await connection.close(.goingAway, reason: "bye")
        #expect(await received.collect() == ["three", "four"])
        #expect(try await client.value == TransportClose(code: .goingAway, reason: "bye"))
        #expect(await inbound.next() == nil)
        #expect(connection.isClosed)
        #expect(connection.clientClose == nil)
    }

    @Test func theConnectionClosesWhenTheSessionReturns() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let client = Task {
            try await transport.connect(to: Self.url, headers: [:]) { connection in
                try await connection.send("only")
            }
        }
        var connections = server.connections.makeAsyncIterator()
        let connection = try #require(await connections.next())
        #expect(await connection.inbound.collect() == ["only"])
        // The answer to the client's close, as Parley's server gives it.
        #expect(try await client.value == TransportClose(code: .normal, reason: nil))
        #expect(connection.clientClose == TransportClose(code: .normal, reason: nil))
        await connection.send("too late")  // dropped, not a crash
    }

    @Test func theClientClosesWithACodeAndReason() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let (sendError, sendErrorContinuation) = AsyncStream.makeStream(of: ParleyError.Code.self)
        let client = Task {
            try await transport.connect(to: Self.url, headers: [:]) { connection in
                await connection.close(.goingAway, reason: "leaving")
                // The inbound ends once the connection is closed, and nothing more goes out.
                for await _ in connection.inbound {}
                do {
                    try await connection.send("after the close")
                } catch let error as ParleyError {
                    sendErrorContinuation.yield(error.code)
                }
                sendErrorContinuation.finish()
            }
        }
        var connections = server.connections.makeAsyncIterator()
        let connection = try #require(await connections.next())
        #expect(await connection.inbound.collect() == [])
        #expect(await sendError.collect() == [.notConnected])
        #expect(try await client.value == TransportClose(code: .normal, reason: nil))
        #expect(connection.clientClose == TransportClose(code: .goingAway, reason: "leaving"))
    }

    @Test func whatTheSessionThrowsComesOutOfConnectAndClosesTheConnection() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let client = Task {
            try await transport.connect(to: Self.url, headers: [:]) { connection in
                try await connection.send("before the failure")
                throw Refused()
            }
        }
        var connections = server.connections.makeAsyncIterator()
        let connection = try #require(await connections.next())
        #expect(await connection.inbound.collect() == ["before the failure"])
        await #expect(throws: Refused.self) { try await client.value }
    }

    @Test func cancellingTheConnectingTaskEndsTheConnection() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let client = Task {
            try await transport.connect(to: Self.url, headers: [:]) { connection in
                for await _ in connection.inbound {}
            }
        }
        var connections = server.connections.makeAsyncIterator()
        let connection = try #require(await connections.next())
        client.cancel()
        #expect(await connection.inbound.collect() == [])
        await #expect(throws: CancellationError.self) { try await client.value }
        #expect(connection.clientClose == TransportClose(code: .normal, reason: nil))
    }

    @Test func refusedConnectionsThrowAndDoNotReachTheServer() async throws {
        let (transport, server) = InMemoryTransport.pair()
        server.refuseNextConnections(Refused(), count: 2)
        for _ in 0..<2 {
            await #expect(throws: Refused.self) {
                try await transport.connect(to: Self.url, headers: [:]) { _ in }
            }
        }
        let accepted = URL(string: "ws://parley.test/accepted")!
        #expect(try await transport.connect(to: accepted, headers: [:]) { _ in } == .init(code: .normal, reason: nil))
        server.refuseNextConnections(Refused(), count: .max)
        await #expect(throws: Refused.self) { try await transport.connect(to: Self.url, headers: [:]) { _ in } }
        server.acceptConnections()
        _ = try await transport.connect(to: accepted, headers: [:]) { _ in }
        server.finish()
        #expect(await server.connections.map(\.url).collect() == [accepted, accepted])
    }

    @Test func aChatClientTalksToATestPlayingTheServer() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let configuration = ChatClient.Configuration(
            url: URL(string: "http://parley.test")!, channelId: "c", userId: "u")
        let client = ChatClient(configuration: configuration, transport: transport)
        let initializing = Task { try await client.initialize() }

        var connections = server.connections.makeAsyncIterator()
        let connection = try #require(await connections.next())
        #expect(connection.url == Self.url)
        var inbound = connection.inbound.makeAsyncIterator()
        let hello = try StateFrame(decoding: try #require(await inbound.next()))
        #expect(hello.type == .parley, "Parley's extension is offered first; a server may ignore it")
        let ping = try StateFrame(decoding: try #require(await inbound.next()))
        #expect(ping.type == .ping)
        #expect(await client.status == .connecting)  // initialize() waits for the pong
        await connection.send(#"{"state":{"type":"pong"}}"#)
        try await initializing.value
        #expect(await client.status == .connected)

        try await client.send(text: "hi")
        let message = try UserMessage(decoding: try #require(await inbound.next()))
        #expect(message.payload.text == "hi")
        #expect(message.userId == "u")
        #expect(message.jsonValue["messagePayload"]?["text"]?.stringValue == "hi")

        var events = EventReader(await client.events())
        await connection.send(#"{"messagePayload":{"type":"text","text":"hello"},"source":"BOT","userId":"u"}"#)
        #expect(try await events.reply() == "hello")

        await client.destroy()
        #expect(await inbound.next() == nil)
        #expect(connection.clientClose?.code == .normal)
    }

    @Test func aVirtualClockDrivesTheClientsHeartbeat() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let clock = VirtualClock()
        let configuration = ChatClient.Configuration(
            url: URL(string: "http://parley.test")!, channelId: "c", userId: "u")
        let client = ChatClient(configuration: configuration, transport: transport, clock: clock)
        var events = EventReader(await client.events())
        let initializing = Task { try await client.initialize() }
        var connections = server.connections.makeAsyncIterator()
        let first = try #require(await connections.next())
        var inbound = first.inbound.makeAsyncIterator()
        #expect(try StateFrame(decoding: try #require(await inbound.next())).type == .parley)
        #expect(try StateFrame(decoding: try #require(await inbound.next())).type == .ping)
        await first.send(#"{"state":{"type":"pong"}}"#)
        try await initializing.value

        // The heartbeat sleeps for its interval (30 s by default); nothing goes out before it is over.
        await clock.waitForSleepers(1)
        #expect(clock.nextDeadline == .init(offset: .seconds(30)))
        await clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(try StateFrame(decoding: try #require(await inbound.next())).type == .ping)

        // No pong within the timeout (10 s): the socket is treated as dead, closed, and opened again.
        await clock.waitForSleepers(1)
        #expect(clock.nextDeadline == .init(offset: .seconds(40)))
        await clock.advance(by: .seconds(10))
        #expect(try await events.error().code == .heartbeatTimeout)
        #expect(await inbound.next() == nil)
        let second = try #require(await connections.next())
        var secondInbound = second.inbound.makeAsyncIterator()
        #expect(try StateFrame(decoding: try #require(await secondInbound.next())).type == .parley)
        #expect(try StateFrame(decoding: try #require(await secondInbound.next())).type == .ping)
        await client.destroy()
    }
}
