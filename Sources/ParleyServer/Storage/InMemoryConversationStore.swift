public import Foundation

/// Conversations in memory only: gone when the process ends.
///
/// For tests, previews and a server whose conversations need not survive a restart. It keeps the same rules as
/// ``SQLiteConversationStore`` (both pass the store conformance suite): sequence numbers over both directions from
/// 1, outbound numbers over the server's messages, one stored input per `clientMessageId`, answers that mark their
/// input answered in the same step.
public actor InMemoryConversationStore: ConversationStore {
    private struct Entry {
        var conversation: StoredConversation
        var messages: [StoredMessage] = []
        /// The sequence number of each `clientMessageId` the user sent.
        var clientMessageIds: [String: Int] = [:]
    }

    private var entries: [ConversationKey: Entry] = [:]
    private var nextId: Int64 = 1
    private let clock: ServerClock

    /// Creates an empty store.
    /// - Parameter clock: Dates a new conversation (its ``StoredConversation/updatedAt``).
    public init(clock: ServerClock = .system) {
        self.clock = clock
    }

    /// The conversation for `key`, created empty when new.
    public func conversation(for key: ConversationKey) -> StoredConversation {
        entry(for: key).conversation
    }

    /// The entry of `key`, created when new.
    private func entry(for key: ConversationKey) -> Entry {
        if let existing = entries[key] { return existing }
        let entry = Entry(conversation: StoredConversation(id: nextId, key: key, updatedAt: clock.now()))
        nextId += 1
        entries[key] = entry
        return entry
    }

    /// Stores a user's input as pending, unless the conversation already has its `clientMessageId`.
    public func receive(_ input: InputFrame, for key: ConversationKey, at date: Date) -> ReceivedInput {
        var entry = entry(for: key)
        if let id = input.clientMessageId, let sequence = entry.clientMessageIds[id] {
            return ReceivedInput(sequence: sequence, duplicate: true)
        }
        entry.conversation.lastSequence += 1
        let sequence = entry.conversation.lastSequence
        entry.messages.append(StoredMessage(sequence: sequence, frame: .user(input), createdAt: date, pending: true))
        if let id = input.clientMessageId { entry.clientMessageIds[id] = sequence }
        entries[key] = entry
        return ReceivedInput(sequence: sequence, duplicate: false)
    }

    /// The conversation's oldest unanswered inputs (``PendingInputs/limit``), with the conversation as it stood; nil
    /// for none.
    public func pending(for key: ConversationKey) -> PendingInputs? {
        guard let entry = entries[key] else { return nil }
        return PendingInputs(
            conversation: entry.conversation,
            inputs: Array(entry.messages.lazy.filter(\.pending).prefix(PendingInputs.limit)))
    }

    /// The conversations with inputs the skill has not answered.
    public func conversationsWithPendingInputs() -> [ConversationKey] {
        entries.compactMap { key, entry in entry.messages.contains(where: \.pending) ? key : nil }
    }

    /// Stores the server's messages and the new state, and marks input `sequence` answered, in one step.
    public func answer(
        _ sequence: Int?, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) throws -> [StoredMessage] {
        guard var entry = entries[conversation.key], entry.conversation.id == conversation.id else {
            throw ParleyError(.internalError, "conversation \(conversation.key) vanished")
        }
        let input = sequence.flatMap { sequence in entry.messages.firstIndex { $0.sequence == sequence } }
        if let sequence, !(input.map { entry.messages[$0].pending } ?? false) {
            throw ParleyError(.storeInputAnswered, "input \(sequence) of \(conversation.key) is not pending")
        }
        var stored: [StoredMessage] = []
        for reply in replies {
            entry.conversation.lastSequence += 1
            entry.conversation.lastOutbound += 1
            stored.append(
                StoredMessage(
                    sequence: entry.conversation.lastSequence, frame: .skill(reply), createdAt: date,
                    outbound: entry.conversation.lastOutbound))
        }
        entry.messages += stored
        if let input { entry.messages[input].pending = false }
        entry.conversation.state = state
        entry.conversation.unreadableState = nil
        entry.conversation.updatedAt = date
        entries[conversation.key] = entry
        return stored
    }

    /// The messages of a conversation after `cursor`, oldest first, at most `limit` of them.
    public func messages(for key: ConversationKey, after cursor: MessageCursor, limit: Int) -> [StoredMessage] {
        let messages = entries[key]?.messages ?? []
        let after: (StoredMessage) -> Bool =
            switch cursor {
            case .sequence(let sequence): { $0.sequence > sequence }
            case .outbound(let outbound): { ($0.outbound ?? 0) > outbound }
            }
        return Array(messages.lazy.filter(after).prefix(max(limit, 0)))
    }

    // MARK: Retention

    /// Deletes the conversations whose last message (or creation, without messages) is older than `cutoff`.
    public func removeConversations(idleSince cutoff: Date) -> [ConversationKey] {
        let idle = entries.compactMap { key, entry in
            (entry.messages.last?.createdAt ?? entry.conversation.updatedAt) < cutoff
                && entry.conversation.updatedAt < cutoff ? key : nil
        }
        for key in idle { entries[key] = nil }
        return idle
    }

    // MARK: Live agents

    /// Queues the conversation for live agents, unless it is handed over already.
    public func queueForAgents(_ key: ConversationKey, at date: Date) -> Bool {
        var entry = entry(for: key)
        guard entry.conversation.handOff == nil else { return false }
        entry.conversation.handOff = AgentHandOff(since: date)
        entries[key] = entry
        return true
    }

    /// The conversations handed to live agents, oldest first.
    public func agentQueue() -> [QueuedConversation] {
        entries.compactMap { key, entry in entry.conversation.handOff.map { QueuedConversation(key: key, handOff: $0) }
        }
        .sorted { ($0.handOff.since, $0.key.description) < ($1.handOff.since, $1.key.description) }
    }

    /// Gives a waiting conversation (or one the same agent has) to `agent`.
    public func assign(_ key: ConversationKey, to agent: AgentSession) throws {
        guard var handOff = entries[key]?.conversation.handOff else {
            throw ParleyError(.agentNoSuchConversation, "\(key) is not handed to agents")
        }
        guard handOff.agent == nil || handOff.agent?.name == agent.name else {
            throw ParleyError(.agentConversationTaken, "another agent has \(key)")
        }
        handOff.agent = agent
        entries[key]?.conversation.handOff = handOff
    }

    /// Puts the conversations of the agent named `name` back in the queue.
    public func unassign(agentNamed name: String) -> [ConversationKey] {
        let keys = entries.compactMap { key, entry in entry.conversation.handOff?.agent?.name == name ? key : nil }
        for key in keys { entries[key]?.conversation.handOff?.agent = nil }
        return keys
    }

    /// Ends the conversation's hand-off; what it was.
    public func endHandOff(_ key: ConversationKey) -> AgentHandOff? {
        defer { entries[key]?.conversation.handOff = nil }
        return entries[key]?.conversation.handOff
    }
}
