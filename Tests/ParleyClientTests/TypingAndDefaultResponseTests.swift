import Foundation
import ParleyServerTesting
import Testing

/// Typing indicators, default responses for a slow skill, the user typing to an agent, and agent details — every
/// timer on a virtual clock.
@Suite("Chat client typing and default responses on a virtual clock", .timeLimit(.minutes(1)))
struct TypingAndDefaultResponseTests {
    static let url = URL(string: "http://parley.test")!

    /// Every event and every frame the client sent, as they happen.
    actor Log {
        var events: [ChatEvent] = []
        var frames: [JSONValue] = []
        func add(_ event: ChatEvent) { events.append(event) }
        func add(frame: String) { if let json = try? JSONValue(parsing: frame) { frames.append(json) } }

        /// Texts the client said itself (default responses).
        var clientTexts: [String] {
            events.compactMap {
                if case .messageReceived(let message) = $0, message.sender == .client {
                    message.payload.text
                } else {
                    nil
                }
            }
        }
        var typing: [TypingIndicator?] {
            events.compactMap { if case .typingChanged(let typing) = $0 { .some(typing) } else { nil } }
        }
        var agents: [AgentSession?] {
            events.compactMap { if case .agentChanged(let agent) = $0 { .some(agent) } else { nil } }
        }
        /// The `status` payloads the client sent.
        var typingNotices: [JSONValue] {
            frames.compactMap { frame in
                frame["messagePayload"].flatMap { $0["type"] == "status" ? $0 : nil }
            }
        }
    }

    /// A client on a virtual clock, connected to a server the test plays.
    static func connected(_ configure: (inout ChatClient.Configuration) -> Void = { _ in }) async throws
        -> (ChatClient, VirtualClock, InMemoryServerConnection, Log)
    {
        let clock = VirtualClock()
        let (transport, server) = InMemoryTransport.pair()
        var configuration = ChatClient.Configuration(url: url, channelId: "c", userId: "u")
        configuration.heartbeatInterval = .seconds(3600)
        configure(&configuration)
        let client = ChatClient(configuration: configuration, transport: transport, clock: clock)
        let log = Log()
        let events = await client.events()
        Task { for await event in events { await log.add(event) } }
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let connection = try #require(await connections.next())
        Task {
            for await text in connection.inbound {
                await log.add(frame: text)
                if text.contains(#""type":"ping""#) { await connection.send(StateFrame.pong.jsonString()) }
            }
        }
        try await initialized
        return (client, clock, connection, log)
    }

    static func eventually(_ what: String, _ condition: () async -> Bool) async {
        for _ in 0..<100_000 {
            if await condition() { return }
            await Task.yield()
        }
        Issue.record("never: \(what)")
    }

    static func skill(_ payload: String, source: String = "BOT", extensions: String = "") -> String {
        #"{"messagePayload":\#(payload.dropLast())\#(extensions)},"source":"\#(source)","userId":"u"}"#
    }

    @Test func aSlowSkillGetsTheGreetingThenWaitMessagesThenSorry() async throws {
        let (client, clock, server, log) = try await Self.connected {
            $0.enableDefaultClientResponse = true
        }
        let strings = DefaultResponseStrings()
        try await client.send(text: "hi")
        await Self.eventually("typing shows") { await log.typing == [.skill] }
        await Self.eventually("the greeting is planned") { clock.nextDeadline == clock.now.advanced(by: .seconds(5)) }
        await clock.advance(by: .milliseconds(4999))
        #expect(await log.clientTexts.isEmpty, "nothing before defaultGreetingTimeout")
        await clock.advance(by: .milliseconds(1))
        await Self.eventually("the greeting") { await log.clientTexts == [strings.greeting] }
        await clock.advance(by: .seconds(5))
        await Self.eventually("a wait message") { await log.clientTexts == [strings.greeting, strings.wait] }
        await clock.advance(by: .seconds(5))
        await Self.eventually("another") { await log.clientTexts.count == 3 }
        await clock.advance(by: .seconds(5))  // 20 s: typingStatusTimeout
        await Self.eventually("sorry") {
            await log.clientTexts == [strings.greeting, strings.wait, strings.wait, strings.sorry]
        }
        #expect(await log.typing == [.skill, nil])
        await clock.advance(by: .seconds(60))
        #expect(await log.clientTexts.count == 4, "nothing after sorry")
        #expect(await client.messages().map(\.sender) == [.user, .client, .client, .client, .client])

        // A skill that answers in time: no default response; the next message starts with the wait message.
        try await client.send(text: "again")
        await clock.advance(by: .seconds(2))
        await server.send(Self.skill(#"{"type":"text","text":"Here I am"}"#))
        await Self.eventually("typing hides") { await log.typing == [.skill, nil, .skill, nil] }
        await clock.advance(by: .seconds(60))
        #expect(await log.clientTexts.count == 4)
        let sent = clock.now
        try await client.send(text: "and again")
        await Self.eventually("the wait message is planned") { clock.nextDeadline == sent.advanced(by: .seconds(5)) }
        await clock.advance(by: .seconds(5))
        await Self.eventually("the wait message, not the greeting") { await log.clientTexts.count == 5 }
        #expect(await log.clientTexts.last == strings.wait)
        await client.destroy()
    }

    @Test func withoutDefaultResponsesTheTypingIndicatorTimesOut() async throws {
        let (client, clock, _, log) = try await Self.connected { $0.typingStatusTimeout = .seconds(8) }
        try await client.send(text: "hi")
        await Self.eventually("typing shows") { await log.typing == [.skill] }
        await Self.eventually("the timeout is set") { clock.nextDeadline == clock.now.advanced(by: .seconds(8)) }
        await clock.advance(by: .seconds(7))
        #expect(await client.typingIndicator == .skill)
        await clock.advance(by: .seconds(1))
        await Self.eventually("typing hides") { await log.typing == [.skill, nil] }
        #expect(await log.clientTexts.isEmpty)
        await client.destroy()
    }

    @Test func anAgentsTypingAndDetailsReachTheApp() async throws {
        let (client, clock, server, log) = try await Self.connected()
        let ava = #","channelExtensions":{"agentSession":{"name":"Ava","avatarImage":"https://x/ava.png"}}"#
        await server.send(Self.skill(#"{"type":"text","text":"Hi, Ava here."}"#, source: "AGENT", extensions: ava))
        await Self.eventually("the agent joins") { await log.agents.count == 1 }
        let joined = try #require(await log.agents.first ?? nil)
        #expect(joined.name == "Ava")
        #expect(await client.getAgentDetails()?.avatarImage == "https://x/ava.png")

        await server.send(Self.skill(#"{"type":"status","status":"RESPONDING"}"#, source: "AGENT"))
        await Self.eventually("typing") { await log.typing.count == 1 }
        #expect(await log.typing == [.agent(joined)])
        await Self.eventually("the timeout is set") { clock.nextDeadline == clock.now.advanced(by: .seconds(20)) }
        await clock.advance(by: .seconds(20))  // typingStatusTimeout without LISTENING
        await Self.eventually("typing times out") { await log.typing.count == 2 }
        await server.send(Self.skill(#"{"type":"status","status":"RESPONDING"}"#, source: "AGENT"))
        await server.send(Self.skill(#"{"type":"status","status":"LISTENING"}"#, source: "AGENT"))
        await Self.eventually("typing, then not") { await log.typing.count == 4 }
        #expect(await log.typing.last == .some(nil))
        #expect(await client.messages().count == 1, "typing notices are not kept")

        await client.setAgentDetails(AgentSession(name: "Bob", nameTextColor: "red"))
        let overridden = try #require(await client.agentDetails)
        #expect(overridden.name == "Bob")
        #expect(overridden.nameTextColor == "red")
        #expect(overridden.avatarImage == "https://x/ava.png", "what the override leaves out stays the server's")

        await server.send(Self.skill(#"{"type":"text","text":"Back to the bot."}"#))
        await Self.eventually("the agent leaves") { await log.agents.last == .some(nil) }
        #expect(await client.agentDetails == nil)
        await client.destroy()
    }

    @Test func theUsersTypingGoesToAnAgentThrottled() async throws {
        let (client, clock, server, log) = try await Self.connected {
            $0.enableSendTypingStatus = true
            $0.typingStatusInterval = .seconds(1)  // raised to the 3 s minimum
        }
        #expect(try await client.sendUserTypingStatus(.responding, text: "I w") == false, "no agent yet")
        await server.send(Self.skill(#"{"type":"text","text":"Ava here."}"#, source: "AGENT"))
        await Self.eventually("the agent joins") { await log.agents.count == 1 }

        #expect(try await client.sendUserTypingStatus(.responding, text: "I w"))
        await Self.eventually("the first notice") { await log.typingNotices.count == 1 }
        await Self.eventually("the interval is set") { clock.nextDeadline == clock.now.advanced(by: .seconds(3)) }
        await clock.advance(by: .seconds(1))
        try await client.sendUserTypingStatus(.responding, text: "I wa")
        await clock.advance(by: .seconds(1))
        try await client.sendUserTypingStatus(.responding, text: "I wan")
        await clock.advance(by: .milliseconds(999))
        #expect(await log.typingNotices.count == 1, "at most one per typingStatusInterval")
        await clock.advance(by: .milliseconds(1))
        await Self.eventually("the draft at the end of the interval") { await log.typingNotices.count == 2 }
        await clock.advance(by: .seconds(3))
        #expect(await log.typingNotices.count == 2, "an unchanged draft is not sent again")
        try await client.sendUserTypingStatus(.listening)
        await Self.eventually("LISTENING at once") { await log.typingNotices.count == 3 }
        let notices = await log.typingNotices
        #expect(notices.map { $0["status"]?.stringValue } == ["RESPONDING", "RESPONDING", "LISTENING"])
        #expect(notices[0]["text"] == "...", "no sneak preview: the agent does not see the draft")
        #expect(notices[0]["partyType"] == "user")
        #expect(notices[0]["source"] == "sdk")
        #expect(await client.messages().count == 1, "typing is not kept")
        await client.destroy()

        let (preview, _, previewServer, previewLog) = try await Self.connected {
            $0.enableSendTypingStatus = true
            $0.enableAgentSneakPreview = true
        }
        await previewServer.send(Self.skill(#"{"type":"text","text":"Ava here."}"#, source: "AGENT"))
        await Self.eventually("the agent joins") { await previewLog.agents.count == 1 }
        try await preview.sendUserTypingStatus(.responding, text: "I want \"pizza\"")
        await Self.eventually("the notice") { await previewLog.typingNotices.count == 1 }
        #expect(await previewLog.typingNotices.first?["text"] == "I want \"pizza\"")
        await preview.destroy()

        let (off, _, _, _) = try await Self.connected()
        #expect(try await off.sendUserTypingStatus(.responding, text: "x") == false, "enableSendTypingStatus is off")
        await off.destroy()
    }
}
