import Foundation
import HummingbirdWebSocket
import Logging

/// A conversation a skill handed to live agents.
struct HandOff {
    /// When the skill handed it over.
    var since: Date
    /// The agent console socket whose agent has it; `nil` while it waits.
    var agent: UUID?
}

/// An open socket of the agent console and the agent behind it.
struct AgentConnection {
    let outbox: SocketOutbox
    let details: AgentSession
}

extension ParleyError.Code {
    /// An agent named a conversation that is not handed to agents.
    public static let agentNoSuchConversation: Self = "agent.noSuchConversation"
    /// Another agent already has the conversation.
    public static let agentConversationTaken: Self = "agent.conversationTaken"
    /// The agent has not joined the conversation it writes to.
    public static let agentNotJoined: Self = "agent.notJoined"
}

/// Live agents (`docs/agents.md`): a skill hands a conversation over (``ConversationState/handOff``), it waits in
/// the queue every agent console sees, one agent joins it, and from then on the user's inputs go to that agent
/// instead of the skill, and the agent's messages go to the user with `source: AGENT` and
/// `channelExtensions.agentSession`, stored and numbered like the skill's. The agent hands it back, or the user
/// ends it with `closeSession`.
extension ChatHub {
    /// The text the user gets, from the skill's side, when the agent hands the conversation back without one.
    static let handBackText = "You are back with the assistant."

    /// A skill handed the conversation over: it waits for an agent.
    func queueForAgent(_ key: ConversationKey) async {
        guard handOffs[key] == nil else { return }
        handOffs[key] = HandOff(since: clock.now())
        logger.info("conversation \(key) waits for a live agent")
        await publishQueue()
    }

    /// Registers an agent console socket; it gets the queue at once.
    func attachAgent(_ id: UUID, details: AgentSession, outbox: SocketOutbox) async {
        agents[id] = AgentConnection(outbox: outbox, details: details)
        await publishQueue()
    }

    /// Forgets a closed agent socket: the conversations its agent had wait again.
    func detachAgent(_ id: UUID) async {
        agents[id] = nil
        for (key, handOff) in handOffs where handOff.agent == id { handOffs[key]?.agent = nil }
        await publishQueue()
    }

    /// The agent of socket `id` takes a waiting conversation and gets its recent history.
    func join(_ key: ConversationKey, agent id: UUID) async throws(ParleyError) {
        guard let handOff = handOffs[key] else {
            throw ParleyError(.agentNoSuchConversation, "\(key) is not handed to agents")
        }
        guard handOff.agent == nil || handOff.agent == id else {
            throw ParleyError(.agentConversationTaken, "another agent has \(key)")
        }
        handOffs[key]?.agent = id
        var history: [JSONValue] = []
        do {
            let conversation = try await store.conversation(for: key)
            let recent = MessageCursor.sequence(max(0, conversation.lastSequence - 50))
            for message in try await store.messages(for: key, after: recent) {
                history.append(["from": message.direction == .user ? "user" : "server", "frame": message.wireFrame])
            }
        } catch {
            logger.error("cannot read the history of \(key): \(error)")
        }
        await writeToAgent(id, Self.agentFrame("joined", key, ["history": .array(history)]))
        await publishQueue()
    }

    /// A message from the agent to the user.
    func agentSays(_ payload: MessagePayload, in key: ConversationKey, agent id: UUID) async throws(ParleyError) {
        let details = try agentDetails(of: id, in: key)
        var payload = payload
        var extensions = payload.channelExtensions ?? ChannelExtensions()
        extensions.values["agentSession"] = details.jsonValue
        payload.channelExtensions = extensions
        let message = SkillMessage(
            payload: payload, source: .agent, userId: key.userId, msgId: UUID().uuidString.lowercased(),
            endOfTurn: true, createdOn: .string(clock.now().formatted(.iso8601WithMilliseconds)))
        do {
            try await sendOnOwn([message], to: key)
        } catch {
            logger.error("cannot store an agent's message to \(key): \(error)")
            throw ParleyError(.internalError, "the message could not be stored; send it again")
        }
    }

    /// The agent is typing (`RESPONDING`) or stopped (`LISTENING`): the user's sockets get a `status` payload,
    /// which is not stored.
    func agentTyping(_ status: TypingStatus, in key: ConversationKey, agent id: UUID) async throws(ParleyError) {
        let details = try agentDetails(of: id, in: key)
        var payload = MessagePayload(.status(.init(status)))
        payload.channelExtensions = ChannelExtensions(["agentSession": details.jsonValue])
        await broadcast(unstored: [SkillMessage(payload: payload, source: .agent, userId: key.userId)], to: key)
    }

    /// The agent gives the conversation back to the skill; the user gets `text` (or ``handBackText``) from the
    /// skill's side, so that clients see the agent leave.
    func handBack(_ key: ConversationKey, agent id: UUID, text: String?) async throws(ParleyError) {
        _ = try agentDetails(of: id, in: key)
        handOffs[key] = nil
        let message = SkillMessage(
            payload: .text(text ?? Self.handBackText), source: .bot, userId: key.userId,
            msgId: UUID().uuidString.lowercased(), endOfTurn: true,
            createdOn: .string(clock.now().formatted(.iso8601WithMilliseconds)))
        do {
            try await sendOnOwn([message], to: key)
        } catch {
            logger.error("cannot store the hand-back of \(key): \(error)")
        }
        await writeToAgent(id, Self.agentFrame("ended", key, ["reason": "handed back"]))
        await publishQueue()
    }

    /// The conversation leaves the agents (the user ended it): its agent is told.
    func endHandOff(_ key: ConversationKey, notice: String) async {
        guard let handOff = handOffs.removeValue(forKey: key) else { return }
        if let agent = handOff.agent {
            await writeToAgent(agent, Self.agentFrame("ended", key, ["reason": .string(notice)]))
        }
        await publishQueue()
    }

    /// An input of a handed-over conversation: to its agent, if one joined (it is in the history otherwise).
    func forwardToAgent(_ frame: JSONValue, of key: ConversationKey) async {
        guard let agent = handOffs[key]?.agent else { return }
        if let payload = frame["messagePayload"], payload["type"] == "status" {
            var typing: JSONObject = ["status": payload["status"] ?? "LISTENING"]
            if let text = payload["text"] { typing["text"] = text }
            await writeToAgent(agent, Self.agentFrame("typing", key, typing))
        } else {
            await writeToAgent(agent, Self.agentFrame("message", key, ["frame": frame]))
        }
    }

    /// The conversations handed over, oldest first, with who has them.
    var agentQueue: [(key: ConversationKey, handOff: HandOff)] {
        handOffs.map { ($0.key, $0.value) }.sorted { $0.handOff.since < $1.handOff.since }
    }

    // MARK: Helpers

    private func agentDetails(of id: UUID, in key: ConversationKey) throws(ParleyError) -> AgentSession {
        guard let agent = agents[id] else { throw ParleyError(.agentNotJoined, "the agent socket is closed") }
        guard let handOff = handOffs[key] else {
            throw ParleyError(.agentNoSuchConversation, "\(key) is not handed to agents")
        }
        guard handOff.agent == id else { throw ParleyError(.agentNotJoined, "join \(key) first") }
        return agent.details
    }

    /// Stores messages the server sends on its own (not answering an input) and sends them to the user.
    private func sendOnOwn(_ messages: [SkillMessage], to key: ConversationKey) async throws {
        let conversation = try await store.conversation(for: key)
        let stored = try await store.answer(
            nil, with: messages, state: conversation.state, in: conversation, at: clock.now())
        await broadcast(stored, to: key)
    }

    /// Sends every agent socket the queue.
    private func publishQueue() async {
        let conversations: [JSONValue] = agentQueue.map { entry in
            var item: JSONObject = [
                "channelId": .string(entry.key.channelId), "userId": .string(entry.key.userId),
                "since": .string(entry.handOff.since.formatted(.iso8601WithMilliseconds)),
            ]
            if let agent = entry.handOff.agent, let details = agents[agent]?.details {
                item["agent"] = details.jsonValue
            }
            return .object(item)
        }
        let frame = JSONValue.object(["type": "queue", "conversations": .array(conversations)])
        for id in agents.keys { await writeToAgent(id, frame) }
    }

    func writeToAgent(_ id: UUID, _ frame: JSONValue) async {
        agents[id]?.outbox.send(frame.jsonString())
    }

    static func agentFrame(_ type: String, _ key: ConversationKey, _ members: JSONObject) -> JSONValue {
        var object: JSONObject = [
            "type": .string(type), "channelId": .string(key.channelId), "userId": .string(key.userId),
        ]
        for member in members { object[member.key] = member.value }
        return .object(object)
    }
}
