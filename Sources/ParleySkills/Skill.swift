/// What a skill sees of one incoming user event.
public enum SkillInput: Sendable, Hashable {
    /// A conversation message: text, postback, location, attachment, form submission, `closeSession`, ….
    case message(MessagePayload)
    /// A profile update (`initUserProfile`), usually sent before the first message; skills store it and do
    /// not reply.
    case profile(Profile)
}

/// A skill: given an input and the conversation state, returns the replies in order and updates the state.
///
/// The server keeps one ``ConversationState`` per conversation, passes it to every call and stores it
/// (as JSON) afterwards, so a skill itself holds no per-conversation data and survives restarts.
///
/// ```swift
/// var state = ConversationState()
/// let replies = try await ScriptedSkill.pizzaDemo.respond(to: .message(.text("hi")), state: &state)
/// ```
///
/// A skill that throws leaves `state` as it was; the server answers the user with an error payload
/// (``MessagePayload/error(_:)``) and the conversation goes on.
public protocol Skill: Sendable {
    /// Answers one input.
    /// - Parameters:
    ///   - input: The user's message or profile update.
    ///   - state: The conversation's state, updated in place.
    /// - Returns: The replies, in the order the user should see them; empty only for inputs that need no answer.
    /// - Throws: An error when the skill cannot answer at all; ``ScriptedSkill`` throws ``ParleyError`` with
    ///   code ``ParleyError/Code/skillFailed``.
    func respond(to input: SkillInput, state: inout ConversationState) async throws -> [MessagePayload]
}
