import Foundation
import HummingbirdWebSocket
import Logging

/// An open socket of the agent console and the agent behind it.
struct AgentConnection {
    let outbox: SocketOutbox
    let details: AgentSession
}

/// Live agents (`docs/agents.md`): a skill hands a conversation over (``ConversationState/handOff``), it waits in
/// the queue every agent console sees, one agent joins it, and from then on the user's inputs go to that agent
/// instead of the skill, and the agent's messages go to the user with `source: AGENT` and
/// `channelExtensions.agentSession`, stored and numbered like the skill's. The agent hands it back, or the user
/// ends it with `closeSession`.
///
/// The queue and who has which conversation are kept by the store, with the conversation (``AgentHandOff``): every
/// node of a cluster sees the same queue, and an agent (known by name) whose node restarts still has its
/// conversations when its console reconnects. What crosses nodes goes as ``ClusterEvent``s; on a single server the
/// hub hears its own events at once.
extension ChatHub {
    /// The text the user gets, from the skill's side, when the agent hands the conversation back without one.
    static let handBackText = "You are back with the assistant."

    /// Tells every node (on a single server, this hub) about an agent event.
    func tell(_ event: ClusterEvent) async {
        if let cluster {
            await cluster.announce(event)
        } else {
            await heard(event)
        }
    }

    /// A skill handed the conversation over: it waits for an agent.
    func queueForAgent(_ key: ConversationKey) async {
        do {
            guard try await store.queueForAgents(key, at: clock.now()) else { return }
        } catch {
            return logger.error("cannot queue \(key) for live agents: \(error)")
        }
        logger.info("conversation \(key) waits for a live agent")
        await tell(.agentQueueEntry(key))
    }

    /// Registers an agent console socket; it gets the first page of the queue once this node's copy of the queue is
    /// read.
    func attachAgent(_ id: UUID, details: AgentSession, outbox: SocketOutbox) async {
        if drainSwitch.isDraining { return outbox.close(DrainSwitch.error) }
        agents[id] = AgentConnection(outbox: outbox, details: details)
        agentFeed.awaitingFirstPage.insert(id)
        await refreshAgentQueue()
    }

    /// Forgets a closed agent socket. When it was the agent's last console here and the agent closed it (not a
    /// graceful stop of the server, after which the console reconnects to another node), the conversations the
    /// agent had wait again.
    func detachAgent(_ id: UUID, keepingConversations: Bool = false) async {
        guard let agent = agents.removeValue(forKey: id) else { return }
        agentFeed.awaitingFirstPage.remove(id)
        // No console here: the copy of the queue is dropped, and read again when one signs in.
        if agents.isEmpty, !agentFeed.refreshing { agentFeed = AgentQueueFeed() }
        guard !keepingConversations, let name = agent.details.name,
            !agents.values.contains(where: { $0.details.name == name })
        else { return }
        do {
            for key in try await store.unassign(agentNamed: name) { await tell(.agentQueueEntry(key)) }
        } catch {
            logger.error("cannot put the conversations of agent \(name) back in the queue: \(error)")
        }
    }

    /// The agent of socket `id` takes a waiting conversation and gets its recent history.
    func join(_ key: ConversationKey, agent id: UUID) async throws(ParleyError) {
        guard let details = agents[id]?.details else {
            throw ParleyError(.agentNotJoined, "the agent socket is closed")
        }
        do {
            try await store.assign(key, to: details)
        } catch let error as ParleyError {
            throw error
        } catch {
            logger.error("cannot give \(key) to an agent: \(error)")
            throw ParleyError(.internalError, "the conversation could not be joined; try again")
        }
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
        writeToAgent(id, Self.agentFrame("joined", key, ["history": .array(history)]))
        await tell(.agentQueueEntry(key))
    }

    /// A message from the agent to the user.
    func agentSays(_ payload: MessagePayload, in key: ConversationKey, agent id: UUID) async throws(ParleyError) {
        let details = try await agentDetails(of: id, in: key)
        var payload = payload
        var extensions = payload.channelExtensions ?? ChannelExtensions()
        extensions.values["agentSession"] = details.jsonValue
        payload.channelExtensions = extensions
        let message = SkillMessage(
            payload: payload, source: .agent, userId: key.userId, msgId: UUID.random().uuidString.lowercased(),
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
        let details = try await agentDetails(of: id, in: key)
        var payload = MessagePayload(.status(.init(status)))
        payload.channelExtensions = ChannelExtensions(["agentSession": details.jsonValue])
        await tell(.toUser(key, frame: SkillMessage(payload: payload, source: .agent, userId: key.userId).jsonString()))
    }

    /// The agent gives the conversation back to the skill; the user gets `text` (or ``handBackText``) from the
    /// skill's side, so that clients see the agent leave.
    func handBack(_ key: ConversationKey, agent id: UUID, text: String?) async throws(ParleyError) {
        let details = try await agentDetails(of: id, in: key)
        do {
            _ = try await store.endHandOff(key)
        } catch {
            logger.error("cannot end the hand-off of \(key): \(error)")
            throw ParleyError(.internalError, "the conversation could not be handed back; try again")
        }
        let message = SkillMessage(
            payload: .text(text ?? Self.handBackText), source: .bot, userId: key.userId,
            msgId: UUID.random().uuidString.lowercased(), endOfTurn: true,
            createdOn: .string(clock.now().formatted(.iso8601WithMilliseconds)))
        do {
            try await sendOnOwn([message], to: key)
        } catch {
            logger.error("cannot store the hand-back of \(key): \(error)")
        }
        if let name = details.name {
            await tell(
                .toAgent(name: name, frame: Self.agentFrame("ended", key, ["reason": "handed back"]).jsonString()))
        }
        await tell(.agentQueueEntry(key))
    }

    /// The conversation leaves the agents (the user ended it): its agent is told.
    func endHandOff(_ key: ConversationKey, notice: String) async {
        let ended: AgentHandOff?
        do {
            ended = try await store.endHandOff(key)
        } catch {
            return logger.error("cannot end the hand-off of \(key): \(error)")
        }
        guard let ended else { return }
        if let name = ended.agent?.name {
            let frame = Self.agentFrame("ended", key, ["reason": .string(notice)])
            await tell(.toAgent(name: name, frame: frame.jsonString()))
        }
        await tell(.agentQueueEntry(key))
    }

    /// An input `sequence` of a conversation an agent has: to that agent's consoles, on whichever node they are.
    func forwardToAgent(_ frame: JSONValue, sequence: Int, of key: ConversationKey, agent name: String) async {
        if cluster != nil {
            await tell(.userInput(key, sequence: sequence))
        } else {
            deliverToAgent(frame, of: key, agent: name)
        }
    }

    /// A user's input to the local consoles of the agent named `name`: typing as `typing`, the rest as `message`.
    private func deliverToAgent(_ frame: JSONValue, of key: ConversationKey, agent name: String) {
        if let payload = frame["messagePayload"], payload["type"] == "status" {
            var typing: JSONObject = ["status": payload["status"] ?? "LISTENING"]
            if let text = payload["text"] { typing["text"] = text }
            writeToAgents(named: name, Self.agentFrame("typing", key, typing).jsonString())
        } else {
            writeToAgents(named: name, Self.agentFrame("message", key, ["frame": frame]).jsonString())
        }
    }

    // MARK: Cluster events

    /// Another node (or this one) stored input `sequence` of a conversation an agent has: read it, and give it to the
    /// agent's consoles here.
    func heardUserInput(_ sequence: Int, of key: ConversationKey) async {
        guard !agents.isEmpty else { return }
        do {
            guard let name = try await store.conversation(for: key).handOff?.agent?.name,
                agents.values.contains(where: { $0.details.name == name }),
                let input = try await store.messages(for: key, after: .sequence(sequence - 1)).first,
                input.sequence == sequence, case .user(let frame) = input.frame
            else { return }
            deliverToAgent(frame.jsonValue, of: key, agent: name)
        } catch {
            logger.error("cannot read input \(sequence) of \(key) for its agent: \(error)")
        }
    }

    /// The whole queue may have changed (another node asked for a full read, or hints were missed): this node's copy
    /// is read again, and its consoles get what changed.
    func publishQueue() async {
        guard !agents.isEmpty else { return }
        agentFeed.reloadAll = true
        await refreshAgentQueue()
    }

    /// The conversation `key` joined, left or changed hands in the queue: its consoles here get that change.
    func heardQueueEntry(_ key: ConversationKey) async {
        guard !agents.isEmpty else { return }
        agentFeed.changedKeys.insert(key)
        await refreshAgentQueue()
    }

    /// Sends the console `id` the page of the queue after `position` (the first page when nil).
    func sendQueuePage(to id: UUID, after position: AgentQueue.Position?, limit: Int) {
        // A console that has not had its first page gets it with the rest.
        guard let queue = agentFeed.queue, !agentFeed.awaitingFirstPage.contains(id) else { return }
        writeToAgent(id, Self.queuePage(queue, after: position, limit: limit))
    }

    /// Brings this node's copy of the queue up to date, one change at a time, and sends each change to the consoles
    /// here, then the first page to consoles that signed in meanwhile. One refresh runs at a time; what changes
    /// while it reads is picked up by the same run, so the copy never goes back to an older read.
    private func refreshAgentQueue() async {
        guard !agentFeed.refreshing else { return }
        agentFeed.refreshing = true
        defer { agentFeed.refreshing = false }
        while !agents.isEmpty {
            if agentFeed.reloadAll || agentFeed.queue == nil {
                agentFeed.reloadAll = false
                agentFeed.changedKeys = []
                let read: [QueuedConversation]
                do {
                    read = try await store.agentQueue()
                } catch {
                    logger.error("cannot read the live agents' queue: \(error)")
                    agentFeed.reloadAll = true
                    break
                }
                if agentFeed.queue == nil {
                    agentFeed.queue = AgentQueue(read)
                } else if let changes = agentFeed.queue?.replace(with: read) {
                    publishQueueChanges(changes)
                }
            } else if let key = agentFeed.changedKeys.popFirst() {
                let handOff: AgentHandOff?
                do {
                    handOff = try await store.conversation(for: key).handOff
                } catch {
                    logger.error("cannot read the hand-off of \(key) for the live agents' queue: \(error)")
                    agentFeed.reloadAll = true
                    break
                }
                if let changes = agentFeed.queue?.set(key, to: handOff) { publishQueueChanges(changes) }
            } else {
                if let queue = agentFeed.queue {
                    let page = Self.queuePage(queue, after: nil, limit: AgentQueueFeed.pageSize)
                    for id in agentFeed.awaitingFirstPage { writeToAgent(id, page) }
                    agentFeed.awaitingFirstPage = []
                }
                break
            }
        }
        if agents.isEmpty { agentFeed = AgentQueueFeed() }
    }

    /// Sends a batch of changes to every console here that has had its first page.
    private func publishQueueChanges(_ changes: [AgentQueue.Change]) {
        guard !changes.isEmpty, let queue = agentFeed.queue else { return }
        let frame = JSONValue.object([
            "type": "queueChanged", "version": .number(Double(queue.version)), "total": .number(Double(queue.count)),
            "changes": .array(changes.map(\.jsonValue)),
        ]).jsonString()
        for (id, agent) in agents where !agentFeed.awaitingFirstPage.contains(id) { agent.outbox.send(frame) }
    }

    /// A `queue` frame: the page of `queue` after `position`, with the version it shows and the queue's length.
    private static func queuePage(_ queue: AgentQueue, after position: AgentQueue.Position?, limit: Int) -> JSONValue {
        let page = queue.page(after: position, limit: limit)
        var frame: JSONObject = [
            "type": "queue", "version": .number(Double(queue.version)), "total": .number(Double(queue.count)),
            "conversations": .array(page.entries.map(\.jsonValue)), "more": .bool(page.more),
        ]
        if let position { frame["after"] = AgentQueue.Entry(key: position.key, since: position.since).jsonValue }
        return .object(frame)
    }

    /// Sends a frame to the consoles here of the agent named `name`.
    func writeToAgents(named name: String, _ frame: String) {
        for agent in agents.values where agent.details.name == name { agent.outbox.send(frame) }
    }

    // MARK: Helpers

    /// The details of the agent of socket `id`, when that agent has the conversation.
    private func agentDetails(of id: UUID, in key: ConversationKey) async throws(ParleyError) -> AgentSession {
        guard let agent = agents[id] else { throw ParleyError(.agentNotJoined, "the agent socket is closed") }
        let handOff: AgentHandOff?
        do {
            handOff = try await store.conversation(for: key).handOff
        } catch {
            logger.error("cannot read the hand-off of \(key): \(error)")
            throw ParleyError(.internalError, "the conversation could not be read; try again")
        }
        guard let handOff else {
            throw ParleyError(.agentNoSuchConversation, "\(key) is not handed to agents")
        }
        guard handOff.agent?.name == agent.details.name else {
            throw ParleyError(.agentNotJoined, "join \(key) first")
        }
        return agent.details
    }

    /// Stores messages the server sends on its own (not answering an input) and sends them to the user.
    private func sendOnOwn(_ messages: [SkillMessage], to key: ConversationKey) async throws {
        let conversation = try await store.conversation(for: key)
        let stored = try await store.answer(
            nil, with: messages, state: conversation.state, in: conversation, at: clock.now())
        await broadcast(stored, to: key)
    }

    func writeToAgent(_ id: UUID, _ frame: JSONValue) {
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
