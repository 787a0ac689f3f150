/// One event of an answer that arrives in pieces (``StreamingSkill``).
public enum SkillStreamEvent: Sendable, Hashable {
    /// A piece of text appended to the answer's text. Pieces are never empty.
    case text(String)
    /// The whole response: the last event of a stream. Its first message is the answer whose text was streamed
    /// (the concatenation of the ``text(_:)`` pieces, or a payload that replaces it, such as an `error`).
    case response(SkillResponse)
}

/// A skill whose answer can be shown while it is written, such as a language model's.
///
/// ``stream(_:in:)`` yields ``SkillStreamEvent/text(_:)`` pieces, then exactly one
/// ``SkillStreamEvent/response(_:)``, and finishes. A server that streams (Parley's sends `textStream` frames, one
/// stream per answer) shows the pieces as they come and stores the final response; every other caller uses
/// ``Skill/respond(to:in:)``, which by default collects the stream.
///
/// Cancelling the task that iterates the stream (or dropping the stream) cancels the skill's work, its request
/// to a model too.
public protocol StreamingSkill: Skill {
    /// Answers one input in pieces.
    /// - Parameters:
    ///   - input: The user's message or profile update.
    ///   - context: The conversation the input belongs to, with its state and history.
    /// - Returns: The pieces, then the whole response; the stream throws when the skill cannot answer at all.
    func stream(_ input: SkillInput, in context: SkillContext) -> AsyncThrowingStream<SkillStreamEvent, any Error>
}

extension StreamingSkill {
    /// Collects ``stream(_:in:)``: the response it ends with.
    /// - Throws: What the stream throws; ``ParleyError`` with code ``ParleyError/Code/skillFailed`` when it ends
    ///   without a response.
    public func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse {
        for try await event in stream(input, in: context) {
            if case .response(let response) = event { return response }
        }
        try Task.checkCancellation()
        throw ParleyError(.skillFailed, "the skill's stream ended without a response")
    }
}

/// One earlier message of a conversation, as a skill reads it (``ConversationHistory``).
public struct HistoryMessage: Sendable, Hashable {
    /// Who wrote a message.
    public struct Author: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        /// The name, such as `user`.
        public var rawValue: String
        /// Creates an author from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates an author from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The user.
        public static let user: Self = "user"
        /// The skill (the bot).
        public static let skill: Self = "skill"
        /// A live agent.
        public static let agent: Self = "agent"
    }

    /// Who wrote it.
    public var author: Author
    /// What was said.
    public var payload: MessagePayload
    /// Its number in the conversation (both directions count), from 1.
    public var sequence: Int

    /// Creates a history message.
    public init(author: Author, payload: MessagePayload, sequence: Int) {
        self.author = author
        self.payload = payload
        self.sequence = sequence
    }
}

/// Where a skill reads the conversation's earlier messages: the server reads them from its store, so a skill sees
/// the same history on every node of a cluster and after a restart.
public protocol ConversationHistory: Sendable {
    /// The conversation's most recent messages before the input being answered, oldest first, at most `limit`.
    func recentMessages(limit: Int) async throws -> [HistoryMessage]
}

/// No history: what a context has unless its creator gives one.
public struct EmptyConversationHistory: ConversationHistory {
    /// Creates an empty history.
    public init() {}
    /// Always empty.
    public func recentMessages(limit: Int) async throws -> [HistoryMessage] { [] }
}

/// A history held in memory, for tests and for callers that keep the conversation themselves.
public struct InMemoryConversationHistory: ConversationHistory {
    /// The messages, oldest first.
    public var messages: [HistoryMessage]
    /// Creates a history of `messages`, oldest first.
    public init(_ messages: [HistoryMessage]) { self.messages = messages }
    /// The last `limit` messages.
    public func recentMessages(limit: Int) async throws -> [HistoryMessage] { Array(messages.suffix(max(0, limit))) }
}

extension ConversationHistory where Self == EmptyConversationHistory {
    /// No history.
    public static var none: EmptyConversationHistory { EmptyConversationHistory() }
}
