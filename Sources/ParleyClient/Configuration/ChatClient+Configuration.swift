public import Foundation

extension ChatClient {
    /// Everything a ``ChatClient`` needs: where the chat server is, who the user is, and the feature flags.
    ///
    /// The network properties and feature flags are those of Oracle's `BotsConfiguration`, with the defaults
    /// Oracle documents. Flags that only a user interface reads (avatars, colours, timestamps) are carried here
    /// for such an interface; the headless client ignores them. `docs/client.md` lists every flag, its
    /// default, where the default comes from and which issue implements the behaviour.
    ///
    /// ```swift
    /// var configuration = ChatClient.Configuration(url: serverURL, channelId: "demo", userId: "alice")
    /// configuration.initUserProfile = Profile(givenName: "Alice")
    /// configuration.initUserHiddenMessage = "hello"
    /// ```
    public struct Configuration: Sendable {
        // MARK: Network

        /// The chat server: `https://host`, `http://host:8080`, `wss://host` or `ws://host`. A path, if any, is
        /// kept as a prefix of `/chat/v1/...`.
        public var url: URL
        /// The channel to talk to. With a token, the token's `channelId` claim wins.
        public var channelId: String
        /// The user's id. A random `user-…` id when the app gives none; with a token, its `userId` claim wins.
        public var userId: String
        /// How the client proves who it is; `nil` for a channel without client authentication.
        public var tokenProvider: TokenProvider?
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
        public var tokenPresentation: TokenPresentation = .authFrame
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
        public var reconnect: ReconnectPolicy = ReconnectPolicy()
        /// The largest frame the client accepts from the server. Default 4 MiB.
        public var maxFrameSize: Int = 4 << 20
        /// A folder where the transcript, the outbox and the place in the conversation are kept between launches;
        /// `nil` keeps them in memory only.
        public var storageFolder: URL?
        /// How long before a token expires the client fetches a new one and presents it on the open socket.
        /// Default 60 s.
        public var tokenRefreshMargin: Duration = .seconds(60)
        /// How many times a message is written to a socket without an acknowledgement before it is marked failed.
        /// Default 10.
        public var maxSendAttempts = 10
        /// How long the client waits for a missing sequence number before it asks the server to replay. Default 1 s.
        public var sequenceGapTimeout: Duration = .seconds(1)

        // MARK: Feature flags (Oracle iOS SDK names and defaults)

        /// The asset name or URL of the agent's avatar. UI only.
        public var agentAvatar: String?
        /// The asset name or URL of the skill's avatar. UI only.
        public var botAvatar: String?
        /// The asset name or URL of the user's avatar. UI only.
        public var personAvatar: String?
        /// Which actions of messages the user already answered stay usable. Default ``DisablePastActions/all``.
        public var disablePastActions: DisablePastActions = .all
        /// Whether the user may send attachments. Default `true`; when `false`,
        /// ``ChatClient/sendAttachment(_:fileName:mimeType:progress:)`` fails.
        public var enableAttachment = true
        /// How many times an upload that failed on the network (or with a server error, 5xx, 408 or 429) is tried
        /// again, after 1 s, 2 s, 4 s… (30 s at most) on the client's clock. Default 5; 0 tries once. Parley's.
        public var uploadRetryLimit = 5
        /// Whether recognised speech is sent at once (`true`) or put in the input field first. Default `true`.
        /// Oracle's pages also call it `enableSpeechAutoSendSpeechResponse` and `enableSpeechRecognitionAutoSend`.
        public var enableAutoSendSpeechResponse = true
        /// Whether the UI offers a button that clears the transcript. Default `false`. UI only;
        /// ``ChatClient/clearMessages()`` works either way.
        public var enableClearMessage = false
        /// Whether the UI shows the microphone button. Default `false` (speech arrives with ParleySpeech).
        public var enableSpeechRecognition = false
        /// Whether skill responses are read aloud. Default `false`.
        public var enableSpeechSynthesis = false
        /// Whether messages show timestamps. Default `true`. UI only.
        public var enableTimestamp = true
        /// Absolute timestamps on every message, or one relative timestamp on the latest. Default absolute. UI only.
        public var timestampMode: TimestampMode = .absolute
        /// A `DateFormatter` pattern for absolute timestamps. Default `MMMM d, yyyy HH:mm`. UI only.
        public var timestampFormat = "MMMM d, yyyy HH:mm"
        /// Whether read-aloud starts muted. Default `true`.
        public var initSpeechSynthesisMuted = true
        /// A text sent when the conversation starts, never shown in the transcript.
        public var initUserHiddenMessage: String?
        /// A profile sent when the conversation starts, before ``initUserHiddenMessage``.
        public var initUserProfile: Profile?
        /// Which attachment kinds the user may pick, and their size limits. Default: every kind, 25 MiB.
        public var shareMenuConfiguration = ShareMenuConfiguration()
        /// Whether the UI shows the connection status. Default `false`. UI only; status events arrive either way.
        public var showConnectionStatus = false
        /// Whether the UI shows "Responding…" while waiting for the skill. Default `true`. UI only.
        public var showTypingStatus = true
        /// The locale of the user's speech. Default `en-us`.
        public var speechLocale = "en-us"
        /// Preferred voices for reading aloud, best first. Default none (the platform's default voice).
        public var speechSynthesisVoicePreferences: [VoicePreference] = []
        /// A replacement speech synthesiser (Oracle's `ttsService`); `nil` uses the platform's.
        public var ttsService: (any TTSService)?
        /// The chat's title. UI only.
        public var title: String?
        /// How long a typing indicator stays without a response. Default 20 s.
        public var typingStatusTimeout: Duration = .seconds(20)
        /// Whether the client answers for a slow skill with the `odais_default_*` messages. Default `false`.
        public var enableDefaultClientResponse = false
        /// How long the client waits for the skill before its default greeting. Default 5 s (Oracle Web SDK).
        public var defaultGreetingTimeout: Duration = .seconds(5)
        /// How often the client repeats its default wait message. Default 5 s (Oracle Web SDK).
        public var defaultWaitMessageInterval: Duration = .seconds(5)
        /// The texts of the default responses (`odais_default_greeting_message`, `odais_default_wait_message`,
        /// `odais_default_sorry_message`). Default: Oracle's English strings.
        public var defaultResponseStrings = DefaultResponseStrings()
        /// Whether the user may end the conversation (``ChatEvent/chatEnded``). Default `true` (Oracle Web SDK).
        public var enableEndConversation = true
        /// Whether the user's typing is sent to a live agent. Default `false`.
        public var enableSendTypingStatus = false
        /// How often typing is sent to the agent; at least 3 s. Default 3 s.
        public var typingStatusInterval: Duration = .seconds(3) {
            didSet { typingStatusInterval = max(typingStatusInterval, .seconds(3)) }
        }
        /// Whether the agent sees the text being typed (otherwise "…"). Default `false`.
        public var enableAgentSneakPreview = false
        /// The languages the user may choose and the one to start with; `nil` for no language menu.
        public var multiLangChat: MultiLangChat?

        /// Oracle's older name for ``enableSpeechSynthesis``.
        public var enableBotAudioResponse: Bool {
            get { enableSpeechSynthesis }
            set { enableSpeechSynthesis = newValue }
        }

        /// A configuration for a channel without client authentication.
        /// - Parameters:
        ///   - url: The chat server.
        ///   - channelId: The channel.
        ///   - userId: The user; a random `user-…` id when `nil`.
        public init(url: URL, channelId: String, userId: String? = nil) {
            self.url = url
            self.channelId = channelId
            self.userId = userId ?? Self.randomUserId()
        }

        /// A configuration for a channel with client authentication: the channel and user come from the
        /// token's claims, which the client reads each time it connects.
        /// - Parameters:
        ///   - url: The chat server.
        ///   - tokenProvider: Fetches a JWT from the app's backend; called before each connection.
        public init(url: URL, tokenProvider: @escaping TokenProvider) {
            self.url = url
            self.channelId = ""
            self.userId = ""
            self.tokenProvider = tokenProvider
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

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
