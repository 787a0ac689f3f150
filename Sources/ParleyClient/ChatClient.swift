public import Logging

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// A headless chat client for a Parley or Oracle Digital Assistant chat server: what Oracle's iOS SDK calls
/// `BotsManager`, as an actor with `async` calls and an ``events()`` sequence.
///
/// ```swift
/// let client = ChatClient(configuration: .init(url: serverURL, channelId: "demo"))
/// let events = await client.events()
/// try await client.initialize()                 // connects
/// try await client.send(text: "Order pizza")
/// for await event in events {
///     if case .messageReceived(let message) = event { print(message.payload.text ?? "") }
/// }
/// ```
///
/// Lifecycle: ``initialize()`` loads the transcript and connects; ``disconnect()`` and ``connect()`` close and
/// reopen the socket; ``connect(_:)`` switches to another channel or user; ``destroy()`` closes everything, and
/// every call then fails with ``ParleyError/Code/clientDestroyed`` until ``initialize()`` is called again.
public actor ChatClient {
    /// Parley's client version, sent as `sdkMetadata.version`.
    public static let version = "0.1.0"

    /// The configuration in use.
    public internal(set) var configuration: Configuration {
        didSet { connectionMachine.configuration = .init(configuration) }
    }
    /// The connection status.
    public var status: ConnectionStatus { connectionMachine.status }

    let transport: any ChatTransport
    let clock: any Clock<Duration>
    /// Where the client reports what it cannot show as an event: records of the storage folder it could not read
    /// (kept aside, never deleted), failures it recovered from.
    let logger: Logger
    let uploader: AttachmentUploader
    var hooks: Hooks
    weak var listener: (any ChatEventListener)?

    enum Lifecycle { case created, initialized, destroyed }
    var lifecycle = Lifecycle.created
    var transcript = TranscriptStore()
    var subscribers: [UUID: AsyncStream<ChatEvent>.Continuation] = [:]
    var listenerQueue: AsyncStream<ChatEvent>.Continuation?

    // Connection state (see ChatClient+Connection.swift and Connection/).
    /// Who the socket is for: from the configuration, or from the token's claims.
    var identity: (channelId: String, userId: String)
    /// The connection's lifecycle: what is wanted, what is open, what to retry. The actor feeds it events and
    /// performs its actions.
    var connectionMachine: ConnectionStateMachine
    /// The machine's one timer (opening deadline, retry delay, heartbeat or pong deadline).
    var lifecycleTimer: Task<Void, Never>?
    /// The current socket, once open.
    var connection: TransportConnection?
    /// The current attempt: preparing, then running the socket.
    var connectionTask: Task<Void, Never>?
    /// The token and URL of the current attempt.
    var preparedSocket: (url: URL, token: String?)?
    /// Callers of ``connect()`` waiting for the outcome of their attempt, by attempt id.
    var connectWaiters: [Int: CheckedContinuation<Result<Void, ParleyError>, Never>] = [:]
    /// Outcomes that came before their caller waited for them, by attempt id.
    var connectOutcomes: [Int: Result<Void, ParleyError>] = [:]
    /// The token in hand and its claims.
    var token: (value: String, claims: TokenClaims)?
    /// The provider call in flight: concurrent needs for a token share it.
    var tokenFetch: Task<String, any Error>?
    var tokenRefreshTask: Task<Void, Never>?
    /// Waits out a `server.rateLimited` acknowledgement before the outbox is written again.
    var rateLimitTask: Task<Void, Never>?

    // Delivery state (see Reliability/).
    /// What waits to be delivered, and the place in the conversation.
    var outbox = Outbox()
    /// Puts sequenced messages in order.
    var sequencer = InboundSequencer(lastSequence: 0)
    /// What the server offered on the current connection (empty for a server without Parley's extension).
    var serverCapabilities: Set<Capability> = []
    /// The server's frame limit, if it said.
    var serverMaxFrameSize: Int?
    var gapTask: Task<Void, Never>?
    /// `msgId`s of recent messages without sequence numbers, to drop repeats.
    var recentMessageIds: [String] = []
    var pumping = false
    /// Callers waiting for an outbox item to be delivered, by its id.
    var deliveryWaiters: [String: CheckedContinuation<Void, Never>] = [:]
    /// Whether ``endChat()`` waits for the skill's answer to `closeSession`.
    var endingTurn = false
    /// Whether ``endChat()`` is running (it reports ``ChatEvent/chatEnded`` itself, once).
    var endingChat = false
    /// The chat language; `nil` lets the skill detect it (see Conversation/ChatClient+Language.swift).
    var language: String?
    // Uploads (see Attachments/ChatClient+Uploads.swift).
    /// The uploads not finished, kept until the server has them.
    var uploadStore = UploadStore()
    /// Where each unfinished upload is.
    var uploadStates: [String: Upload] = [:]
    /// The running uploads.
    var uploadTasks: [String: Task<Result<ChatMessage?, ParleyError>, Never>] = [:]
    /// Uploads stopped by ``destroy()``: kept for the next ``initialize()``.
    var suspendedUploads: Set<String> = []
    // Typing, waiting for replies and the live agent (see Conversation/ChatClient+Typing.swift).
    var typing: TypingIndicator?
    var typingTimer: Task<Void, Never>?
    /// Counts the waits for a reply; a default response belongs to the wait it was planned in.
    var replyWait = 0
    var defaultResponseTask: Task<Void, Never>?
    /// Whether a live agent has the conversation: the latest message from the other side came from an agent.
    var agentActive = false
    /// The agent as the server last described them.
    var agentFromServer: AgentSession?
    /// What the app set with ``setAgentDetails(_:)``.
    var agentOverride: AgentSession?
    /// The user's latest draft while typing to an agent; `nil` when not typing.
    var typingDraft: String?
    /// Holds `RESPONDING` notices back for `typingStatusInterval`.
    var typingThrottle: Task<Void, Never>?
    // Speech input and read-aloud (see Speech/ChatClient+Speech.swift).
    let speechSetup: SpeechSetup
    var speech = SpeechState()

    /// A client. It does nothing until ``initialize()``.
    /// - Parameters:
    ///   - configuration: Server, channel, user and feature flags.
    ///   - transport: How to reach the server; default ``WebSocketTransport``.
    ///   - clock: The clock for heartbeats, reconnect delays and token refreshes (inject a test clock, such as
    ///     ``VirtualClock``, to run them without waiting).
    ///   - random: The random source of the reconnect jitter (inject a seeded one for repeatable tests).
    ///   - urlSession: The session for attachment uploads.
    ///   - hooks: ``Hooks`` that see, change or drop messages.
    ///   - speech: The speech engines and devices (default: the chat server's speech endpoints, the platform's
    ///     microphone and speaker).
    ///   - logger: Where the client logs (swift-log), as the server takes one; by default `parley.client` on the
    ///     backend the app bootstrapped.
    public init(
        configuration: Configuration, transport: (any ChatTransport)? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(), urlSession: URLSession = .shared,
        hooks: Hooks = Hooks(), speech: SpeechSetup = SpeechSetup(), logger: Logger = Logger(label: "parley.client")
    ) {
        self.logger = logger
        self.speechSetup = speech
        self.configuration = configuration
        self.transport = transport ?? WebSocketTransport(maxFrameSize: configuration.maxFrameSize)
        self.clock = clock
        self.connectionMachine = ConnectionStateMachine(configuration: .init(configuration), random: random)
        self.uploader = AttachmentUploader(session: urlSession)
        self.hooks = hooks
        self.identity = (configuration.channelId, configuration.userId)
    }

    // MARK: Lifecycle

    /// Loads the transcript, reports ``ChatEvent/initialized`` and connects. Also brings a destroyed client back.
    /// - Throws: When the transcript folder cannot be read, or the first connection attempt fails (the client is
    ///   then initialized but disconnected; call ``connect()`` to try again).
    public func initialize() async throws(ParleyError) {
        if lifecycle != .initialized {
            if configuration.tokenProvider != nil { _ = try await currentToken() }  // the user comes from it
            try await loadConversation()
            lifecycle = .initialized
            emit(.initialized)
            resumeUploads()
        }
        try await connect()
    }

    /// Replaces the configuration, then does what ``initialize()`` does. For a client that was destroyed, or
    /// one not initialized yet.
    public func initialize(configuration: Configuration) async throws(ParleyError) {
        if lifecycle == .initialized { await disconnect() }
        await stopAllSpeech()
        speech.reader = nil  // the next reads aloud with the new configuration's server and voices
        self.configuration = configuration
        identity = (configuration.channelId, configuration.userId)
        lifecycle = .created
        try await initialize()
    }

    /// Closes the connection, stops reconnecting, reports ``ChatEvent/destroyed``. Every call except
    /// ``initialize()`` then fails with ``ParleyError/Code/clientDestroyed``.
    public func destroy() async {
        guard lifecycle != .destroyed else { return }
        await stopAllSpeech()
        stopUploads(forget: false)
        await disconnect()
        resetConversationState()
        tokenRefreshTask?.cancel()
        lifecycle = .destroyed
        emit(.destroyed)
    }

    /// Fails unless the client is initialized.
    func checkInitialized() throws(ParleyError) {
        switch lifecycle {
        case .initialized: return
        case .created: throw ParleyError(.clientNotInitialized, "call initialize() first")
        case .destroyed: throw ParleyError(.clientDestroyed, "the client was destroyed; call initialize() again")
        }
    }

    // MARK: Events

    /// A new sequence of every event from now on, in order. Each call gives an independent sequence; it ends when
    /// the caller stops iterating. Events before the call are not replayed (read ``messages()`` for the transcript).
    public func events() -> AsyncStream<ChatEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChatEvent.self)
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { _ in
            Task { await self.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    /// Sets the object that gets Oracle-style callbacks (held weakly), in event order.
    public func setListener(_ listener: (any ChatEventListener)?) {
        self.listener = listener
        guard listener != nil, listenerQueue == nil else { return }
        let (queue, continuation) = AsyncStream.makeStream(of: ChatEvent.self)
        listenerQueue = continuation
        Task { [weak self] in
            for await event in queue {
                guard let listener = await self?.listener else { continue }
                await listener.deliver(event)
            }
        }
    }

    /// Replaces the hooks.
    public func setHooks(_ hooks: Hooks) {
        self.hooks = hooks
    }

    func emit(_ event: ChatEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
        listenerQueue?.yield(event)
    }

    // MARK: Transcript

    /// The conversation so far, oldest first: the user's messages and the displayed skill and agent messages
    /// (typing indicators and the hidden init message are not kept).
    public func messages() -> [ChatMessage] {
        transcript.messages
    }

    /// Empties the transcript (and its file) and reports ``ChatEvent/transcriptCleared``.
    public func clearMessages() throws(ParleyError) {
        try checkInitialized()
        try transcript.clear()
        emit(.transcriptCleared)
    }

    /// Loads the transcript and the outbox of the current channel and user, and queues the conversation's
    /// opening (`initUserProfile`, then `initUserHiddenMessage`) when the conversation has no history.
    func loadConversation() async throws(ParleyError) {
        if let folder = configuration.storageFolder {
            transcript = try TranscriptStore(folder: folder, channelId: identity.channelId, userId: identity.userId)
            outbox = try Outbox(folder: folder, channelId: identity.channelId, userId: identity.userId)
            uploadStore = try UploadStore(folder: folder, channelId: identity.channelId, userId: identity.userId)
            for error in transcript.damaged + outbox.damaged + uploadStore.damaged {
                logger.error("\(error)", metadata: ["code": "\(error.code)"])
            }
        } else {
            transcript = TranscriptStore()
            outbox = Outbox()
            uploadStore = UploadStore()
        }
        sequencer = InboundSequencer(lastSequence: outbox.lastSequence)
        recentMessageIds = []
        loadLanguage()
        try await queueOpening()
    }

    /// Queues the conversation's opening ahead of everything else, once per conversation that has no history:
    /// `initUserProfile` (with the chosen ``chatLanguage`` as its `languageTag`), then `initUserHiddenMessage`
    /// (through ``Hooks/beforeSend`` as set at that moment, never shown or kept).
    func queueOpening() async throws(ParleyError) {
        guard !outbox.started, transcript.messages.isEmpty else { return }
        var opening: [OutboxItem] = []
        var initialProfile = configuration.initUserProfile
        if let language {
            initialProfile = initialProfile ?? Profile()
            initialProfile?.languageTag = language
        }
        if let profile = initialProfile {
            var update = ProfileUpdate(
                profile: profile, userId: identity.userId, sdkMetadata: SDKMetadata(version: configuration.sdkVersion))
            let id = Self.newMessageId()
            update.clientMessageId = id
            opening.append(OutboxItem(id: id, frame: update.jsonValue, transcriptId: nil))
        }
        if let hidden = configuration.initUserHiddenMessage {
            var message: UserMessage? = userMessage(.text(hidden))
            if let hook = hooks.beforeSend, let original = message { message = await hook(original) }
            if var message {
                let id = Self.newMessageId()
                message.clientMessageId = id
                opening.append(OutboxItem(id: id, frame: message.jsonValue, transcriptId: nil))
            }
        }
        try outbox.addAtFront(opening)
        try outbox.markStarted()
    }

    static func newMessageId() -> String {
        UUID.random().uuidString.lowercased()
    }

    /// Keeps a message; a storage failure is reported, not thrown (the message itself went through).
    func record(_ message: ChatMessage) {
        do {
            try transcript.append(message)
        } catch {
            emit(.error(error))
        }
    }
}

/// An injected random source as a concrete generator.
struct RandomSource: RandomNumberGenerator, Sendable {
    var base: any RandomNumberGenerator & Sendable

    mutating func next() -> UInt64 {
        base.next()
    }
}
