import Foundation

/// A conversation store that measures each call to another one (``ServerMetrics/storeDuration``,
/// ``ServerMetrics/storeErrors``) and counts the messages that pass through it: the inputs stored
/// (``ServerMetrics/messagesReceived``) and the server's messages stored to be sent (``ServerMetrics/messagesSent``,
/// with their error payloads in ``ServerMetrics/errors``).
///
/// `buildApplication` puts every store behind one, so that no store implementation knows about metrics. Counting
/// where messages are stored counts each message once, on the node that stored it, however many sockets (or, in a
/// cluster, nodes) it is then delivered to.
struct MeasuredConversationStore: ConversationStore {
    let base: any ConversationStore
    let metrics: ServerMetrics

    func conversation(for key: ConversationKey) async throws -> StoredConversation {
        try await metrics.measure(.conversation) { try await base.conversation(for: key) }
    }

    func receive(_ input: InputFrame, for key: ConversationKey, at date: Date) async throws -> ReceivedInput {
        let received = try await metrics.measure(.receive) { try await base.receive(input, for: key, at: date) }
        if !received.duplicate { metrics.inputReceived(channel: key.channelId) }
        return received
    }

    func pending(for key: ConversationKey) async throws -> PendingInputs? {
        try await metrics.measure(.pending) { try await base.pending(for: key) }
    }

    func conversationsWithPendingInputs() async throws -> [ConversationKey] {
        try await metrics.measure(.conversationsWithPendingInputs) { try await base.conversationsWithPendingInputs() }
    }

    func answer(
        _ sequence: Int?, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> [StoredMessage] {
        let stored = try await metrics.measure(.answer) {
            try await base.answer(sequence, with: replies, state: state, in: conversation, at: date)
        }
        metrics.sent(stored, channel: conversation.key.channelId)
        return stored
    }

    func answerInput(
        _ sequence: Int, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> AnsweredInput {
        let answered = try await metrics.measure(.answer) {
            try await base.answerInput(sequence, with: replies, state: state, in: conversation, at: date)
        }
        metrics.sent(answered.stored, channel: conversation.key.channelId)
        return answered
    }

    func messages(for key: ConversationKey, after cursor: MessageCursor, limit: Int) async throws -> [StoredMessage] {
        try await metrics.measure(.messages) { try await base.messages(for: key, after: cursor, limit: limit) }
    }

    func removeConversations(idleSince cutoff: Date) async throws -> [ConversationKey] {
        try await metrics.measure(.removeConversations) { try await base.removeConversations(idleSince: cutoff) }
    }

    func lastOutbounds(of keys: [ConversationKey]) async throws -> [ConversationKey: Int] {
        try await base.lastOutbounds(of: keys)
    }

    func checkReadiness() async throws {
        try await metrics.measure(.checkReadiness) { try await base.checkReadiness() }
    }

    func queueForAgents(_ key: ConversationKey, at date: Date) async throws -> Bool {
        try await metrics.measure(.queueForAgents) { try await base.queueForAgents(key, at: date) }
    }

    func agentQueue() async throws -> [QueuedConversation] {
        try await metrics.measure(.agentQueue) { try await base.agentQueue() }
    }

    func assign(_ key: ConversationKey, to agent: AgentSession) async throws {
        try await metrics.measure(.assign) { try await base.assign(key, to: agent) }
    }

    func unassign(agentNamed name: String) async throws -> [ConversationKey] {
        try await metrics.measure(.unassign) { try await base.unassign(agentNamed: name) }
    }

    func endHandOff(_ key: ConversationKey) async throws -> AgentHandOff? {
        try await metrics.measure(.endHandOff) { try await base.endHandOff(key) }
    }
}
