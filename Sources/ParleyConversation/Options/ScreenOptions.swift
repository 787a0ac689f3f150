/// What a chat screen obeys, whatever the backend: the user-interface flags of Oracle's `BotsConfiguration`, with
/// the names and defaults Oracle documents, and the default responses for a slow skill.
///
/// A ``Conversation`` exposes its options as ``Conversation/screenOptions``, with the flags it cannot honour
/// switched off (a Genesys chat takes no attachments and has no languages). `ChatClient.Configuration` keeps them
/// as its `screen` part and forwards every flag under Oracle's flat name, so that the seed's code
/// (`configuration.enableAttachment = false`) reads the same.
///
/// ```swift
/// var options = ScreenOptions()
/// options.title = "Support"
/// options.enableClearMessage = true
/// options.timestampMode = .relative
/// ```
///
/// The visual settings an app chooses for itself (theme, strings, locale, link handling) are ParleyUI's
/// `ChatViewModel.Configuration`: a backend never changes them.
public struct ScreenOptions: Sendable, Hashable {
    /// The chat's title. Default `nil`.
    public var title: String?
    /// The asset name or URL of the agent's avatar.
    public var agentAvatar: String?
    /// The asset name or URL of the skill's avatar.
    public var botAvatar: String?
    /// The asset name or URL of the user's avatar.
    public var personAvatar: String?
    /// Which actions of messages the user already answered stay usable. Default ``DisablePastActions/all``.
    public var disablePastActions: DisablePastActions = .all
    /// Whether the user may send attachments. Default `true`; when `false` the screen offers no attach button and
    /// a backend refuses files.
    public var enableAttachment = true
    /// Which attachment kinds the user may pick, and their size limits. Default: every kind, 25 MiB.
    public var shareMenuConfiguration = ShareMenuConfiguration()
    /// Whether the screen offers a button that clears the transcript. Default `false`.
    public var enableClearMessage = false
    /// Whether the user may end the conversation. Default `true` (Oracle Web SDK).
    public var enableEndConversation = true
    /// Whether the screen shows the microphone button (speech input). Default `false`.
    public var enableSpeechRecognition = false
    /// Whether skill responses are read aloud, and the screen shows the mute button. Default `false`.
    public var enableSpeechSynthesis = false
    /// Whether messages show timestamps. Default `true`.
    public var enableTimestamp = true
    /// Absolute timestamps on every message, or one relative timestamp on the latest. Default absolute.
    public var timestampMode: TimestampMode = .absolute
    /// A `DateFormatter` pattern for absolute timestamps. Default `MMMM d, yyyy HH:mm`.
    public var timestampFormat = "MMMM d, yyyy HH:mm"
    /// Whether the screen shows the connection status. Default `false`; status updates arrive either way.
    public var showConnectionStatus = false
    /// Whether the screen shows "Responding…" while waiting for the skill. Default `true`.
    public var showTypingStatus = true
    /// The languages the user may choose and the one to start with; `nil` for no language menu.
    public var multiLangChat: MultiLangChat?

    // MARK: Default responses

    /// Whether the backend answers for a slow skill with the `odais_default_*` messages. Default `false`.
    public var enableDefaultClientResponse = false
    /// How long the backend waits for the skill before its default greeting. Default 5 s (Oracle Web SDK).
    public var defaultGreetingTimeout: Duration = .seconds(5)
    /// How often the backend repeats its default wait message. Default 5 s (Oracle Web SDK).
    public var defaultWaitMessageInterval: Duration = .seconds(5)
    /// The texts of the default responses (`odais_default_greeting_message`, `odais_default_wait_message`,
    /// `odais_default_sorry_message`). Default: Oracle's English strings.
    public var defaultResponseStrings = DefaultResponseStrings()

    /// Options with Oracle's defaults.
    public init() {}

    /// Oracle's older name for ``enableSpeechSynthesis``.
    public var enableBotAudioResponse: Bool {
        get { enableSpeechSynthesis }
        set { enableSpeechSynthesis = newValue }
    }
}
