import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import NIOWebSocket
import Testing
import WSCore

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Chat socket", .serialized, .timeLimit(.minutes(2)))
struct ChatSocketTests {
    static let open = ChannelConfiguration(id: "open", skill: .echo)
    static let secured = ChannelConfiguration(
        id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, maxTokenExpiryMinutes: 60, skill: .echo)
    static let disabled = ChannelConfiguration(id: "off", skill: .echo, enabled: false)
    static let channels = [open, secured, disabled]

    @Test func pingIsAnsweredWithPong() async throws {
        try await withServer(channels: Self.channels) { server in
            try await server.chat(channel: "open", user: "u1") { socket in
                try await socket.send(StateFrame.ping)
                #expect(try await socket.receive() == .state(.pong))
            }
        }
    }

    /// A WebSocket ping frame (not the JSON one) gets a pong frame with the same payload. Raw bytes over TCP,
    /// because WebSocket client libraries answer and swallow control frames themselves.
    @Test func pingFrameIsAnsweredWithPongFrame() async throws {
        try await withServer(channels: Self.channels) { server in
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: server.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            try await channel.executeThenClose { inbound, outbound in
                let upgrade =
                    "GET /chat/v1/chats/sockets/websdk?channelId=open&userId=u1 HTTP/1.1\r\nHost: localhost\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
                try await outbound.write(ByteBuffer(string: upgrade))
                let mask: [UInt8] = [1, 2, 3, 4]
                let payload = Array("are you there".utf8)
                let masked = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
                var received: [UInt8] = []
                var sentPing = false
                for try await buffer in inbound {
                    received += buffer.readableBytesView
                    if !sentPing, let end = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                        #expect(String(decoding: received[..<end.lowerBound], as: UTF8.self).hasPrefix("HTTP/1.1 101"))
                        received.removeSubrange(..<end.upperBound)
                        // FIN + ping, masked, 13 bytes.
                        try await outbound.write(
                            ByteBuffer(bytes: [0x89, 0x80 | UInt8(payload.count)] + mask + masked))
                        sentPing = true
                    }
                    if sentPing, received.count >= 2 + payload.count { break }
                }
                // FIN + pong, unmasked, the same payload.
                #expect(received == [0x8A, UInt8(payload.count)] + payload)
            }
        }
    }

    @Test(arguments: ["websdk", "androidsdk", "iossdk", "mysdk"])
    func anyClientSegmentIsAccepted(client: String) async throws {
        try await withServer(channels: Self.channels) { server in
            try await server.chat(channel: "open", user: "u1", client: client) { socket in
                try await socket.send(UserMessage.text("hello", user: "u1"))
                let reply = try await socket.receiveMessage()
                #expect(reply.payload == .text("hello"))
                #expect(reply.source == .bot)
                #expect(reply.userId == "u1")
                #expect(reply.endOfTurn == true)
                #expect(reply.msgId?.count == 36)
                #expect(reply.createdOnDate != nil)
            }
        }
    }

    @Test func everySocketOfAUserGetsTheReplies() async throws {
        try await withServer(channels: Self.channels) { server in
            let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await server.chat(channel: "open", user: "shared") { socket in
                        try await socket.send(StateFrame.ping)
                        _ = try await socket.receive()  // the pong: this socket is attached
                        readyContinuation.yield()
                        #expect(try await socket.receiveMessage().payload == .text("from the other socket"))
                    }
                }
                var iterator = ready.makeAsyncIterator()
                await iterator.next()
                try await server.chat(channel: "open", user: "shared") { socket in
                    try await socket.send(UserMessage.text("from the other socket", user: "shared"))
                    #expect(try await socket.receiveMessage().payload == .text("from the other socket"))
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func malformedFramesGetAnErrorAndTheSocketStaysOpen() async throws {
        try await withServer(channels: Self.channels) { server in
            try await server.chat(channel: "open", user: "u1") { socket in
                let cases: [(String, ParleyError.Code, String)] = [
                    (#"{"messagePayload":{"type":"text","text":"hi""#, .malformedJSON, "$.messagePayload"),
                    (#"{"messagePayload":{"type":"text"}}"#, .missingField, "$.messagePayload.text"),
                    (#"{"hello":"world"}"#, .unsupportedFrame, "$"),
                    (#"[1,2,3]"#, .typeMismatch, "$"),
                ]
                for (frame, code, path) in cases {
                    try await socket.send(frame)
                    let reply = try await socket.receiveMessage()
                    guard case .error(let error) = reply.payload.content else {
                        Issue.record("expected an error payload, got \(reply.payload.type)")
                        continue
                    }
                    #expect(error.parleyError?.code == code)
                    #expect(error.errorPath == path)
                }
                try await socket.send(UserMessage.text("still here", user: "u1"))
                #expect(try await socket.receiveMessage().payload == .text("still here"))
            }
        }
    }

    @Test func framesOverTheLimitCloseWith1009() async throws {
        try await withServer(channels: Self.channels) { server in
            let close = try await server.chat(channel: "open", user: "u1") { socket in
                let big = String(repeating: "a", count: (1 << 20) + 1)
                try await socket.send(UserMessage.text(big, user: "u1"))
                _ = try await socket.receive()
            }
            #expect(close?.closeCode == .messageTooLarge)
        }
    }

    @Test func unknownAndDisabledChannelsCloseWithTheirCodes() async throws {
        try await withServer(channels: Self.channels) { server in
            for (channel, code, errorCode) in [
                ("nope", CloseCode.unknownChannel, ParleyError.Code.unknownChannel),
                ("off", .channelDisabled, .channelDisabled),
            ] {
                let close = try await server.chat(channel: channel, user: "u1") { socket in
                    try await socket.send(StateFrame.ping)  // the refusal follows the first frame
                    // The coded close alone: no error payload, which Oracle's Web SDK would show as a bubble.
                    #expect(try await socket.receive() == nil)
                }
                #expect(close?.closeCode == .unknown(code.rawValue))
                #expect(close?.reason?.hasPrefix(errorCode.rawValue) == true)
            }
        }
    }

    @Test func forbiddenOriginsAreRefused() async throws {
        let picky = ChannelConfiguration(id: "picky", allowedOrigins: ["https://shop.example.com"], skill: .echo)
        try await withServer(channels: [picky]) { server in
            let refused = try await server.chat(
                channel: "picky", user: "u1", headers: [.origin: "https://evil.example"]
            ) {
                socket in
                try await socket.send(StateFrame.ping)  // the refusal follows the first frame
                _ = try await socket.receive()
                _ = try await socket.receive()
            }
            #expect(refused?.closeCode == .policyViolation)
            try await server.chat(channel: "picky", user: "u1", headers: [.origin: "https://shop.example.com"]) {
                socket in
                try await socket.send(UserMessage.text("hi", user: "u1"))
                let reply = try await socket.receiveMessage()
                #expect(reply.payload == .text("hi"), "\(reply.jsonString())")
            }
        }
    }
}

@Suite("Sessions", .serialized, .timeLimit(.minutes(2)))
struct SessionTests {
    /// After the channel's session expiry, the next message starts the skill afresh (the history is kept); a minute
    /// passes on the server's virtual clock.
    @Test func anExpiredSessionStartsTheSkillAfresh() async throws {
        let fresh = ChannelConfiguration(id: "short", sessionExpiryMinutes: 1, skill: .demo)
        let long = ChannelConfiguration(id: "long", sessionExpiryMinutes: 2, skill: .demo)
        let clock = VirtualClock()
        try await withServer(channels: [fresh, long], configure: { $0.clock = serverClock(on: clock) }) { server in
            for channel in ["short", "long"] {
                try await server.chat(channel: channel, user: "sam") { socket in
                    try await socket.send(UserMessage.text("hi", user: "sam"))
                    #expect(try await socket.receiveTurn().first?.payload.text == "Hi there! Welcome to Parley Pizza.")
                    await clock.advance(by: .seconds(61))
                    try await socket.send(UserMessage.text("menu", user: "sam"))
                    let turn = try await socket.receiveTurn()
                    let restarted = turn.first?.payload.text == "Hi there! Welcome to Parley Pizza."
                    #expect(restarted == (channel == "short"), "\(channel): \(turn.map(\.payload.type))")
                    #expect(turn.last?.payload.type == .card)
                }
            }
        }
    }
}
