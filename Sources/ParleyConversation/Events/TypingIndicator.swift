public import ParleyCore

/// Who the client shows as typing (``ChatEvent/typingChanged(_:)``).
public enum TypingIndicator: Sendable, Hashable {
    /// The skill is working on the user's message (Oracle's "Responding…", `odais_typing_status`).
    case skill
    /// The live agent is typing (an agent's `status` `RESPONDING`), with the agent's details.
    case agent(AgentSession?)
}

extension MessageSource {
    /// Parley's own, never on the wire: a message the client made itself, such as a default response for a slow
    /// skill (`enableDefaultClientResponse`).
    public static let client: Self = "CLIENT"
}
