import Foundation
import ParleyServerTesting
import Testing

/// A `server.rateLimited` acknowledgement is not a refusal for good: the client keeps the message first in its
/// outbox and sends it again, same `clientMessageId`, once `retryAfter` has passed on its clock.
@Suite("Chat client under a server's message rate", .timeLimit(.minutes(1)))
struct RateLimitClientTests {
    @Test func aRateLimitedMessageIsSentAgainAfterRetryAfterAndNotFailed() async throws {
        let clock = VirtualClock()
        let (transport, server) = InMemoryTransport.pair()
        var configuration = ChatClient.Configuration(
            url: try #require(URL(string: "http://parley.test")), channelId: "c", userId: "u")
        configuration.heartbeatInterval = .seconds(3600)
        let client = ChatClient(configuration: configuration, transport: transport, clock: clock)
        var events = EventReader(await client.events())
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let connection = try #require(await connections.next())
        let (frames, sink) = AsyncStream.makeStream(of: String.self)
        let player = Task {
            for await text in connection.inbound {
                if text.contains(#""type":"ping""#) { await connection.send(StateFrame.pong.jsonString()) }
                if text.contains(#""type":"parley""#) {
                    await connection.send(ParleyWelcome(lastSequence: 0).stateFrame.jsonString())
                }
                if text.contains("messagePayload") { sink.yield(text) }
            }
        }
        try await initialized
        try await events.status(.connected)

        try await client.send(text: "hello")
        var sent = frames.makeAsyncIterator()
        let first = try JSONValue(parsing: try #require(await sent.next()))
        let id = try #require(first["clientMessageId"]?.stringValue)
        var refusal = Acknowledgement(
            clientMessageId: id, error: ParleyError(.rateLimited, "too many messages in this conversation"))
        refusal.retryAfter = 5
        let wake = clock.now.advanced(by: .seconds(5))
        await connection.send(refusal.stateFrame.jsonString())
        await TimingTests.eventually("the client waits out retryAfter") { clock.nextDeadline == wake }
        await clock.advance(to: wake)

        let again = try JSONValue(parsing: try #require(await sent.next()))
        #expect(again["clientMessageId"]?.stringValue == id, "the same message, not a new one")
        #expect(again["messagePayload"]?["text"] == "hello")
        await connection.send(Acknowledgement(clientMessageId: id, sequence: 1).stateFrame.jsonString())
        let settled = try await events.next("the message settled") { event -> ChatMessage? in
            if case .deliveryChanged(let message) = event,
                message.delivery == .acknowledged || message.delivery == .failed
            {
                message
            } else {
                nil
            }
        }
        #expect(settled.delivery == .acknowledged, "a rate limit never fails a message")
        await client.destroy()
        player.cancel()
    }
}
