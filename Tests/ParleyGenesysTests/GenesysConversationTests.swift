import Foundation
import ParleyGMSSimulator
import ParleyGenesys
import ParleyServer
import ParleyServerTesting
import Testing

/// A GMS chat through the one ``Conversation`` API, against the simulator of the real server.
@Suite("GenesysConversation", .serialized, .timeLimit(.minutes(1)))
struct GenesysConversationTests: ChatEventReading {
    static func conversation(_ server: InProcessServer, service: String) -> GenesysConversation {
        let start = server.url.appending(path: "genesys/1/service/\(service)/ixn/chat")
        let chat = ChatSession.Configuration(
            startChatURL: start, cometURL: server.url.appending(path: "genesys/cometd"),
            parameters: ["firstName": "Ann"])
        return GenesysConversation(title: "Support") { ChatSession(configuration: chat) }
    }

    static func received(_ text: String) -> (ChatEvent) -> Bool {
        { event in
            if case .messageReceived(let message) = event { message.payload.text == text } else { false }
        }
    }

    @Test func textTypingAgentAndEndAreTheConversationsEvents() async throws {
        try await InProcessServer.runWithGMS { server in
            let conversation = Self.conversation(server, service: "C1")
            var events = await conversation.events().makeAsyncIterator()
            var seen: [ChatEvent] = []
            try await conversation.initialize()
            #expect(
                await Self.read(&events, into: &seen, until: Self.received("Kristi Sippola has joined the session"))
                    != nil)

            try await conversation.send(text: "hello")
            #expect(await Self.read(&events, into: &seen, until: Self.received("You said: hello")) != nil)
            let typing = seen.compactMap { event -> TypingIndicator?? in
                if case .typingChanged(let indicator) = event { indicator } else { nil }
            }
            #expect(typing == [.agent(AgentSession(name: "Kristi Sippola")), nil], "the agent typed, then stopped")
            #expect(await conversation.getAgentDetails()?.name == "Kristi Sippola")
            let texts = await conversation.messages().map { $0.payload.text }
            #expect(texts == ["Kristi Sippola has joined the session", "hello", "You said: hello"])
            #expect(await conversation.status == .connected)

            // Features GMS chats lack are coded errors, not crashes, and the capabilities say so.
            #expect(!conversation.capabilities.contains(.attachments))
            await #expect(throws: ParleyError.self) {
                try await conversation.sendPostback(Action(.postback(.string("x")), label: "X"))
            }
            do {
                _ = try await conversation.sendAttachment(
                    Data([1]), fileName: "a.png", mimeType: "image/png", progress: { _ in })
                Issue.record("expected an error")
            } catch let error as ParleyError {
                #expect(error.code == .unsupportedFeature)
            }
            do {
                try await conversation.send(.location(Location(latitude: 1, longitude: 2)))
                Issue.record("expected an error")
            } catch let error as ParleyError {
                #expect(error.code == .unsupportedFeature)
            }

            try await conversation.endChat()
            #expect(await Self.read(&events, into: &seen) { if case .chatEnded = $0 { true } else { false } } != nil)
            #expect(await conversation.getAgentDetails() == nil)

            // The next message starts a new chat.
            try await conversation.send(text: "again")
            #expect(await Self.read(&events, into: &seen, until: Self.received("You said: again")) != nil)
            await conversation.destroy()
        }
    }
}
