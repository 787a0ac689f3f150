public import Foundation
import Logging
public import ParleyServer
import PostgresNIO

// The live-agent queue and retention of the PostgreSQL store: the same rules as the SQLite store's, one statement
// each (docs/agents.md, docs/deploy.md "Retention").
extension PostgresConversationStore {
    // MARK: Live agents

    /// Queues the conversation for live agents, unless it is handed over already.
    public func queueForAgents(_ key: ConversationKey, at date: Date) async throws -> Bool {
        defer { shared.changed(key) }  // what receives found of it is out of date (TurnHolds)
        _ = try await conversation(for: key)
        let rows = try await query(
            """
            UPDATE parley_conversations SET hand_off_since = \(date.timeIntervalSince1970), hand_off_agent = NULL
            WHERE channel_id = \(key.channelId) AND user_id = \(key.userId) AND hand_off_since IS NULL
            RETURNING id
            """)
        return try await Self.firstRow(rows) != nil
    }

    /// The conversations handed to live agents, oldest first.
    public func agentQueue() async throws -> [QueuedConversation] {
        let rows = try await query(
            """
            SELECT \(unescaped: ConversationRow.columns), c.channel_id, c.user_id FROM parley_conversations AS c
            WHERE c.hand_off_since IS NOT NULL ORDER BY c.hand_off_since, c.channel_id, c.user_id
            """)
        var queue: [QueuedConversation] = []
        for try await row in rows.decode((Int64, String, Int, Int, Double, Double?, String?, String, String).self) {
            let key = ConversationKey(channelId: row.7, userId: row.8)
            let conversation = ConversationRow((row.0, row.1, row.2, row.3, row.4, row.5, row.6)).conversation(for: key)
            if let handOff = conversation.handOff { queue.append(QueuedConversation(key: key, handOff: handOff)) }
        }
        return queue
    }

    /// Gives a waiting conversation (or one the same agent has) to `agent`, in one statement: two agents joining at
    /// once, on any nodes, cannot both get it.
    public func assign(_ key: ConversationKey, to agent: AgentSession) async throws {
        defer { shared.changed(key) }  // what receives found of it is out of date (TurnHolds)
        let name = agent.name ?? ""
        let rows = try await query(
            """
            UPDATE parley_conversations SET hand_off_agent = \(agent.jsonValue.jsonString())
            WHERE channel_id = \(key.channelId) AND user_id = \(key.userId) AND hand_off_since IS NOT NULL
            AND (hand_off_agent IS NULL OR (hand_off_agent::jsonb ->> 'name') = \(name))
            RETURNING id
            """)
        guard try await Self.firstRow(rows) == nil else { return }
        guard try await existingConversation(for: key)?.handOff != nil else {
            throw ParleyError(.agentNoSuchConversation, "\(key) is not handed to agents")
        }
        throw ParleyError(.agentConversationTaken, "another agent has \(key)")
    }

    /// Puts the conversations of the agent named `name` back in the queue.
    public func unassign(agentNamed name: String) async throws -> [ConversationKey] {
        defer { shared.changedAll() }  // what receives found of it is out of date (TurnHolds)
        let rows = try await query(
            """
            UPDATE parley_conversations SET hand_off_agent = NULL
            WHERE hand_off_agent IS NOT NULL AND (hand_off_agent::jsonb ->> 'name') = \(name)
            RETURNING channel_id, user_id
            """)
        var keys: [ConversationKey] = []
        for try await (channelId, userId) in rows.decode((String, String).self) {
            keys.append(ConversationKey(channelId: channelId, userId: userId))
        }
        return keys
    }

    /// Ends the conversation's hand-off; what it was.
    public func endHandOff(_ key: ConversationKey) async throws -> AgentHandOff? {
        defer { shared.changed(key) }  // what receives found of it is out of date (TurnHolds)
        // The row as it was before the update, read in the same statement.
        let rows = try await query(
            """
            UPDATE parley_conversations AS c SET hand_off_since = NULL, hand_off_agent = NULL
            FROM (SELECT id, hand_off_since, hand_off_agent FROM parley_conversations
                  WHERE channel_id = \(key.channelId) AND user_id = \(key.userId) FOR UPDATE) AS before
            WHERE c.id = before.id AND before.hand_off_since IS NOT NULL
            RETURNING before.hand_off_since, before.hand_off_agent
            """)
        for try await (since, agent) in rows.decode((Double, String?).self) {
            return AgentHandOff(storedSince: since, agent: agent)
        }
        return nil
    }

    // MARK: Retention

    /// Deletes the conversations whose last message (or creation, without messages) is older than `cutoff`, with
    /// their messages (the foreign key cascades), in one statement.
    public func removeConversations(idleSince cutoff: Date) async throws -> [ConversationKey] {
        defer { shared.changedAll() }  // what receives found of it is out of date (TurnHolds)
        let time = cutoff.timeIntervalSince1970
        let rows = try await query(
            """
            DELETE FROM parley_conversations AS c
            WHERE c.updated_at < \(time) AND coalesce(
                (SELECT m.created_at FROM parley_messages AS m WHERE m.conversation_id = c.id
                 ORDER BY m.sequence DESC LIMIT 1), c.updated_at) < \(time)
            RETURNING c.channel_id, c.user_id
            """)
        var keys: [ConversationKey] = []
        for try await (channelId, userId) in rows.decode((String, String).self) {
            keys.append(ConversationKey(channelId: channelId, userId: userId))
        }
        return keys
    }
}
