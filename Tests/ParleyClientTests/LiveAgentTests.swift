import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A skill hands the conversation to a live agent, who chats with the user through the agent console's socket
/// and hands it back: a real server, a real `ChatClient`, and a scripted agent.
@Suite("Live agent", .serialized, .timeLimit(.minutes(2)))
struct LiveAgentTests {
    static let demo = ChannelConfiguration(id: "demo", skill: .demo)

    @Test func aSkillHandsOverAnAgentChatsAndHandsBack() async throws {
        try await InProcessServer.run(channels: [Self.demo], configure: { $0.agentKey = "agents-only" }) { server in
            var configuration = ChatClient.Configuration(url: server.url, channelId: "demo", userId: "uma")
            configuration.enableSendTypingStatus = true
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            let agent = try await ScriptedAgent.connect(
                to: server.url, key: "agents-only", agent: AgentSession(name: "Ava", avatarImage: "https://x/ava.png"))
            #expect(try await agent.next("welcome")["agent"]?["name"] == "Ava")
            #expect(try await agent.next("queue")["conversations"] == [], "nobody waits yet")

            try await client.send(text: "I want to talk to an agent")
            _ = try await events.received()  // the greeting of the first message
            _ = try await events.received()
            try await events.expectReply("I'm connecting you to one of our agents. Please wait.")
            let queue = try await agent.next("queue")
            #expect(queue["conversations"]?[0]?["userId"] == "uma")

            await agent.join(channelId: "demo", userId: "uma")
            let joined = try await agent.next("joined")
            let history = try #require(joined["history"]?.arrayValue)
            #expect(history.contains { $0["frame"]?["messagePayload"]?["text"] == "I want to talk to an agent" })

            await agent.typing(.responding, channelId: "demo", userId: "uma")
            let typing = try await events.next("agent typing") {
                if case .typingChanged(let typing) = $0 { typing } else { nil }
            }
            #expect(typing == .agent(AgentSession(name: "Ava", avatarImage: "https://x/ava.png")))
            await agent.say(.text("Hi, I'm Ava. How can I help?"), channelId: "demo", userId: "uma")
            let greeting = try await events.received()
            #expect(greeting.sender == .agent)
            #expect(greeting.payload.channelExtensions?.agentSession?.name == "Ava")
            #expect(await client.agentDetails?.name == "Ava")

            // The user's messages and typing go to the agent, not the skill.
            #expect(try await client.sendUserTypingStatus(.responding, text: "my pizza"))
            let userTyping = try await agent.next("typing")
            #expect(userTyping["status"] == "RESPONDING")
            #expect(userTyping["text"] == "...")
            try await client.send(text: "menu")
            let forwarded = try await agent.next("message")
            #expect(forwarded["frame"]?["messagePayload"]?["text"] == "menu")

            // Bad commands get an error, and the socket stays.
            await agent.send([
                "type": "message", "channelId": "demo", "userId": "nobody",
                "messagePayload": ["type": "text", "text": "x"],
            ])
            #expect(try await agent.next("error")["error"]?["code"] == "agent.noSuchConversation")
            await agent.send([
                "type": "message", "channelId": "demo", "userId": "uma", "messagePayload": ["type": "text"],
            ])
            #expect(try await agent.next("error")["error"]?["code"] == "decode.missingField")
            await agent.send(["type": "dance", "channelId": "demo", "userId": "uma"])
            #expect(try await agent.next("error")["error"]?["code"] == "frame.unsupported")

            await agent.handBack(channelId: "demo", userId: "uma")
            #expect(try await agent.next("ended")["reason"] == "handed back")
            _ = try await events.next("the agent leaves") { if case .agentChanged(nil) = $0 { () } else { nil } }
            try await events.expectReply("You are back with the assistant.")
            #expect(await client.agentDetails == nil)
            try await client.send(text: "menu")
            let menu = try await events.received()
            #expect(menu.sender == .bot)
            #expect(menu.payload.type == .card, "the skill answers again")
            let transcript = await client.messages()
            #expect(transcript.filter { $0.sender == .agent }.count == 1)
            await agent.close()
            await client.destroy()
        }
    }

    @Test func theConsoleNeedsTheKey() async throws {
        try await InProcessServer.run(channels: [Self.demo], configure: { $0.agentKey = "agents-only" }) { server in
            let intruder = try await ScriptedAgent.connect(
                to: server.url, key: "guess", agent: AgentSession(name: "Eve"))
            #expect(try await intruder.next("error")["error"]?["code"] == "auth.invalidToken")
            await intruder.close()
            let (page, response) = try await URLSession.shared.data(from: server.url.appendingPathComponent("agent"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: page, as: UTF8.self).contains("/agent/socket"))
        }
        try await InProcessServer.run(channels: [Self.demo]) { server in
            let (_, response) = try await URLSession.shared.data(from: server.url.appendingPathComponent("agent"))
            #expect((response as? HTTPURLResponse)?.statusCode == 404, "no agent key: no console")
        }
    }
}
