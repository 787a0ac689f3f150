import Foundation
import Testing

@testable import ParleyServer

/// Parley's reliability extension on the server (docs/protocol.md §13), over real sockets.
@Suite("Reliability extension", .serialized, .timeLimit(.minutes(2)))
struct ReliabilityTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    static func message(_ text: String, id: String) -> UserMessage {
        var message = UserMessage(payload: .text(text), userId: "ann")
        message.clientMessageId = id
        return message
    }

    @Test func helloGetsAWelcomeAndMessagesGetAcknowledgementsAndSequenceNumbers() async throws {
        try await withServer(channels: [Self.echo]) { server in
            try await server.chat(channel: "echo", user: "ann") { socket in
                try await socket.send(ParleyHello().stateFrame)
                guard case .state(let state)? = try await socket.receive(), let welcome = ParleyWelcome(state) else {
                    Issue.record("no welcome")
                    return
                }
                #expect(welcome.capabilities == [.acknowledgements, .sequence, .resume, .userMessages])
                #expect(welcome.lastSequence == 0)
                #expect(welcome.maxFrameSize == 1 << 20)

                for (index, text) in ["one", "two"].enumerated() {
                    try await socket.send(Self.message(text, id: "m\(index)"))
                    guard case .state(let state)? = try await socket.receive(), let ack = Acknowledgement(state) else {
                        Issue.record("no ack for \(text)")
                        return
                    }
                    #expect(ack.clientMessageId == "m\(index)")
                    #expect(ack.duplicate == false)
                    #expect(ack.sequence == index * 2 + 1, "user messages count in the stored history")
                    let reply = try await socket.receiveMessage()
                    #expect(reply.payload.text == text)
                    #expect(reply.sequence == index + 1, "the server's own messages are numbered 1, 2, … without gaps")
                }
            }
        }
    }

    @Test func aRepeatIsAcknowledgedAgainButNotAnsweredTwice() async throws {
        try await withServer(channels: [Self.echo]) { server in
            try await server.chat(channel: "echo", user: "ann") { socket in
                try await socket.send(ParleyHello().stateFrame)
                _ = try await socket.receive()
                try await socket.send(Self.message("once", id: "same"))
                try await socket.send(Self.message("once", id: "same"))
                try await socket.send(Self.message("after", id: "other"))
                var acks: [Acknowledgement] = []
                var replies: [SkillMessage] = []
                while replies.count < 2 {
                    switch try await socket.receive() {
                    case .state(let state)?: acks += Acknowledgement(state).map { [$0] } ?? []
                    case .message(let message)?: replies.append(message)
                    default: Issue.record("unexpected frame")
                    }
                }
                #expect(replies.map(\.payload.text) == ["once", "after"])
                #expect(replies.map(\.sequence) == [1, 2])
                #expect(acks.map(\.duplicate) == [false, true, false])
                #expect(acks[0].sequence == acks[1].sequence)
            }
            let stored = try await SQLiteConversationStore(
                url: server.dataDirectory.appendingPathComponent("parley.sqlite")
            ).messages(for: ConversationKey(channelId: "echo", userId: "ann"), after: .sequence(0))
            #expect(stored.filter { $0.direction == .user }.count == 2)
        }
    }

    @Test func resumeReplaysWhatFollowsAndOracleClientsSeeNoSequence() async throws {
        try await withServer(channels: [Self.echo]) { server in
            try await server.chat(channel: "echo", user: "bo") { socket in  // an Oracle client: no hello
                for text in ["a", "b", "c"] {
                    try await socket.send(UserMessage(payload: .text(text), userId: "bo"))
                    let reply = try await socket.receiveMessage()
                    #expect(reply.sequence == nil)
                    #expect(reply.extra["sequence"] == nil)
                }
            }
            try await server.chat(channel: "echo", user: "bo") { socket in
                try await socket.send(ParleyHello(resumeAfter: 1).stateFrame)
                guard case .state(let state)? = try await socket.receive(), let welcome = ParleyWelcome(state) else {
                    Issue.record("no welcome")
                    return
                }
                #expect(welcome.lastSequence == 3)
                let replayed = [try await socket.receiveMessage(), try await socket.receiveMessage()]
                #expect(replayed.map(\.payload.text) == ["b", "c"])
                #expect(replayed.map(\.sequence) == [2, 3])
                // Asked again on the open socket (a client that saw a gap).
                try await socket.send(ParleyHello(resumeAfter: 2).stateFrame)
                _ = try await socket.receive()
                #expect(try await socket.receiveMessage().payload.text == "c")
            }
        }
    }

    @Test func aMessageTheServerCannotTakeIsRefusedByItsId() async throws {
        try await withServer(channels: [Self.echo]) { server in
            try await server.chat(channel: "echo", user: "cy") { socket in
                try await socket.send(ParleyHello().stateFrame)
                _ = try await socket.receive()
                try await socket.send(#"{"messagePayload":{"type":"text"},"clientMessageId":"bad"}"#)
                let error = try await socket.receiveMessage()
                #expect(error.payload.type == .error)
                guard case .state(let state)? = try await socket.receive(), let ack = Acknowledgement(state) else {
                    Issue.record("no refusal")
                    return
                }
                #expect(ack.clientMessageId == "bad")
                #expect(ack.error?.code == .missingField)
                #expect(ack.sequence == nil)
            }
        }
    }

    @Test func inputsLeftPendingAreAnsweredByTheNextServer() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pending-\(UUID())")
        let key = ConversationKey(channelId: "echo", userId: "dee")
        // A server that stored an input and stopped before its skill answered.
        let store = try SQLiteConversationStore(url: data.appendingPathComponent("parley.sqlite"))
        var message = UserMessage(payload: .text("left behind"), userId: "dee")
        message.clientMessageId = "x1"
        _ = try await store.receive(.message(message), for: key, at: Date())
        let pending = try await store.pending(for: key)
        #expect(pending?.inputs.map(\.clientMessageId) == ["x1"])
        #expect(pending?.conversation.lastSequence == 1)
        #expect(try await store.pending(for: ConversationKey(channelId: "echo", userId: "nobody")) == nil)

        try await withServer(channels: [Self.echo], dataDirectory: data) { server in
            try await server.chat(channel: "echo", user: "dee") { socket in
                try await socket.send(ParleyHello(resumeAfter: 0).stateFrame)
                _ = try await socket.receive()
                var reply: SkillMessage? = nil
                while reply == nil {  // the answer is either replayed or, if it comes later, sent live
                    if case .message(let message)? = try await socket.receive() { reply = message }
                }
                #expect(reply?.payload.text == "left behind")
                #expect(reply?.sequence == 1)
            }
        }
        // Read by a store of its own: the first one's memory is of a server that has stopped.
        let after = try SQLiteConversationStore(url: data.appendingPathComponent("parley.sqlite"))
        #expect(try await after.pending(for: key)?.inputs.isEmpty == true)
    }
}
