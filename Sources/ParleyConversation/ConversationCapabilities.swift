/// What a ``Conversation``'s backend can do beyond sending and receiving text.
public struct ConversationCapabilities: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: Int
    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Payloads other than text: postbacks, locations, form submissions, events.
    public static let richMessages = Self(rawValue: 1 << 0)
    /// File uploads.
    public static let attachments = Self(rawValue: 1 << 1)
    /// Telling the other side that the user types.
    public static let typingStatus = Self(rawValue: 1 << 2)
    /// Choosing the chat language.
    public static let languages = Self(rawValue: 1 << 3)
    /// Ending the conversation from the app.
    public static let endConversation = Self(rawValue: 1 << 4)
    /// Speech recognition and synthesis through the backend's speech service.
    public static let speech = Self(rawValue: 1 << 5)
    /// The transcript survives the app's restart.
    public static let durableHistory = Self(rawValue: 1 << 6)

    /// Everything Oracle's protocol offers.
    public static let all: Self = [
        .richMessages, .attachments, .typingStatus, .languages, .endConversation, .speech, .durableHistory,
    ]
}
