import Foundation
import ParleyServerTesting
import Testing

// (The examples are copied verbatim from ParleyConversation.docc/GettingStarted.md.)

func lastAnswer(of conversation: any Conversation, to question: String) async throws -> String? {
    let transcript = await conversation.transcriptUpdates()
    try await conversation.initialize()
    try await conversation.send(text: question)
    for await messages in transcript {
        if let answer = messages.last, answer.sender == .bot { return answer.payload.text }
    }
    return nil
}

func showsAttachButton(_ conversation: any Conversation) async -> Bool {
    let options = await conversation.screenOptions
    let capabilities = await conversation.capabilities
    return options.enableAttachment && capabilities.contains(.attachments)
}

/// A client's transcript and status as the `Conversation` protocol gives them: sequences that start with the value
/// now and yield each change.
@Suite("Conversation sequences", .serialized, .timeLimit(.minutes(1)))
struct ConversationSequencesTests {
    /// A client on an in-memory server that answers pings and, to a message with `question`, `answers`.
    static func client(answering question: String = "", with answers: [String] = []) -> ChatClient {
        let (transport, server) = InMemoryTransport.pair()
        Task {
            for await connection in server.connections {
                Task {
                    for await text in connection.inbound {
                        if text.contains(#""type":"ping""#) {
                            await connection.send(StateFrame.pong.jsonString())
                        } else if !question.isEmpty, text.contains(question) {
                            for answer in answers {
                                let payload = #"{"type":"text","text":"\#(answer)"}"#
                                await connection.send(#"{"messagePayload":\#(payload),"source":"BOT","userId":"u"}"#)
                            }
                        }
                    }
                }
            }
        }
        return ChatClient(
            configuration: .init(url: URL(string: "http://parley.test")!, channelId: "c", userId: "u"),
            transport: transport)
    }

    @Test func theArticlesExamplesRun() async throws {
        let client = Self.client(answering: "Order pizza", with: ["What size?"])
        #expect(try await lastAnswer(of: client, to: "Order pizza") == "What size?")
        #expect(await showsAttachButton(client))
        var configuration = await client.configuration
        configuration.enableAttachment = false
        try await client.initialize(configuration: configuration)
        #expect(await showsAttachButton(client) == false, "the flat name wrote the screen part")
        #expect(await client.screenOptions.enableAttachment == false)
        await client.destroy()
    }

    @Test func theTranscriptStartsWithTheMessagesNowAndFollowsEachChange() async throws {
        let client = Self.client(answering: "three", with: ["one", "two", "three!"])
        try await client.initialize()
        try await client.send(text: "first")
        var events = EventReader(await client.events())
        var updates = await client.transcriptUpdates().makeAsyncIterator()
        let now = try #require(await updates.next())
        #expect(now.map(\.payload.text) == ["first"], "the transcript at the time of the call")

        try await client.send(text: "three")
        for _ in 1...3 { _ = try await events.received() }
        // Nothing was read meanwhile: each read is the newest transcript then, never an older one.
        var counts: [Int] = []
        while counts.last != 5, let messages = await updates.next() {
            counts.append(messages.count)
        }
        #expect(counts.last == 5)
        #expect(counts == counts.sorted(), "never an older transcript after a newer one: \(counts)")
        #expect(counts.count <= 4, "fewer reads than changes when the reader was behind: \(counts)")
        let last = await client.messages().map(\.payload.text)
        #expect(last == ["first", "three", "one", "two", "three!"])
        await client.destroy()
    }

    @Test func theStatusStartsWithTheStatusNowAndFollowsEachChange() async throws {
        let client = Self.client()
        var statuses = await client.statusUpdates().makeAsyncIterator()
        #expect(await statuses.next() == .disconnected)
        try await client.initialize()
        var seen: [ConnectionStatus] = []
        while seen.last != .connected, let status = await statuses.next() { seen.append(status) }
        #expect(seen.last == .connected)
        await client.destroy()
        var after: [ConnectionStatus] = []
        while after.last != .disconnected, let status = await statuses.next() { after.append(status) }
        #expect(after.last == .disconnected)
    }
}
