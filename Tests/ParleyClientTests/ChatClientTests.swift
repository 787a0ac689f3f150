import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ChatClient` against the real server, in process, over real sockets.
@Suite("Chat client", .serialized, .timeLimit(.minutes(2)))
struct ChatClientTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)
    static let demo = ChannelConfiguration(id: "demo", skill: .demo)
    static let secured = ChannelConfiguration(
        id: "secured", secret: "s3cret", clientAuthenticationEnabled: true, maxTokenExpiryMinutes: 60, skill: .echo)
    static let channels = [echo, demo, secured]

    @Test func lifecycleFromInitializeToDestroyAndBack() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let client = ChatClient(configuration: .init(url: server.url, channelId: "echo", userId: "ann"))
            var events = EventReader(await client.events())
            await expectFailure(.clientNotInitialized) { try await client.send(text: "too early") }

            try await client.initialize()
            _ = try await events.next("initialized") { if case .initialized = $0 { () } else { nil } }
            try await events.status(.connecting)
            try await events.status(.connected)
            #expect(await client.status == .connected)

            let sent = try #require(try await client.send(text: "hello"))
            #expect(sent.sender == .user)
            #expect(sent.payload == .text("hello"))
            let reply = try await events.received()
            #expect(reply.sender == .bot)
            #expect(reply.payload.text == "hello")

            await client.disconnect()
            try await events.status(.disconnected)
            let queued = try #require(try await client.send(text: "while disconnected"))
            #expect(queued.delivery == .pending, "kept in the outbox")

            try await client.connect()
            try await events.status(.connected)
            #expect(try await events.received().payload.text == "while disconnected", "delivered on connecting")
            try await client.send(text: "back")
            #expect(try await events.received().payload.text == "back")

            await client.destroy()
            _ = try await events.next("destroyed") { if case .destroyed = $0 { () } else { nil } }
            await expectFailure(.clientDestroyed) { try await client.send(text: "x") }
            await expectFailure(.clientDestroyed) { try await client.connect() }
            await expectFailure(.clientDestroyed) { try await client.clearMessages() }
            await expectFailure(.clientDestroyed) { try await client.sendPostback(.postback("a", "b")) }
            await expectFailure(.clientDestroyed) { try await client.updateProfile(Profile(givenName: "x")) }

            try await client.initialize()
            try await client.send(text: "again")
            #expect(try await events.received().payload.text == "again")
            await client.destroy()
        }
    }

    @Test func sentMessagesAndTheEndOfTheSessionAreReported() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let client = ChatClient(configuration: .init(url: server.url, channelId: "echo", userId: "kim"))
            var events = EventReader(await client.events())
            try await client.initialize()
            let returned = try await client.send(text: "noted")
            let reported = try await events.next("sent") {
                if case .messageSent(let message) = $0 { message } else { nil }
            }
            #expect(reported.id == returned?.id)
            #expect(reported.delivery == .pending)
            var states: [DeliveryState] = []
            while states.last != .acknowledged {
                let changed = try await events.next("delivery") {
                    if case .deliveryChanged(let message) = $0 { message } else { nil }
                }
                #expect(changed.id == reported.id)
                states.append(try #require(changed.delivery))
            }
            #expect(states == [.sent, .acknowledged])
            #expect(await client.messages().first { $0.id == reported.id }?.delivery == .acknowledged)

            // A destroyed client comes back with another configuration: the demo skill, which ends sessions.
            await client.destroy()
            try await client.initialize(configuration: .init(url: server.url, channelId: "demo", userId: "kim"))
            #expect(await client.configuration.channelId == "demo")
            try await client.send(.closeSession)
            let closed = try await events.next("sessionClosed") {
                if case .messageReceived(let message) = $0, message.payload.type == .sessionClosed {
                    message
                } else {
                    nil
                }
            }
            #expect(closed.sender == .bot)
            _ = try await events.next("chatEnded") { if case .chatEnded = $0 { () } else { nil } }
            #expect(!(await client.messages().contains { $0.payload.type == .sessionClosed }), "not kept")
            await client.destroy()
        }
    }

    @Test func aUserWithoutIdGetsARandomOne() {
        let configuration = ChatClient.Configuration(url: URL(string: "https://example.com")!, channelId: "c")
        let other = ChatClient.Configuration(url: URL(string: "https://example.com")!, channelId: "c")
        #expect(configuration.userId.wholeMatch(of: /user-[0-9a-f]{32}/) != nil, "128 random bits")
        #expect(configuration.userId != other.userId)
    }

    @Test func theDefaultsAreOracles() {
        let configuration = ChatClient.Configuration(url: URL(string: "https://example.com")!, channelId: "c")
        #expect(configuration.disablePastActions == .all)
        #expect(configuration.enableAttachment)
        #expect(configuration.enableAutoSendSpeechResponse)
        #expect(!configuration.enableClearMessage)
        #expect(!configuration.enableSpeechRecognition)
        #expect(!configuration.enableSpeechSynthesis)
        #expect(configuration.enableTimestamp)
        #expect(configuration.initSpeechSynthesisMuted)
        #expect(!configuration.showConnectionStatus)
        #expect(configuration.showTypingStatus)
        #expect(configuration.speechLocale == "en-us")
        #expect(configuration.timestampFormat == "MMMM d, yyyy HH:mm")
        #expect(configuration.typingStatusTimeout == .seconds(20))
        #expect(configuration.typingStatusInterval == .seconds(3))
        #expect(configuration.heartbeatInterval == .seconds(30))
        #expect(configuration.pongTimeout == .seconds(10))
        var changed = configuration
        changed.typingStatusInterval = .seconds(1)
        #expect(changed.typingStatusInterval == .seconds(3), "at least 3 s")
        changed.enableBotAudioResponse = true
        #expect(changed.enableSpeechSynthesis)
    }

    @Test(arguments: [ChatClient.TokenPresentation.authFrame, .header])
    func anAuthenticatedClientTakesItsChannelAndUserFromTheToken(presentation: ChatClient.TokenPresentation)
        async throws
    {
        try await InProcessServer.run(channels: Self.channels) { server in
            let calls = Counter()
            var configuration = ChatClient.Configuration(url: server.url) {
                await calls.increment()
                return ChannelToken.mint(channelId: "secured", userId: "bea", secret: "s3cret", lifetime: 1800)
            }
            configuration.tokenPresentation = presentation
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            let sent = try #require(try await client.send(text: "secret hello"))
            #expect(try await events.received().payload.text == "secret hello")
            guard case .user(let envelope) = sent.envelope else { return }
            #expect(envelope.userId == "bea")
            #expect(await calls.value == 1, "the token is reused while it is valid")
            await client.destroy()
        }
    }

    @Test(arguments: [ChatClient.TokenPresentation.authFrame, .header])
    func aBadTokenFailsTheConnectionOnceWithTheServersCode(presentation: ChatClient.TokenPresentation) async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let calls = Counter()
            var configuration = ChatClient.Configuration(url: server.url) {
                await calls.increment()
                return ChannelToken.mint(channelId: "secured", userId: "bea", secret: "wrong", lifetime: 1800)
            }
            configuration.tokenPresentation = presentation
            let client = ChatClient(configuration: configuration)
            await expectFailure(.invalidToken) { try await client.initialize() }
            #expect(await client.status == .disconnected)
            #expect(await calls.value == 1, "no loop")
        }
    }

    @Test func anExpiredTokenFromTheProviderIsRefusedBeforeConnecting() async throws {
        let configuration = ChatClient.Configuration(url: URL(string: "http://127.0.0.1:9")!) {
            ChannelToken.mint(
                channelId: "secured", userId: "bea", secret: "s3cret", lifetime: 60,
                now: Date().addingTimeInterval(-3600))
        }
        let client = ChatClient(configuration: configuration)
        await expectFailure(.tokenExpired) { try await client.initialize() }
    }

    @Test func refusalsAtOpenCarryTheServersCode() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            let client = ChatClient(configuration: .init(url: server.url, channelId: "nope", userId: "ann"))
            let error = await expectFailure(.unknownChannel) { try await client.initialize() }
            #expect(error?.message.contains("nope") == true)
            #expect(await client.status == .disconnected)
        }
    }

    @Test func connectWithANewConfigurationSwitchesChannels() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            var configuration = ChatClient.Configuration(url: server.url, channelId: "echo", userId: "ann")
            configuration.enableClearMessage = true
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            try await client.send(text: "Order Pizza")
            #expect(try await events.received().payload.text == "Order Pizza", "the echo skill")

            try await client.connect(.init(url: server.url, channelId: "demo", userId: "ann"))
            try await client.send(text: "Order Pizza")
            var reply = try await events.received()
            while reply.payload.type == .text { reply = try await events.received() }  // the greeting, if any
            guard case .card(let cards) = reply.payload.content else {
                Issue.record("the demo skill answers with cards, got \(reply.payload.type)")
                return
            }
            #expect(cards.cards.count >= 2)
            #expect(await client.configuration.channelId == "demo")
            #expect(await client.configuration.enableClearMessage, "feature flags stay")
            await client.destroy()
        }
    }

    @Test func thePizzaFlowWithPostbacksFromCards() async throws {
        try await InProcessServer.run(channels: Self.channels) { server in
            var configuration = ChatClient.Configuration(url: server.url, channelId: "demo", userId: "cy")
            configuration.initUserProfile = Profile(givenName: "Cy")
            configuration.initUserHiddenMessage = "hello"
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            let greeting = try await events.received()
            #expect(greeting.payload.text?.contains("Hi Cy!") == true, "the profile arrived before the hidden message")
            try await client.send(text: "Order Pizza")
            var cards: MessagePayload.Cards?
            while cards == nil {
                if case .card(let found) = try await events.received().payload.content { cards = found }
            }
            let order = try #require(cards?.cards.first?.actions?.first)
            _ = try #require(try await client.sendPostback(order))
            let next = try await events.received()
            #expect(next.payload.text != nil)
            #expect(next.payload.actions?.isEmpty == false, "a follow-up question with choices")
            await client.destroy()
        }
    }
}

/// Counts calls across tasks.
actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
