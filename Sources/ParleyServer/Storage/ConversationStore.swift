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

/// A conversation as stored: the skill's state and the last sequence numbers used.
public struct StoredConversation: Sendable, Hashable {
    /// The storage id.
    public var id: Int64
    /// Whose conversation it is.
    public var key: ConversationKey
    /// The skill's state, as JSON (`ConversationState`).
    public var state: JSONValue
    /// The sequence number of the newest message, from either side; 0 for none.
    public var lastSequence: Int
    /// The number of messages the server has sent in the conversation: the newest one's ``StoredMessage/outbound``.
    public var lastOutbound: Int
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

    /// Increasing by one within a conversation, from 1, over both directions.
    public var sequence: Int
    /// Who sent it.
    public var direction: Direction
    /// The whole frame (for a skill message, with its wire `sequence`, which is ``outbound``).
    public var frame: JSONValue
    /// When it was stored.
    public var createdAt: Date
    /// For a skill message: 1, 2, 3… over the messages the server sent in the conversation (the wire `sequence`).
    public var outbound: Int?
    /// For a user message: the client's idempotency key, if it gave one.
    public var clientMessageId: String?
    /// For a user message: whether the skill has not answered it yet.
    public var pending: Bool

    /// Creates a stored message.
    public init(
        sequence: Int, direction: Direction, frame: JSONValue, createdAt: Date, outbound: Int? = nil,
        clientMessageId: String? = nil, pending: Bool = false
    ) {
        self.sequence = sequence
        self.direction = direction
        self.frame = frame
        self.createdAt = createdAt
        self.outbound = outbound
        self.clientMessageId = clientMessageId
        self.pending = pending
    }
}

/// What storing a user's input found.
public struct ReceivedInput: Sendable, Hashable {
    /// The input's sequence number in the conversation.
    public var sequence: Int
    /// Whether the conversation already had this `clientMessageId` (nothing new was stored).
    public var duplicate: Bool

    /// A result.
    public init(sequence: Int, duplicate: Bool) {
        self.sequence = sequence
        self.duplicate = duplicate
    }
}

/// A conversation's unanswered inputs (``ConversationStore/pending(for:)``).
public struct PendingInputs: Sendable, Hashable {
    /// The conversation, read with its inputs.
    public var conversation: StoredConversation
    /// The inputs the skill has not answered, oldest first.
    public var inputs: [StoredMessage]

    /// Creates a result.
    public init(conversation: StoredConversation, inputs: [StoredMessage]) {
        self.conversation = conversation
        self.inputs = inputs
    }
}

/// Where the server keeps conversations and their messages.
///
/// ``SQLiteConversationStore`` is the embedded default; the protocol leaves room for PostgreSQL.
///
/// A user's input is stored first, as pending (``receive(_:clientMessageId:for:at:)``): from then on it is
/// safe, and the server acknowledges it. The skill's answer is stored with the input marked answered, in one
/// transaction (``answer(_:with:state:in:at:)``). Inputs still pending after a restart are answered then.
public protocol ConversationStore: Sendable {
    /// The conversation for `key`, created empty when new.
    func conversation(for key: ConversationKey) async throws -> StoredConversation
    /// Stores a user's input as pending, unless the conversation already has its `clientMessageId`.
    func receive(_ frame: JSONValue, clientMessageId: String?, for key: ConversationKey, at date: Date) async throws
        -> ReceivedInput
    /// The inputs of a conversation that the skill has not answered, oldest first, with the conversation as it
    /// stood when they were read (one read for both: the hub asks before each answer); nil for no conversation.
    func pending(for key: ConversationKey) async throws -> PendingInputs?
    /// The conversations with inputs the skill has not answered.
    func conversationsWithPendingInputs() async throws -> [ConversationKey]
    /// Stores the skill's answer to the pending input `sequence` and its new state, and marks the input answered,
    /// in one transaction. Each reply gets the next outbound number, also written into its frame as `sequence`.
    /// - Returns: The stored replies.
    func answer(
        _ sequence: Int, with replies: [JSONValue], state: JSONValue, in conversation: StoredConversation, at date: Date
    ) async throws -> [StoredMessage]
    /// The messages of a conversation with a sequence number above `sequence`, oldest first.
    func messages(for key: ConversationKey, after sequence: Int) async throws -> [StoredMessage]
    /// The messages the server sent in a conversation with an outbound number above `outbound`, oldest first.
    func sent(for key: ConversationKey, after outbound: Int) async throws -> [StoredMessage]
}
