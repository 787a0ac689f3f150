public import Foundation

/// What a skill sees of one incoming user event.
public enum SkillInput: Sendable, Hashable {
    /// A conversation message: text, postback, location, attachment, form submission, `closeSession`, ….
    case message(MessagePayload)
    /// A profile update (`initUserProfile`), usually sent before the first message; skills store it and do
    /// not reply.
    case profile(Profile)
}

/// A skill: given an input and its context (who, where, the conversation's state), returns a typed response.
///
/// The server keeps one ``ConversationState`` per conversation, hands it to every call in ``SkillContext/state``
/// and stores what ``SkillResponse/state`` gives back, so a skill itself holds no per-conversation data and
/// survives restarts.
///
/// ```swift
/// let context = SkillContext(channelId: "web", userId: "ada")
/// let response = try await ScriptedSkill.pizzaDemo().respond(to: .message(.text("hi")), in: context)
/// ```
///
/// A skill that throws changes nothing; the server answers the user with an error payload
/// (``MessagePayload/error(_:)``) and the conversation goes on.
public protocol Skill: Sendable {
    /// Answers one input.
    /// - Parameters:
    ///   - input: The user's message or profile update.
    ///   - context: The conversation the input belongs to, with its state.
    /// - Returns: The replies and what the server does next.
    /// - Throws: An error when the skill cannot answer at all; ``ScriptedSkill`` throws ``ParleyError`` with
    ///   code ``ParleyError/Code/skillFailed``.
    func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse
}

/// What a skill is told about the input it answers, like Hummingbird's request context: who sent it, on which
/// channel, in which turn of which conversation, and the conversation's stored state.
public struct SkillContext: Sendable {
    /// The channel the user writes on.
    public var channelId: String
    /// The user.
    public var userId: String
    /// The turn: which stored input is answered.
    public var turn: Turn
    /// The conversation's state as stored (``ConversationState/state``, variables, profile).
    public var state: ConversationState
    /// When the turn started, by the server's clock.
    public var now: Date
    /// The server's clock, for a skill that waits (injected in tests).
    public var clock: any Clock<Duration>
    /// The conversation's earlier messages, read from the server's store (``ConversationHistory``); empty unless
    /// the creator of the context gives them.
    public var history: any ConversationHistory

    /// One turn of a conversation: the stored input being answered.
    public struct Turn: Sendable, Hashable {
        /// The server's id of the input, `channelId/userId/sequence`: unique, and the same when an input is
        /// answered again after a crash.
        public var messageId: String
        /// The input's number in the conversation (both directions count), from 1.
        public var sequence: Int
        /// The client's idempotency key, when it gave one.
        public var clientMessageId: String?

        /// Creates a turn.
        public init(messageId: String, sequence: Int, clientMessageId: String? = nil) {
            self.messageId = messageId
            self.sequence = sequence
            self.clientMessageId = clientMessageId
        }
    }

    /// Creates a context.
    /// - Parameters:
    ///   - channelId: The channel.
    ///   - userId: The user.
    ///   - turn: The turn; by default the first input of the conversation.
    ///   - state: The conversation's state; by default a conversation that has not started.
    ///   - now: When the turn started.
    ///   - clock: The clock.
    ///   - history: The conversation's earlier messages; by default none.
    public init(
        channelId: String, userId: String, turn: Turn? = nil, state: ConversationState = ConversationState(),
        now: Date = Date(), clock: any Clock<Duration> = ContinuousClock(),
        history: any ConversationHistory = EmptyConversationHistory()
    ) {
        self.channelId = channelId
        self.userId = userId
        self.turn = turn ?? Turn(messageId: "\(channelId)/\(userId)/1", sequence: 1)
        self.state = state
        self.now = now
        self.clock = clock
        self.history = history
    }

    /// Takes a response's state for the next turn, as the server does between two inputs.
    public mutating func apply(_ response: SkillResponse) {
        state = response.state(after: state)
    }

    /// The user's profile, from the last profile update.
    public var profile: Profile? { state.profile }

    /// The user's language: the profile's `languageTag`, else its `locale`; nil when the profile says neither.
    public var language: String? { state.profile?.languageTag ?? state.profile?.locale }
}

/// What a skill answers: the replies, and what the server does after sending them.
public struct SkillResponse: Sendable, Hashable {
    /// The replies, in the order the user should see them; empty only for inputs that need no answer.
    public var messages: [MessagePayload]
    /// The conversation's new state; nil keeps the state as it was.
    public var state: ConversationState?
    /// Hand the conversation to a live agent after the replies: the server queues it for the agents, and the
    /// user's next inputs go to the agent who takes it.
    public var handOff: Bool
    /// The conversation ends after the replies: the server forgets its state and variables (keeping the profile
    /// and the members it does not know), so that the next input starts over.
    public var endsConversation: Bool

    /// Creates a response.
    public init(
        messages: [MessagePayload], state: ConversationState? = nil, handOff: Bool = false,
        endsConversation: Bool = false
    ) {
        self.messages = messages
        self.state = state
        self.handOff = handOff
        self.endsConversation = endsConversation
    }

    /// The conversation's state after this response, starting from `state`: the response's state, or `state`;
    /// when the conversation ends, without its state and variables.
    public func state(after state: ConversationState) -> ConversationState {
        let next = self.state ?? state
        return endsConversation ? ConversationState(profile: next.profile, extra: next.extra) : next
    }
}
