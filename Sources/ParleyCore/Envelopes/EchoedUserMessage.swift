// Parley's fan-out of a user's own messages to the user's other sockets (docs/protocol.md §13.6).

extension StateType {
    /// A message the user sent from another socket (server → client), §13.6.
    public static let userMessage: Self = "userMessage"
}

extension Capability {
    /// What the user sends on one socket reaches the user's other sockets with Parley's extension as a
    /// `userMessage` state frame (``EchoedUserMessage``).
    public static let userMessages: Self = "userMessages"
}

/// Server → client: a message the same user sent on another socket (a second tab or device), stored as the input
/// `sequence` of the conversation, for the client to show as the user's own.
///
/// ```json
/// {"state": {"type": "userMessage", "sequence": 42,
///            "message": {"messagePayload": {…}, "userId": "ann", "clientMessageId": "…"}}}
/// ```
///
/// A state frame, not a `messagePayload` frame: clients that go by `source` (Oracle's) would show a message frame
/// as the skill's. It goes only to sockets with Parley's extension, never to the socket the message came from.
/// `sequence` is the acknowledgement's number (the stored history's, §13.2), not a §13.3 `sequence`.
public struct EchoedUserMessage: Sendable, Hashable {
    /// The input's place in the conversation's stored history (its acknowledgement's `sequence`).
    public var sequence: Int
    /// The message as the user sent it, with its `clientMessageId` when it had one.
    public var message: UserMessage

    /// A frame's content.
    public init(sequence: Int, message: UserMessage) {
        self.sequence = sequence
        self.message = message
    }

    /// Reads a `userMessage` state frame; `nil` for another frame, or one whose message does not decode.
    public init?(_ state: StateFrame) {
        guard state.type == .userMessage, let sequence = state.extra["sequence"]?.intValue,
            let json = state.extra["message"], let message = try? UserMessage(json: json)
        else { return nil }
        self.sequence = sequence
        self.message = message
    }

    /// The frame.
    public var stateFrame: StateFrame {
        StateFrame(type: .userMessage, extra: ["sequence": .number(Double(sequence)), "message": message.jsonValue])
    }
}
