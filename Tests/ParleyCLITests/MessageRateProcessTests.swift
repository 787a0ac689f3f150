import Foundation
import ParleyServerTesting
import Testing

/// `parley serve --messages-per-minute`, against the real process: a conversation that floods gets its inputs past
/// the limit refused with a code, its socket stays open, and the server goes on serving it.
@Suite("Message rate of parley serve", .serialized, .timeLimit(.minutes(2)))
struct MessageRateProcessTests {
    @Test func aFloodingConversationIsRefusedWithACodeAndKeepsItsSocket() async throws {
        let server = try await ServerProcess.start([
            "--port", "0", "--data", temporaryDataFolder("message-rate").path, "--config",
            try configurationFile(#"{"channels": [{"id": "echo", "skill": "echo"}]}"#), "--messages-per-minute", "3",
        ])
        let port = try await server.listeningPort()
        let url = try #require(
            URL(string: "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/websdk?channelId=echo&userId=f"))
        let frames = RawChat.TextBox()
        _ = try await withTimeout(.seconds(30), "the flood") {
            try await WebSocketTransport().connect(to: url, headers: [:]) { connection in
                try await connection.send(ParleyHello().stateFrame.jsonString())
                for index in 1...5 {
                    var message = UserMessage(payload: .text("m\(index)"), userId: "f")
                    message.clientMessageId = "m\(index)"
                    try await connection.send(message.jsonString())
                }
                try await connection.send(StateFrame.ping.jsonString())
                for await frame in connection.inbound {
                    // Three replies, five acknowledgements and the pong: the socket still answers after the refusals.
                    if frames.append(frame) >= 1 + 3 + 5 + 1 { break }
                }
                await connection.close()
            }
        }
        let parsed = try frames.values.map { try JSONValue(parsing: $0) }
        let acks = parsed.compactMap { frame -> (String, String?)? in
            guard frame["state"]?["type"] == "ack", let id = frame["state"]?["clientMessageId"]?.stringValue else {
                return nil
            }
            return (id, frame["state"]?["error"]?["code"]?.stringValue)
        }
        #expect(acks.map(\.0) == ["m1", "m2", "m3", "m4", "m5"])
        #expect(acks.map(\.1) == [nil, nil, nil, "server.rateLimited", "server.rateLimited"])
        #expect(parsed.compactMap { $0["messagePayload"]?["text"]?.stringValue } == ["m1", "m2", "m3"])
        #expect(parsed.contains { $0["state"]?["type"] == "pong" })
        #expect(try await server.exitStatus(within: .zero) == nil, "the server lives")
    }
}
