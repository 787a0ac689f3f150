public import Foundation

/// Identifies a conversation: one user on one channel.
public struct ConversationKey: Hashable, Sendable, CustomStringConvertible {
    /// The channel.
    public var channelId: String
    /// The user.
    public var userId: String
    /// Creates a key.
    public init(channelId: String, userId: String) {
        self.channelId = channelId
        self.userId = userId
    }
    /// `channelId/userId`.
    public var description: String { "\(channelId)/\(userId)" }
}

/// A conversation as stored: the skill's state and the last sequence number used.
public struct StoredConversation: Sendable, Hashable {
    /// The storage id.
    public var id: Int64
    /// Whose conversation it is.
    public var key: ConversationKey
    /// The skill's state, as JSON (`ConversationState`).
    public var state: JSONValue
    /// The sequence number of the newest message; 0 for none.
    public var lastSequence: Int
    /// When a message was last added.
    public var updatedAt: Date
}

/// A message as stored, with its per-conversation sequence number.
public struct StoredMessage: Sendable, Hashable {
    /// Who sent it.
    public enum Direction: String, Sendable, Hashable {
        /// From the user (a `UserMessage` or `ProfileUpdate` frame).
        case user
        /// From the skill or an agent (a `SkillMessage` frame).
        case skill
    }

    /// Increasing by one within a conversation, from 1.
    public var sequence: Int
    /// Who sent it.
    public var direction: Direction
    /// The whole frame.
    public var frame: JSONValue
    /// When it was stored.
    public var createdAt: Date

    /// Creates a stored message.
    public init(sequence: Int, direction: Direction, frame: JSONValue, createdAt: Date) {
        self.sequence = sequence
        self.direction = direction
        self.frame = frame
        self.createdAt = createdAt
    }
}

/// Where the server keeps conversations and their messages.
///
/// ``SQLiteConversationStore`` is the embedded default; the protocol leaves room for PostgreSQL.
public protocol ConversationStore: Sendable {
    /// The conversation for `key`, created empty when new.
    func conversation(for key: ConversationKey) async throws -> StoredConversation
    /// Appends messages to a conversation and saves the skill's new state in one transaction.
    /// - Returns: The stored messages with their sequence numbers.
    func append(
        _ frames: [(StoredMessage.Direction, JSONValue)], to conversation: StoredConversation, state: JSONValue,
        at date: Date
    ) async throws -> [StoredMessage]
    /// The messages of a conversation with a sequence number above `sequence`, oldest first.
    func messages(for key: ConversationKey, after sequence: Int) async throws -> [StoredMessage]
}
