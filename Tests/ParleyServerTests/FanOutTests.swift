import Foundation
import Testing

@testable import ParleyServer

/// What the user sends on one socket reaches the user's other sockets with Parley's extension, as a `userMessage`
/// state frame (docs/protocol.md §13.6), on one node and across a cluster; never the socket it came from, never an
/// Oracle client's socket.
@Suite("The user's messages on the user's other sockets", .serialized, .timeLimit(.minutes(1)))
struct FanOutTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    static func message(_ text: String, id: String) -> UserMessage {
        var message = UserMessage(payload: .text(text), userId: "ann")
        message.clientMessageId = id
        return message
    }

    /// Opens a Parley socket of `ann` (hello, welcome) and runs `body` with it.
    static func parleySocket(
        _ server: TestServer, _ body: @escaping @Sendable (inout TestSocket) async throws -> Void
    ) async throws {
        try await server.chat(channel: "echo", user: "ann") { socket in
            try await socket.send(ParleyHello().stateFrame)
            guard case .state(let state)? = try await socket.receive(), let welcome = ParleyWelcome(state) else {
                Issue.record("no welcome")
                return
            }
            #expect(welcome.capabilities.contains(.userMessages))
            try await body(&socket)
        }
    }

    /// The other socket's next frames: the user's message, then the skill's answer to it.
    static func expectUserMessageThenReply(_ socket: inout TestSocket, _ text: String, id: String, sequence: Int)
        async throws
    {
        guard case .state(let state)? = try await socket.receive(), let echoed = EchoedUserMessage(state) else {
            Issue.record("no userMessage frame before the reply")
            return
        }
        #expect(echoed.sequence == sequence)
        #expect(echoed.message.payload.text == text)
        #expect(echoed.message.clientMessageId == id)
        #expect(echoed.message.userId == "ann")
        let reply = try await socket.receiveMessage()
        #expect(reply.payload.text == text)
    }

    @Test func aMessageReachesTheUsersOtherParleySocketsButNotItsOwnNorOracleOnes() async throws {
        try await withServer(channels: [Self.echo]) { server in
            try await Self.parleySocket(server) { other in
                try await server.chat(channel: "echo", user: "ann") { oracle in  // no hello: the base protocol
                    try await Self.parleySocket(server) { sender in
                        try await sender.send(Self.message("hi", id: "m1"))
                        // The sender: its acknowledgement, then the answer; no userMessage of its own.
                        guard case .state(let state)? = try await sender.receive(), let ack = Acknowledgement(state)
                        else {
                            Issue.record("the sender's first frame is not its acknowledgement")
                            return
                        }
                        #expect(ack.clientMessageId == "m1" && ack.sequence == 1)
                        let reply = try await sender.receiveMessage()
                        #expect(reply.payload.text == "hi")
                        // A repeat is not shown again: the other socket's next frames are those of the next message.
                        try await sender.send(Self.message("hi", id: "m1"))
                        try await sender.send(Self.message("again", id: "m2"))
                        var frames: [ServerFrame] = []
                        while let frame = try await sender.receive() {
                            frames.append(frame)
                            if case .message = frame { break }
                        }
                        #expect(frames.count == 3, "two acknowledgements and the answer, no userMessage: \(frames)")
                    }
                    // The Oracle client gets the answers only.
                    let first = try await oracle.receiveMessage().payload.text
                    let second = try await oracle.receiveMessage().payload.text
                    #expect([first, second] == ["hi", "again"])
                }
                try await Self.expectUserMessageThenReply(&other, "hi", id: "m1", sequence: 1)
                try await Self.expectUserMessageThenReply(&other, "again", id: "m2", sequence: 3)
            }
        }
    }

    @Test func aMessageReachesTheUsersSocketOnAnotherNode() async throws {
        let store = InMemoryConversationStore()
        let bus = SweepTests.Bus()
        try await SweepTests.withNode(store: store, cluster: SweepTests.LossyCluster(bus: bus, lossy: false)) {
            nodeA in
            try await SweepTests.withNode(store: store, cluster: SweepTests.LossyCluster(bus: bus, lossy: false)) {
                nodeB in
                try await Self.parleySocket(nodeB) { other in
                    try await Self.parleySocket(nodeA) { sender in
                        try await sender.send(Self.message("across", id: "x1"))
                        guard case .state(let state)? = try await sender.receive(), Acknowledgement(state) != nil
                        else {
                            Issue.record("the sender's first frame is not its acknowledgement")
                            return
                        }
                        let reply = try await sender.receiveMessage()
                        #expect(reply.payload.text == "across")
                    }
                    try await Self.expectUserMessageThenReply(&other, "across", id: "x1", sequence: 1)
                }
            }
        }
    }
}
