public import Foundation

extension ChatClient {
    /// Everything a ``ChatClient`` needs, in parts by concern: ``connection`` (where the chat server is, who the user
    /// is, timeouts and reconnection), ``screen`` (what a screen obeys: Oracle's user-interface flags and the
    /// default responses), ``speech``, and the conversation's own behaviour (storage, the init message, typing).
    ///
    /// The network properties and feature flags are those of Oracle's `BotsConfiguration`, with the defaults
    /// Oracle documents, and every one is also a property of the configuration itself under Oracle's flat name
    /// (`configuration.enableAttachment` is `configuration.screen.enableAttachment`), so that code written for
    /// Oracle's SDK reads the same. Flags that only a user interface reads (avatars, colours, timestamps) are
    /// carried for such an interface; the headless client ignores them. `docs/client.md` lists every flag, its
    /// default, where the default comes from and which issue implements the behaviour.
    ///
    /// ```swift
    /// var configuration = ChatClient.Configuration(url: serverURL, channelId: "demo", userId: "alice")
    /// configuration.initUserProfile = Profile(givenName: "Alice")
    /// configuration.initUserHiddenMessage = "hello"
    /// ```
    public struct Configuration: Sendable {
        /// Where the chat server is, who the user is, and how the connection is opened, kept and reopened.
        public var connection: Connection
        /// What a screen obeys: Oracle's user-interface flags and the default responses for a slow skill. A screen
        /// reads them as ``Conversation/screenOptions``.
        public var screen = ScreenOptions()
        /// Speech input and read-aloud: the locale, the voices, sending what was recognised.
        public var speech = Speech()

        // MARK: The conversation (the client's own behaviour)

        /// A folder where the transcript, the outbox and the place in the conversation are kept between launches;
        /// `nil` keeps them in memory only.
        public var storageFolder: URL?
        /// How many times an upload that failed on the network (or with a server error, 5xx, 408 or 429) is tried
        /// again, after 1 s, 2 s, 4 s… (30 s at most) on the client's clock. Default 5; 0 tries once. Parley's.
        public var uploadRetryLimit = 5
        /// A text sent when the conversation starts, never shown in the transcript.
        public var initUserHiddenMessage: String?
        /// A profile sent when the conversation starts, before ``initUserHiddenMessage``.
        public var initUserProfile: Profile?
        /// How long a typing indicator stays without a response. Default 20 s.
        public var typingStatusTimeout: Duration = .seconds(20)
        /// Whether the user's typing is sent to a live agent. Default `false`.
        public var enableSendTypingStatus = false
        /// How often typing is sent to the agent; at least 3 s. Default 3 s.
        public var typingStatusInterval: Duration = .seconds(3) {
            didSet { typingStatusInterval = max(typingStatusInterval, .seconds(3)) }
        }
        /// Whether the agent sees the text being typed (otherwise "…"). Default `false`.
        public var enableAgentSneakPreview = false

        /// A configuration for a channel without client authentication.
        /// - Parameters:
        ///   - url: The chat server.
        ///   - channelId: The channel.
        ///   - userId: The user; a random `user-…` id when `nil`.
        public init(url: URL, channelId: String, userId: String? = nil) {
            connection = Connection(url: url, channelId: channelId, userId: userId ?? Self.randomUserId())
        }

        /// A configuration for a channel with client authentication: the channel and user come from the
        /// token's claims, which the client reads each time it connects.
        /// - Parameters:
        ///   - url: The chat server.
        ///   - tokenProvider: Fetches a JWT from the app's backend; called before each connection.
        public init(url: URL, tokenProvider: @escaping TokenProvider) {
            connection = Connection(url: url, channelId: "", userId: "")
            connection.tokenProvider = tokenProvider
        }

        /// A random user id: `user-` and 128 bits from the system's cryptographic generator, as 32 hex digits.
        ///
        /// On a channel without client authentication the user id is the credential that reads the conversation,
        /// so it must not be guessable; Oracle's Web SDK shape (`user-<milliseconds>-<5 digits>`) has about 17 bits
        /// of chance in it.
        static func randomUserId() -> String {
            var generator = SystemRandomNumberGenerator()
            let halves: [UInt64] = [generator.next(), generator.next()]
            return "user-" + halves.map { String($0, radix: 16).leftPadded(to: 16) }.joined()
        }

        /// The chat socket's URL for a channel and user, with ``sessionSecret`` when there is one.
        func socketURL(channelId: String, userId: String) throws(ParleyError) -> URL {
            var query = [("channelId", channelId), ("userId", userId)]
            if let sessionSecret { query.append(("sessionSecret", sessionSecret)) }
            return try endpoint("chat/v1/chats/sockets/\(clientType)", websocket: true, query: query)
        }

        /// An endpoint of the chat server: `path` under the configured URL, with the scheme for HTTP or WebSocket.
        func endpoint(_ path: String, websocket: Bool, query: [(String, String)]) throws(ParleyError) -> URL {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                let scheme = components.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme)
            else {
                throw ParleyError(.invalidConfiguration, "the server URL \(url) is not http(s) or ws(s)")
            }
            let secure = scheme == "https" || scheme == "wss"
            components.scheme = websocket ? (secure ? "wss" : "ws") : (secure ? "https" : "http")
            let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            components.path = "\(prefix)/\(path)"
            components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
            guard let url = components.url else {
                throw ParleyError(.invalidConfiguration, "cannot build \(path) from \(self.url)")
            }
            return url
        }
    }

    /// Fetches a JWT for the chat server from the app's backend. Apps never hold the channel secret.
    public typealias TokenProvider = @Sendable () async throws -> String

    /// How a token travels to the chat socket.
    public enum TokenPresentation: Sendable, Hashable {
        /// `{"state":{"type":"auth","tokenType":"jwt","token":…}}` as the first frame (Oracle Web SDK). The server
        /// answers a bad token with an error payload and a close code that says why.
        case authFrame
        /// `Authorization: Bearer …` on the upgrade request (Oracle Android SDK). A bad token refuses the upgrade.
        case header
    }

    /// How the client reconnects after an open connection drops: exponential back-off with full jitter. Before
    /// attempt *n* the client waits a random time between zero and `min(maximumDelay, initialDelay × 2ⁿ⁻¹)`
    /// (with `jitter` off, exactly that bound), so that many clients dropped at once do not come back at once.
    public struct ReconnectPolicy: Sendable, Hashable {
        /// The bound before the first attempt. Default 1 s.
        public var initialDelay: Duration
        /// The largest bound. Default 30 s.
        public var maximumDelay: Duration
        /// Whether the wait is random below the bound (full jitter). Default `true`.
        public var jitter: Bool
        /// How many attempts in a row before the client gives up; `nil` never gives up. Default `nil`.
        public var maxAttempts: Int?

        /// A policy; the defaults suit a phone that loses its network for a while.
        public init(
            initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), jitter: Bool = true,
            maxAttempts: Int? = nil
        ) {
            self.initialDelay = initialDelay
            self.maximumDelay = max(maximumDelay, initialDelay)
            self.jitter = jitter
            self.maxAttempts = maxAttempts
        }

        /// Never reconnect.
        public static let never = ReconnectPolicy(initialDelay: .zero, maxAttempts: 0)

        /// The bound before attempt `attempt` (1-based).
        public func bound(beforeAttempt attempt: Int) -> Duration {
            var bound = initialDelay
            for _ in 1..<max(attempt, 1) {
                bound *= 2
                if bound >= maximumDelay { return maximumDelay }
            }
            return min(bound, maximumDelay)
        }

        /// The wait before attempt `attempt` (1-based), drawn from `random` when `jitter` is on.
        public func delay(beforeAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
            let bound = bound(beforeAttempt: attempt)
            guard jitter, bound > .zero else { return bound }
            let nanoseconds = bound.components.seconds * 1_000_000_000 + bound.components.attoseconds / 1_000_000_000
            return .nanoseconds(Int64.random(in: 0...nanoseconds, using: &random))
        }
    }
}

extension ChatClient.Configuration {
    /// Where the chat server is, who the user is, and how the connection is opened, kept and reopened.
    public struct Connection: Sendable {
        /// The chat server: `https://host`, `http://host:8080`, `wss://host` or `ws://host`. A path, if any, is
        /// kept as a prefix of `/chat/v1/...`.
        public var url: URL
        /// The channel to talk to. With a token, the token's `channelId` claim wins.
        public var channelId: String
        /// The user's id. A random `user-…` id when the app gives none; with a token, its `userId` claim wins.
        public var userId: String
        /// How the client proves who it is; `nil` for a channel without client authentication.
        public var tokenProvider: ChatClient.TokenProvider?
        /// The session secret a Parley server issued for ``userId`` (`POST /chat/v1/sessions?channelId=…&userId=…`),
        /// for a channel without client authentication that binds user ids to session secrets. Sent as the
        /// `sessionSecret` query parameter of the chat socket's URL. Default `nil`: Oracle's servers, and Parley
        /// channels without `sessionSecrets`, need none. Keep it as safely as a password: with the user id it reads
        /// the user's conversation.
        ///
        /// A secret lasts the channel's `sessionSecretLifetimeDays` (30 by default). When it ends the server closes the
        /// socket with 4009 `session.expired` (a final close: the client reports it and does not reconnect). The app
        /// renews it by the same `POST /chat/v1/sessions?channelId=…&userId=…`, with the old secret (expired or not)
        /// in the `X-Parley-Session-Secret` header, then connects again with the new secret: the user id, and its
        /// conversation, stay the same.
        public var sessionSecret: String?
        /// How a token travels to the chat socket. Default: the first frame, as Oracle's Web SDK sends it.
        public var tokenPresentation: ChatClient.TokenPresentation = .authFrame
        /// The socket path segment that names the SDK kind (`/chat/v1/chats/sockets/{client}`). Default `iossdk`.
        public var clientType: String = "iossdk"
        /// The SDK version sent as `sdkMetadata.version` with every user message.
        public var sdkVersion: String = ChatClient.version
        /// How often the client sends a JSON `ping` on an idle socket. Default 30 s (Oracle's Web SDK).
        public var heartbeatInterval: Duration = .seconds(30)
        /// How long the client waits for the `pong` before it treats the socket as dead. Default 10 s.
        public var pongTimeout: Duration = .seconds(10)
        /// How long opening a connection may take, from the socket to the server's answer to the handshake;
        /// an attempt that takes longer is abandoned (and, when reconnecting, tried again). Default 15 s.
        public var connectionTimeout: Duration = .seconds(15)
        /// How the client reconnects after a connection that was open drops.
        public var reconnect: ChatClient.ReconnectPolicy = ChatClient.ReconnectPolicy()
        /// The largest frame the client accepts from the server. Default 4 MiB.
        public var maxFrameSize: Int = 4 << 20
        /// How long before a token expires the client fetches a new one and presents it on the open socket.
        /// Default 60 s.
        public var tokenRefreshMargin: Duration = .seconds(60)
        /// How many times a message is written to a socket without an acknowledgement before it is marked failed.
        /// Default 10.
        public var maxSendAttempts = 10
        /// How long the client waits for a missing sequence number before it asks the server to replay. Default 1 s.
        public var sequenceGapTimeout: Duration = .seconds(1)

        /// Connection settings with the defaults above.
        /// - Parameters:
        ///   - url: The chat server.
        ///   - channelId: The channel.
        ///   - userId: The user.
        public init(url: URL, channelId: String, userId: String) {
            self.url = url
            self.channelId = channelId
            self.userId = userId
        }
    }

    /// Speech input and read-aloud settings (whether they are offered at all is a screen flag:
    /// ``ScreenOptions/enableSpeechRecognition`` and ``ScreenOptions/enableSpeechSynthesis``).
    public struct Speech: Sendable {
        /// Whether recognised speech is sent at once (`true`) or put in the input field first. Default `true`.
        /// Oracle's pages also call it `enableSpeechAutoSendSpeechResponse` and `enableSpeechRecognitionAutoSend`.
        public var enableAutoSendSpeechResponse = true
        /// Whether read-aloud starts muted. Default `true`.
        public var initSpeechSynthesisMuted = true
        /// The locale of the user's speech. Default `en-us`.
        public var speechLocale = "en-us"
        /// Preferred voices for reading aloud, best first. Default none (the platform's default voice).
        public var speechSynthesisVoicePreferences: [VoicePreference] = []
        /// A replacement speech synthesiser (Oracle's `ttsService`); `nil` uses the platform's.
        public var ttsService: (any TTSService)?

        /// Speech settings with Oracle's defaults.
        public init() {}
    }
}

// Oracle's flat names: each reads and writes one property of a part, so that code written for Oracle's
// `BotsConfiguration` (`configuration.enableAttachment = false`) reads the same.
extension ChatClient.Configuration {
    /// Oracle's flat name for `connection.url`.
    public var url: URL {
        get { connection.url }
        set { connection.url = newValue }
    }

    /// Oracle's flat name for `connection.channelId`.
    public var channelId: String {
        get { connection.channelId }
        set { connection.channelId = newValue }
    }

    /// Oracle's flat name for `connection.userId`.
    public var userId: String {
        get { connection.userId }
        set { connection.userId = newValue }
    }

    /// Oracle's flat name for `connection.tokenProvider`.
    public var tokenProvider: ChatClient.TokenProvider? {
        get { connection.tokenProvider }
        set { connection.tokenProvider = newValue }
    }

    /// Oracle's flat name for `connection.sessionSecret`.
    public var sessionSecret: String? {
        get { connection.sessionSecret }
        set { connection.sessionSecret = newValue }
    }

    /// Oracle's flat name for `connection.tokenPresentation`.
    public var tokenPresentation: ChatClient.TokenPresentation {
        get { connection.tokenPresentation }
        set { connection.tokenPresentation = newValue }
    }

    /// Oracle's flat name for `connection.clientType`.
    public var clientType: String {
        get { connection.clientType }
        set { connection.clientType = newValue }
    }

    /// Oracle's flat name for `connection.sdkVersion`.
    public var sdkVersion: String {
        get { connection.sdkVersion }
        set { connection.sdkVersion = newValue }
    }

    /// Oracle's flat name for `connection.heartbeatInterval`.
    public var heartbeatInterval: Duration {
        get { connection.heartbeatInterval }
        set { connection.heartbeatInterval = newValue }
    }

    /// Oracle's flat name for `connection.pongTimeout`.
    public var pongTimeout: Duration {
        get { connection.pongTimeout }
        set { connection.pongTimeout = newValue }
    }

    /// Oracle's flat name for `connection.connectionTimeout`.
    public var connectionTimeout: Duration {
        get { connection.connectionTimeout }
        set { connection.connectionTimeout = newValue }
    }

    /// Oracle's flat name for `connection.reconnect`.
    public var reconnect: ChatClient.ReconnectPolicy {
        get { connection.reconnect }
        set { connection.reconnect = newValue }
    }

    /// Oracle's flat name for `connection.maxFrameSize`.
    public var maxFrameSize: Int {
        get { connection.maxFrameSize }
        set { connection.maxFrameSize = newValue }
    }

    /// Oracle's flat name for `connection.tokenRefreshMargin`.
    public var tokenRefreshMargin: Duration {
        get { connection.tokenRefreshMargin }
        set { connection.tokenRefreshMargin = newValue }
    }

    /// Oracle's flat name for `connection.maxSendAttempts`.
    public var maxSendAttempts: Int {
        get { connection.maxSendAttempts }
        set { connection.maxSendAttempts = newValue }
    }

    /// Oracle's flat name for `connection.sequenceGapTimeout`.
    public var sequenceGapTimeout: Duration {
        get { connection.sequenceGapTimeout }
        set { connection.sequenceGapTimeout = newValue }
    }

    /// Oracle's flat name for `screen.agentAvatar`.
    public var agentAvatar: String? {
        get { screen.agentAvatar }
        set { screen.agentAvatar = newValue }
    }

    /// Oracle's flat name for `screen.botAvatar`.
    public var botAvatar: String? {
        get { screen.botAvatar }
        set { screen.botAvatar = newValue }
    }

    /// Oracle's flat name for `screen.personAvatar`.
    public var personAvatar: String? {
        get { screen.personAvatar }
        set { screen.personAvatar = newValue }
    }

    /// Oracle's flat name for `screen.disablePastActions`.
    public var disablePastActions: DisablePastActions {
        get { screen.disablePastActions }
        set { screen.disablePastActions = newValue }
    }

    /// Oracle's flat name for `screen.enableAttachment`.
    public var enableAttachment: Bool {
        get { screen.enableAttachment }
        set { screen.enableAttachment = newValue }
    }

    /// Oracle's flat name for `screen.enableClearMessage`.
    public var enableClearMessage: Bool {
        get { screen.enableClearMessage }
        set { screen.enableClearMessage = newValue }
    }

    /// Oracle's flat name for `screen.enableSpeechRecognition`.
    public var enableSpeechRecognition: Bool {
        get { screen.enableSpeechRecognition }
        set { screen.enableSpeechRecognition = newValue }
    }

    /// Oracle's flat name for `screen.enableSpeechSynthesis`.
    public var enableSpeechSynthesis: Bool {
        get { screen.enableSpeechSynthesis }
        set { screen.enableSpeechSynthesis = newValue }
    }

    /// Oracle's flat name for `screen.enableTimestamp`.
    public var enableTimestamp: Bool {
        get { screen.enableTimestamp }
        set { screen.enableTimestamp = newValue }
    }

    /// Oracle's flat name for `screen.timestampMode`.
    public var timestampMode: TimestampMode {
        get { screen.timestampMode }
        set { screen.timestampMode = newValue }
    }

    /// Oracle's flat name for `screen.timestampFormat`.
    public var timestampFormat: String {
        get { screen.timestampFormat }
        set { screen.timestampFormat = newValue }
    }

    /// Oracle's flat name for `screen.shareMenuConfiguration`.
    public var shareMenuConfiguration: ShareMenuConfiguration {
        get { screen.shareMenuConfiguration }
        set { screen.shareMenuConfiguration = newValue }
    }

    /// Oracle's flat name for `screen.showConnectionStatus`.
    public var showConnectionStatus: Bool {
        get { screen.showConnectionStatus }
        set { screen.showConnectionStatus = newValue }
    }

    /// Oracle's flat name for `screen.showTypingStatus`.
    public var showTypingStatus: Bool {
        get { screen.showTypingStatus }
        set { screen.showTypingStatus = newValue }
    }

    /// Oracle's flat name for `screen.title`.
    public var title: String? {
        get { screen.title }
        set { screen.title = newValue }
    }

    /// Oracle's flat name for `screen.enableDefaultClientResponse`.
    public var enableDefaultClientResponse: Bool {
        get { screen.enableDefaultClientResponse }
        set { screen.enableDefaultClientResponse = newValue }
    }

    /// Oracle's flat name for `screen.defaultGreetingTimeout`.
    public var defaultGreetingTimeout: Duration {
        get { screen.defaultGreetingTimeout }
        set { screen.defaultGreetingTimeout = newValue }
    }

    /// Oracle's flat name for `screen.defaultWaitMessageInterval`.
    public var defaultWaitMessageInterval: Duration {
        get { screen.defaultWaitMessageInterval }
        set { screen.defaultWaitMessageInterval = newValue }
    }

    /// Oracle's flat name for `screen.defaultResponseStrings`.
    public var defaultResponseStrings: DefaultResponseStrings {
        get { screen.defaultResponseStrings }
        set { screen.defaultResponseStrings = newValue }
    }

    /// Oracle's flat name for `screen.enableEndConversation`.
    public var enableEndConversation: Bool {
        get { screen.enableEndConversation }
        set { screen.enableEndConversation = newValue }
    }

    /// Oracle's flat name for `screen.multiLangChat`.
    public var multiLangChat: MultiLangChat? {
        get { screen.multiLangChat }
        set { screen.multiLangChat = newValue }
    }

    /// Oracle's flat name for `screen.enableBotAudioResponse`.
    public var enableBotAudioResponse: Bool {
        get { screen.enableBotAudioResponse }
        set { screen.enableBotAudioResponse = newValue }
    }

    /// Oracle's flat name for `speech.enableAutoSendSpeechResponse`.
    public var enableAutoSendSpeechResponse: Bool {
        get { speech.enableAutoSendSpeechResponse }
        set { speech.enableAutoSendSpeechResponse = newValue }
    }

    /// Oracle's flat name for `speech.initSpeechSynthesisMuted`.
    public var initSpeechSynthesisMuted: Bool {
        get { speech.initSpeechSynthesisMuted }
        set { speech.initSpeechSynthesisMuted = newValue }
    }

    /// Oracle's flat name for `speech.speechLocale`.
    public var speechLocale: String {
        get { speech.speechLocale }
        set { speech.speechLocale = newValue }
    }

    /// Oracle's flat name for `speech.speechSynthesisVoicePreferences`.
    public var speechSynthesisVoicePreferences: [VoicePreference] {
        get { speech.speechSynthesisVoicePreferences }
        set { speech.speechSynthesisVoicePreferences = newValue }
    }

    /// Oracle's flat name for `speech.ttsService`.
    public var ttsService: (any TTSService)? {
        get { speech.ttsService }
        set { speech.ttsService = newValue }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
