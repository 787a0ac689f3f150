import Foundation
import ParleyServerTesting
import Testing

/// Streamed text, replaced and appended messages, and ending a conversation.
@Suite("Chat client transcript shaping and ending", .serialized, .timeLimit(.minutes(2)))
struct ConversationShapeTests {
    /// A client connected to a server the test plays (without Parley's extension), and the server side.
    static func connected() async throws -> (ChatClient, EventReader, InMemoryServerConnection) {
        let (transport, server) = InMemoryTransport.pair()
        let client = ChatClient(
            configuration: .init(url: URL(string: "http://parley.test")!, channelId: "c", userId: "u"),
            transport: transport)
        let events = EventReader(await client.events())
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let connection = try #require(await connections.next())
        Task {
            for await text in connection.inbound where text.contains(#""type":"ping""#) {
                await connection.send(StateFrame.pong.jsonString())
            }
        }
        try await initialized
        return (client, events, connection)
    }

    static func skill(_ payload: String) -> String {
        #"{"messagePayload":\#(payload),"source":"BOT","userId":"u"}"#
    }

    @Test func aStreamedTextGrowsInOneEntry() async throws {
        var (client, events, server) = try await Self.connected()
        await server.send(Self.skill(#"{"type":"textStream","text":"Your ","streamState":"start","streamId":"s1"}"#))
        let started = try await events.received()
        await server.send(Self.skill(#"{"type":"textStream","text":"pizza ","streamState":"running","streamId":"s1"}"#))
        let grown = try await events.next("an update") {
            if case .messageUpdated(let message) = $0 { message } else { nil }
        }
        #expect(grown.id == started.id)
        #expect(grown.payload.text == "Your pizza ")
        await server.send(
            Self.skill(#"{"type":"textStream","text":"Your pizza is on its way.","streamState":"end","streamId":"s1"}"#)
        )
        let ended = try await events.next("the end") {
            if case .messageUpdated(let message) = $0 { message } else { nil }
        }
        #expect(ended.payload.text == "Your pizza is on its way.")
        #expect(ended.payload.actions == nil)
        let transcript = await client.messages()
        #expect(transcript.count == 1, "one entry for the whole stream")
        #expect(transcript.first?.payload.text == "Your pizza is on its way.")
        await client.destroy()
    }

    /// The end of a stream is the answer as stored: a language model's choices come with it, as actions.
    @Test func aStreamsEndBringsItsActions() async throws {
        var (client, events, server) = try await Self.connected()
        await server.send(Self.skill(#"{"type":"textStream","text":"Which ","streamState":"start","streamId":"s1"}"#))
        _ = try await events.received()
        await server.send(
            Self.skill(
                #"{"type":"textStream","text":"Which size?","streamState":"end","streamId":"s1","aggregateText":"#
                    + #""Which size?","actions":[{"type":"postback","label":"Small","postback":"Small"}]}"#))
        let ended = try await events.next("the end") {
            if case .messageUpdated(let message) = $0 { message } else { nil }
        }
        #expect(ended.payload.text == "Which size?")
        #expect(ended.payload.actions?.map(\.label) == ["Small"])
        #expect(await client.messages().map(\.payload.actions?.count) == [1])
        await client.destroy()
    }

    /// A server stopped mid-stream answers the same input again after its restart, with the same `streamId`: the
    /// half answer starts over in its entry, never stays beside the new one.
    @Test func aStreamStartedAgainReplacesItsHalfAnswer() async throws {
        var (client, events, server) = try await Self.connected()
        await server.send(Self.skill(#"{"type":"textStream","text":"Half","streamState":"start","streamId":"s1"}"#))
        let started = try await events.received()
        await server.send(Self.skill(#"{"type":"textStream","text":"Whole ","streamState":"start","streamId":"s1"}"#))
        let restarted = try await events.next("the restart") {
            if case .messageUpdated(let message) = $0 { message } else { nil }
        }
        #expect(restarted.id == started.id)
        #expect(restarted.payload.text == "Whole ")
        await server.send(
            Self.skill(#"{"type":"textStream","text":"Whole answer.","streamState":"end","streamId":"s1"}"#))
        _ = try await events.next("the end") {
            if case .messageUpdated(let message) = $0 { message } else { nil }
        }
        // A later stream with an id that ended is a new entry.
        await server.send(Self.skill(#"{"type":"textStream","text":"Next","streamState":"start","streamId":"s1"}"#))
        _ = try await events.received()
        let transcript = await client.messages()
        #expect(transcript.map(\.payload.text) == ["Whole answer.", "Next"])
        await client.destroy()
    }

    @Test func replaceMessageReplacesAndAppendMessageAppends() async throws {
        var (client, events, server) = try await Self.connected()
        await server.send(Self.skill(#"{"type":"text","text":"Fill in the form"}"#))
        _ = try await events.received()
        await server.send(Self.skill(#"{"type":"editForm","title":"Order","fields":[]}"#))
        let form = try await events.received()
        await server.send(
            Self.skill(
                #"{"type":"editForm","title":"Order (checked)","fields":[],"channelExtensions":{"replaceMessage":"true"}}"#
            ))
        let replaced = try await events.next("the replacement") {
            if case .messageUpdated(let message) = $0 { message } else { nil }
        }
        #expect(replaced.id == form.id, "in the form's place")
        guard case .editForm(let editForm) = replaced.payload.content else {
            Issue.record("not a form")
            return
        }
        #expect(editForm.title == "Order (checked)")

        await server.send(Self.skill(#"{"type":"text","text":"Thanks."}"#))
        _ = try await events.received()
        await server.send(
            Self.skill(#"{"type":"text","text":"See you.","channelExtensions":{"appendMessage":"True"}}"#))
        let appended = try await events.next("the append") {
            if case .messageUpdated(let message) = $0 { message } else { nil }
        }
        #expect(appended.payload.text == "Thanks.\nSee you.")
        #expect(await client.messages().map(\.payload.type) == [.text, .editForm, .text])
        await client.destroy()
    }

    final class Ending: ChatEventListener {
        let answer: EndConversationStatus
        let asked: AsyncStream<Void>.Continuation
        init(_ answer: EndConversationStatus, asked: AsyncStream<Void>.Continuation) {
            self.answer = answer
            self.asked = asked
        }
        func beforeEndConversation() async -> EndConversationStatus {
            asked.yield()
            return answer
        }
    }

    @Test func endingTheChatClosesTheSessionErasesTheHistoryAndStartsAfresh() async throws {
        try await RecordingBot.run { bot, webhook in
            let channel = ChannelConfiguration(id: "hooked", skill: .webhook(webhook))
            try await InProcessServer.run(channels: [channel]) { server in
                var configuration = ChatClient.Configuration(url: server.url, channelId: "hooked", userId: "eve")
                configuration.initUserHiddenMessage = "hello"
                let client = ChatClient(configuration: configuration)
                let (asked, askedLog) = AsyncStream.makeStream(of: Void.self)
                let refusing = Ending(.error, asked: askedLog)
                await client.setListener(refusing)
                var events = EventReader(await client.events())
                try await client.initialize()
                try await events.expectReply("echo: hello")
                try await client.send(text: "bye")
                try await events.expectReply("echo: bye")

                await expectFailure(.endConversationCancelled) { try await client.endChat() }
                #expect(await client.status == .connected)
                let agreeing = Ending(.success, asked: askedLog)
                await client.setListener(agreeing)
                try await client.endChat()
                _ = try await events.next("chatEnded") { if case .chatEnded = $0 { () } else { nil } }
                var askedCount = 0
                askedLog.finish()
                for await _ in asked { askedCount += 1 }
                #expect(askedCount == 2)
                #expect(await client.status == .disconnected)
                #expect(await client.messages().isEmpty, "the history is erased")
                #expect(await bot.requests.last?["messagePayload"]?["type"] == "closeSession")

                try await client.connect()  // a new conversation: its opening goes again
                try await events.expectReply("echo: hello")
                #expect(await client.messages().map(\.payload.text) == ["echo: hello"], "nothing of the old one")
                withExtendedLifetime(agreeing) {}
                await client.destroy()
            }
        }
        var configuration = ChatClient.Configuration(url: URL(string: "http://parley.test")!, channelId: "c")
        configuration.enableEndConversation = false
        let (transport, _) = InMemoryTransport.pair()
        let client = ChatClient(configuration: configuration, transport: transport)
        await expectFailure(.clientNotInitialized) { try await client.endChat() }
    }

    @Test func aSkillThatClosesTheSessionEndsTheChatOnce() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            var configuration = ChatClient.Configuration(url: server.url, channelId: "demo", userId: "ian")
            configuration.initUserHiddenMessage = "hello"
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            try await events.expectReply("Hi there! Welcome to Parley Pizza.")
            try await events.expectReply("What do you want to do?")  // the end of the greeting's turn
            try await client.endChat()  // the demo answers closeSession with sessionClosed
            try await client.connect()
            var endings = 0
            while let event = await events.iterator.next(isolation: #isolation) {
                if case .chatEnded = event { endings += 1 }
                if case .messageReceived(let message) = event, message.payload.text?.hasPrefix("Hi there") == true {
                    break
                }
            }
            #expect(endings == 1, "the end is reported once")
            await client.destroy()
        }
    }
}
