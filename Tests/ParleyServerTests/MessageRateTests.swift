import Foundation
import Testing

@testable import ParleyServer

/// The per-conversation message rate (``ServerConfiguration/messagesPerMinute``): past it an input is refused, not
/// stored, with `server.rateLimited` and a `retryAfter`; the socket stays open, and the conversation may go on once
/// the minute has passed (Parley's client then sends the refused message again: `RateLimitClientTests`).
@Suite("Message rate per conversation", .serialized, .timeLimit(.minutes(2)))
struct MessageRateTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    @Test func pastTheLimitAnInputIsRefusedWithACodeAndTheSocketStaysOpen() async throws {
        let clock = VirtualClock()
        try await withServer(
            channels: [Self.echo],
            configure: {
                $0.clock = serverClock(on: clock)
                $0.messagesPerMinute = 3
            }
        ) { server in
            try await server.chat(channel: "echo", user: "ann") { socket in
                try await socket.send(ParleyHello().stateFrame)
                _ = try await socket.receive()  // the welcome
                var acks: [Acknowledgement] = []
                var replies: [String] = []
                for index in 1...4 { try await socket.send(ReliabilityTests.message("m\(index)", id: "m\(index)")) }
                while acks.count < 4 || replies.count < 3 {
                    switch try await socket.receive() {
                    case .state(let state)?: acks += Acknowledgement(state).map { [$0] } ?? []
                    case .message(let message)?: replies.append(message.payload.text ?? "")
                    default: Issue.record("unexpected frame")
                    }
                }
                #expect(replies == ["m1", "m2", "m3"])
                #expect(acks.prefix(3).allSatisfy { $0.error == nil && $0.sequence != nil })
                let refused = try #require(acks.last)
                #expect(refused.clientMessageId == "m4")
                #expect(refused.error?.code == .rateLimited)
                #expect(refused.retryAfter == 60)
                #expect(refused.sequence == nil, "the refused input was not stored")

                // A minute later the same message is taken, once.
                await clock.advance(by: .seconds(60))
                try await socket.send(ReliabilityTests.message("m4", id: "m4"))
                guard case .state(let state)? = try await socket.receive(), let ack = Acknowledgement(state) else {
                    Issue.record("no acknowledgement after the minute")
                    return
                }
                #expect(ack.error == nil && ack.duplicate == false)
                #expect(try await socket.receiveMessage().payload.text == "m4")
            }
        }
    }
}
