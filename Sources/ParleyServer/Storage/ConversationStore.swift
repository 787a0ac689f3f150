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

extension ConversationKey {
    /// The longest user id the server takes, in UTF-8 bytes.
    static let maximumUserIdLength = 256

    /// Checks a user id from a client (a socket's or an upload's `userId`, a session's): 1 to 256 bytes and no
    /// control characters. GRDB binds strings as C strings, which end at a NUL, so "ann\0x" would be "ann" in some
    /// of the SQLite store's lookups.
    /// - Throws: ``ParleyError`` with code `decode.invalidValue`.
    static func validate(userId: String) throws(ParleyError) {
        guard !userId.isEmpty, userId.utf8.count <= maximumUserIdLength,
            !userId.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ParleyError(
                .invalidValue, "a user id has 1 to \(maximumUserIdLength) bytes and no control characters")
        }
    }
}

/// A conversation as stored: the skill's state and the last sequence numbers used.
public struct StoredConversation: Sendable, Hashable {
    /// The storage id.
    public var id: Int64
    /// Whose conversation it is.
    public var key: ConversationKey
    /// The skill's state.
    public var state: ConversationState
    /// Why the stored state could not be read, when it could not: ``state`` is then a new conversation's, and the
    /// hub logs the error and tells the user that the conversation started again (never a silent reset).
    public var unreadableState: ParleyError?
    /// The sequence number of the newest message, from either side; 0 for none.
    public var lastSequence: Int
    /// The number of messages the server has sent in the conversation: the newest one's ``StoredMessage/outbound``.
    public var lastOutbound: Int
    /// When a message was last added.
    public var updatedAt: Date
    /// The live agents' hold on the conversation, while a skill has handed it to them: the user's inputs then go to
    /// the agent, not the skill.
    public var handOff: AgentHandOff?

    /// Creates a stored conversation.
    public init(
        id: Int64, key: ConversationKey, state: ConversationState = ConversationState(),
        unreadableState: ParleyError? = nil, lastSequence: Int = 0, lastOutbound: Int = 0, updatedAt: Date,
        handOff: AgentHandOff? = nil
    ) {
        self.id = id
        self.key = key
        self.state = state
        self.unreadableState = unreadableState
        self.lastSequence = lastSequence
        self.lastOutbound = lastOutbound
        self.updatedAt = updatedAt
        self.handOff = handOff
    }
}

/// A conversation a skill handed to live agents (`docs/agents.md`), as stored with it: in every node's queue until an
/// agent joins it, that agent's until it is handed back or the user ends it.
public struct AgentHandOff: Sendable, Hashable {
    /// When the skill handed it over.
    public var since: Date
    /// The agent who has it; nil while it waits. Agents are known by their name (``AgentSession/name``), so an agent
    /// whose console reconnects, to any node, still has its conversations.
    public var agent: AgentSession?

    /// Creates a hand-off.
    public init(since: Date, agent: AgentSession? = nil) {
        self.since = since
        self.agent = agent
    }
}

extension AgentHandOff {
    /// A hand-off read from a store that keeps its time as seconds since 1970 and its agent as ``AgentSession`` JSON
    /// text; agent text that cannot be read leaves the conversation waiting for an agent.
    public init(storedSince: Double, agent: String?) {
        self.init(
            since: Date(timeIntervalSince1970: storedSince),
            agent: agent.flatMap { try? AgentSession(json: JSONValue(parsing: $0)) })
    }
}

/// A conversation of the live agents' queue.
public struct QueuedConversation: Sendable, Hashable {
    /// Whose conversation it is.
    public var key: ConversationKey
    /// Since when, and who has it.
    public var handOff: AgentHandOff

    /// Creates an entry.
    public init(key: ConversationKey, handOff: AgentHandOff) {
        self.key = key
        self.handOff = handOff
    }
}

extension StoredConversation {
    /// A conversation read from a store that keeps its state as JSON text (``ConversationState/jsonValue``). A state
    /// that cannot be decoded is reported in ``unreadableState`` (the hub says so), not thrown: the conversation's
    /// messages stay readable.
    /// A hand-off is kept as its time (seconds since 1970) and its agent as ``AgentSession`` JSON text; agent text
    /// that cannot be read leaves the conversation waiting for an agent.
    public init(
        id: Int64, key: ConversationKey, storedState: String, lastSequence: Int, lastOutbound: Int, updatedAt: Date,
        handOffSince: Double? = nil, handOffAgent: String? = nil
    ) {
        self.init(id: id, key: key, lastSequence: lastSequence, lastOutbound: lastOutbound, updatedAt: updatedAt)
        do {
            state = try ConversationState(json: JSONValue(parsing: storedState))
        } catch {
            unreadableState = error
        }
        handOff = handOffSince.map { AgentHandOff(storedSince: $0, agent: handOffAgent) }
    }
}

/// What a user sent that the skill answers: a conversation message or a profile update.
public enum InputFrame: Sendable, Hashable {
    /// A conversation message, `{"messagePayload": …}`.
    case message(UserMessage)
    /// A profile update, `{"profile": …}`.
    case profile(ProfileUpdate)

    /// The client's idempotency key, if it gave one.
    public var clientMessageId: String? {
        switch self {
        case .message(let message): message.clientMessageId
        case .profile(let update): update.clientMessageId
        }
    }

    /// The wire form, as the user sent it (members this version does not know included).
    public var jsonValue: JSONValue {
        switch self {
        case .message(let message): message.jsonValue
        case .profile(let update): update.jsonValue
        }
    }

    /// Decodes a stored input.
    /// - Throws: ``ParleyError`` when the frame is neither a message nor a profile update.
    public init(json: JSONValue) throws(ParleyError) {
        switch try ClientFrame(json: json) {
        case .message(let message): self = .message(message)
        case .profile(let update): self = .profile(update)
        case .state, .unknown:
            throw ParleyError(.invalidValue, "a stored input is neither a message nor a profile update")
        }
    }
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

    /// The frame, typed by who sent it.
    public enum Frame: Sendable, Hashable {
        /// The user's input.
        case user(InputFrame)
        /// A message the server sent: the skill's, an agent's or the server's own.
        case skill(SkillMessage)
    }

    /// Increasing by one within a conversation, from 1, over both directions.
    public var sequence: Int
    /// The frame. A skill message is kept without its wire `sequence`: that is ``outbound``.
    public var frame: Frame {
        didSet { encoded = EncodedTexts() }
    }
    /// When it was stored.
    public var createdAt: Date
    /// For a skill message: 1, 2, 3… over the messages the server sent in the conversation (the wire `sequence`).
    public var outbound: Int? {
        didSet { encoded = EncodedTexts() }
    }
    /// For a user message: whether the skill has not answered it yet.
    public var pending: Bool
    /// ``wireTexts`` when a store encoded them already (``encodeWireFrame()``), until the frame or ``outbound``
    /// changes: not part of the message's value.
    private var encoded = EncodedTexts()

    /// Creates a stored message.
    public init(sequence: Int, frame: Frame, createdAt: Date, outbound: Int? = nil, pending: Bool = false) {
        self.sequence = sequence
        self.frame = frame
        self.createdAt = createdAt
        self.outbound = outbound
        self.pending = pending
    }

    /// Who sent it.
    public var direction: Direction {
        switch frame {
        case .user: .user
        case .skill: .skill
        }
    }

    /// For a user message: the client's idempotency key, if it gave one.
    public var clientMessageId: String? {
        guard case .user(let input) = frame else { return nil }
        return input.clientMessageId
    }

    /// A message read from a store that keeps frames as JSON text (``wireFrame``), with its direction as
    /// ``Direction/rawValue``; a skill message's wire `sequence` is dropped for ``outbound``.
    /// - Throws: ``ParleyError`` when the text is not JSON or not a frame of its direction.
    public init(
        sequence: Int, direction: String, storedFrame: String, createdAt: Date, outbound: Int?, pending: Bool
    ) throws(ParleyError) {
        let json = try JSONValue(parsing: storedFrame)
        let typed: Frame
        if direction == Direction.user.rawValue {
            typed = .user(try InputFrame(json: json))
        } else {
            var message = try SkillMessage(json: json)
            message.extra["sequence"] = nil  // the `outbound` column
            typed = .skill(message)
        }
        self.init(sequence: sequence, frame: typed, createdAt: createdAt, outbound: outbound, pending: pending)
    }

    /// The frame as a socket with Parley's extension gets it: a skill message with its `sequence` (``outbound``).
    public var wireFrame: JSONValue {
        switch frame {
        case .user(let input):
            return input.jsonValue
        case .skill(let message):
            var message = message
            if let outbound { message.extra["sequence"] = .number(Double(outbound)) }
            return message.jsonValue
        }
    }

    /// The text of ``wireFrame`` for a store to keep. The message keeps it too, with the text for sockets without
    /// Parley's extension (``wireTexts``), so that sending it once stored encodes nothing again.
    public mutating func encodeWireFrame() -> String {
        let texts = wireTexts
        encoded = EncodedTexts(texts)
        return texts.withSequence
    }

    /// The text of ``wireFrame``, and the text a socket without Parley's extension gets (a skill message without
    /// `sequence`), encoded once: `sequence` is the wire frame's last member, so it is appended to the text without
    /// it instead of encoding the message again (encoding was done three times per reply, docs/performance.md).
    var wireTexts: (withSequence: String, plain: String) {
        if let texts = encoded.texts { return (texts.withSequence, texts.plain) }
        guard case .skill(let message) = frame else {
            let text = wireFrame.jsonString()
            return (text, text)
        }
        let plain = message.jsonString()
        guard let outbound else { return (plain, plain) }
        // A skill's own `sequence` member is replaced where it stands: encoded again (never in Parley's own replies).
        guard message.extra["sequence"] == nil, plain.utf8.count > 2, plain.utf8.last == UInt8(ascii: "}") else {
            return (wireFrame.jsonString(), plain)
        }
        let suffix = #","sequence":"# + String(outbound) + "}"
        var withSequence = plain
        withSequence.reserveCapacity(plain.utf8.count + suffix.utf8.count)
        withSequence.unicodeScalars.removeLast()  // the closing brace
        withSequence += suffix
        return (withSequence, plain)
    }
}

/// A stored message's texts as encoded by its store, carried with it outside its equality and hash: a message read
/// back without them is the same message.
private struct EncodedTexts: Sendable, Hashable {
    final class Texts: Sendable {
        let withSequence: String
        let plain: String

        init(withSequence: String, plain: String) {
            (self.withSequence, self.plain) = (withSequence, plain)
        }
    }

    var texts: Texts?

    init(_ texts: (withSequence: String, plain: String)? = nil) {
        self.texts = texts.map { Texts(withSequence: $0.withSequence, plain: $0.plain) }
    }

    static func == (_: Self, _: Self) -> Bool { true }
    func hash(into _: inout Hasher) {}
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

/// An input's answer as stored (``ConversationStore/answerInput(_:with:state:in:at:)``).
public struct AnsweredInput: Sendable, Hashable {
    /// The messages stored, numbered.
    public var stored: [StoredMessage]
    /// Whether the conversation may have other inputs pending: false only when the store saw none as it stored the
    /// answer. An input stored after that requests a turn of its own.
    public var othersPending: Bool

    /// An answer of `stored` messages; `othersPending` false only when the store saw no other input pending.
    public init(stored: [StoredMessage], othersPending: Bool) {
        self.stored = stored
        self.othersPending = othersPending
    }
}

/// A conversation's unanswered inputs (``ConversationStore/pending(for:)``).
public struct PendingInputs: Sendable, Hashable {
    /// The conversation, read with its inputs.
    public var conversation: StoredConversation
    /// The inputs the skill has not answered, oldest first: at most ``limit``, the oldest ones, however many wait.
    public var inputs: [StoredMessage]

    /// The most inputs a read of ``ConversationStore/pending(for:)`` gives: a user who sends faster than the skill
    /// answers makes the store keep more, never a read (or the SQLite store's cache) hold them all.
    public static let limit = 32

    /// Creates a result.
    public init(conversation: StoredConversation, inputs: [StoredMessage]) {
        self.conversation = conversation
        self.inputs = inputs
    }
}

/// Where a reading of a conversation's messages starts: after a sequence number over both directions, or after an
/// outbound number over the server's messages only (the cursor a client resumes from).
public enum MessageCursor: Sendable, Hashable {
    /// The messages with a ``StoredMessage/sequence`` above this one.
    case sequence(Int)
    /// The server's messages with an ``StoredMessage/outbound`` number above this one.
    case outbound(Int)
}

/// Where the server keeps conversations and their messages.
///
/// ``SQLiteConversationStore`` is the embedded default and ``InMemoryConversationStore`` keeps nothing across
/// restarts; every implementation passes the same conformance suite (`Tests/ParleyServerTests/Storage`).
///
/// A user's input is stored first, as pending (``receive(_:for:at:)``): from then on it is safe, and the server
/// acknowledges it. The skill's answer is stored with the input marked answered, in one transaction
/// (``answer(_:with:state:in:at:)``). Inputs still pending after a restart are answered then.
public protocol ConversationStore: Sendable {
    /// The conversation for `key`, created empty when new.
    func conversation(for key: ConversationKey) async throws -> StoredConversation
    /// Stores a user's input as pending, unless the conversation already has its `clientMessageId`.
    func receive(_ input: InputFrame, for key: ConversationKey, at date: Date) async throws -> ReceivedInput
    /// The inputs of a conversation that the skill has not answered, oldest first and at most
    /// ``PendingInputs/limit`` of them, with the conversation as it stood when they were read (one read for both: the
    /// hub asks before each answer); nil for no conversation.
    func pending(for key: ConversationKey) async throws -> PendingInputs?
    /// The conversations with inputs the skill has not answered.
    func conversationsWithPendingInputs() async throws -> [ConversationKey]
    /// Stores messages of the server and the conversation's new state, and marks the pending input `sequence`
    /// answered (nil: messages the server sends on its own), in one transaction. Each message gets the next
    /// sequence and outbound numbers.
    /// - Returns: The stored messages.
    /// - Throws: ``ParleyError/Code/storeInputAnswered`` when input `sequence` is not pending (another node of a
    ///   cluster answered it): nothing is stored.
    func answer(
        _ sequence: Int?, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> [StoredMessage]
    /// ``answer(_:with:state:in:at:)`` of input `sequence`, saying too whether other inputs of the conversation were
    /// pending when the answer was stored: the server's turn reads the pending inputs again only when there may be
    /// some (a read less per message on a database). The default answers and says there may be.
    func answerInput(
        _ sequence: Int, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> AnsweredInput
    /// The messages of a conversation after `cursor`, oldest first, at most `limit` of them: a long history is read
    /// page by page, each page after the last message of the one before, so that no read holds it whole.
    func messages(for key: ConversationKey, after cursor: MessageCursor, limit: Int) async throws -> [StoredMessage]
    /// The newest outbound number (``StoredConversation/lastOutbound``) of each of these conversations that is
    /// stored, for a node's delivery sweep (``ChatHub/sweepDeliveries()``): at most a few hundred keys a call.
    func lastOutbounds(of keys: [ConversationKey]) async throws -> [ConversationKey: Int]
    // MARK: Live agents

    /// Hands the conversation to live agents: it waits in their queue from `date`. Nothing changes when it is handed
    /// over already.
    /// - Returns: Whether this call queued it.
    func queueForAgents(_ key: ConversationKey, at date: Date) async throws -> Bool
    /// The conversations handed to live agents, oldest first.
    func agentQueue() async throws -> [QueuedConversation]
    /// Gives a conversation of the queue to `agent`: when it waits, or is that agent's (same name) already.
    /// - Throws: ``ParleyError/Code/agentNoSuchConversation`` when it is not handed over,
    ///   ``ParleyError/Code/agentConversationTaken`` when another agent has it.
    func assign(_ key: ConversationKey, to agent: AgentSession) async throws
    /// Puts the conversations of the agent named `name` back in the queue (the agent left).
    /// - Returns: Those conversations.
    func unassign(agentNamed name: String) async throws -> [ConversationKey]
    /// Takes the conversation out of the agents' hands (handed back, or ended by the user).
    /// - Returns: The hand-off it ended; nil when it was not handed over.
    func endHandOff(_ key: ConversationKey) async throws -> AgentHandOff?

    // MARK: Retention (ServerConfiguration.retention)

    /// Deletes every conversation whose last message, from either side, was stored before `cutoff` (a conversation
    /// without messages: created before it), with all its messages, in one step per conversation.
    /// - Returns: The conversations deleted, so that their users' attachments can go with them.
    func removeConversations(idleSince cutoff: Date) async throws -> [ConversationKey]

    /// Returns when the store can serve requests now and throws when it cannot (its database unreachable), for the
    /// server's `/health/ready`. The default returns: a file or memory the process holds does not go away.
    func checkReadiness() async throws
}

extension ConversationStore {
    /// ``answer(_:with:state:in:at:)``, with ``AnsweredInput/othersPending`` true.
    public func answerInput(
        _ sequence: Int, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> AnsweredInput {
        AnsweredInput(
            stored: try await answer(sequence, with: replies, state: state, in: conversation, at: date),
            othersPending: true)
    }

    /// The messages of a conversation after `cursor`, oldest first, all of them: for reads known to be short (a
    /// test's, the last few messages); a replay reads pages (``messages(for:after:limit:)``).
    public func messages(for key: ConversationKey, after cursor: MessageCursor) async throws -> [StoredMessage] {
        try await messages(for: key, after: cursor, limit: .max)
    }

    /// Reads each conversation on its own; a store of a cluster reads them together.
    public func lastOutbounds(of keys: [ConversationKey]) async throws -> [ConversationKey: Int] {
        var numbers: [ConversationKey: Int] = [:]
        for key in keys {
            numbers[key] = try await conversation(for: key).lastOutbound
        }
        return numbers
    }

    /// A store that does not implement retention refuses it: the server logs the refusal at each sweep instead of
    /// keeping conversations it was told to delete without a word.
    public func removeConversations(idleSince cutoff: Date) async throws -> [ConversationKey] {
        throw ParleyError(.internalError, "\(type(of: self)) does not delete conversations (retention)")
    }

    /// Ready: a store in the server's own file or memory is there as long as the process is.
    public func checkReadiness() async throws {}
}
