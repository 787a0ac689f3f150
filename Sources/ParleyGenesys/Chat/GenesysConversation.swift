public import Foundation

/// What ``GenesysConversation`` needs of a GMS chat session: ``ChatSession`` (Chat API version 1) and the version 2
/// session have it.
public protocol GenesysChat: Actor {
    /// Whether the chat was created and has not ended.
    var isActive: Bool { get }
    /// A new sequence of every event from now on.
    func events() -> AsyncStream<ChatEvent>
    /// Creates the chat.
    func start() async throws(ParleyError)
    /// Sends a text message; it is reported as ``ChatEvent/messageSent(_:)``.
    @discardableResult
    func send(text: String) async throws(ParleyError) -> ChatMessage
    /// Tells the agent the customer is typing.
    func startTyping() async throws(ParleyError)
    /// Tells the agent the customer stopped typing.
    func stopTyping() async throws(ParleyError)
    /// Ends the chat; ``ChatEvent/chatEnded`` follows.
    func disconnect() async throws(ParleyError)
}

extension ChatSession: GenesysChat {}

extension ChatV2Session: GenesysChat {
    /// Sends a text message without a `messageType`.
    @discardableResult
    public func send(text: String) async throws(ParleyError) -> ChatMessage {
        try await send(text: text, messageType: nil)
    }

    /// Tells the agent the customer is typing, without a preview.
    public func startTyping() async throws(ParleyError) {
        try await startTyping(preview: nil)
    }
}

extension ChatAPISession {
    /// The session, of either version, as ``GenesysConversation`` drives it.
    public var chat: any GenesysChat {
        switch self {
        case .version1(let chat): chat
        case .version2(let chat): chat
        }
    }
}

/// GMS chats as a ``Conversation``, so that ParleyUI's `ChatViewModel` and `parley chat --backend genesys` drive
/// them as they drive a `ChatClient`.
///
/// A GMS chat is one interaction: once it ended, the next message starts a new one. So the adapter makes its chat
/// sessions itself, one per interaction, with the closure it is given (a ``ChatSession`` for Chat API version 1, a
/// version 2 session, or your own ``GenesysChat``). It keeps the transcript across them (in memory: GMS keeps the
/// chats, so ``ConversationCapabilities/durableHistory`` is not claimed), turns the agent's typing notices into
/// ``ChatEvent/typingChanged(_:)`` (they are not messages on a screen) and the agent's name into
/// ``ChatEvent/agentChanged(_:)``. GMS chats carry text only: postbacks, attachments, forms and languages fail with
/// ``ParleyError/Code/unsupportedFeature``, and the screen hides them.
///
/// ```swift
/// let start = URL(string: "https://gms.example.com/genesys/1/service/customer-support/ixn/chat")!
/// let comet = URL(string: "https://gms.example.com/genesys/cometd")!
/// let conversation = GenesysConversation(title: "Support") {
///     ChatSession(configuration: .init(startChatURL: start, cometURL: comet, parameters: ["firstName": "Ann"]))
/// }
/// let model = ChatViewModel(conversation: conversation)
/// await model.start()
/// try await conversation.initialize()   // creates the chat
/// ```
///
/// Lifecycle: ``initialize()`` creates a chat unless one is active; ``endChat()`` and ``destroy()`` leave it
/// (`disconnect`: the customer left).
public actor GenesysConversation: Conversation {
    /// The current (or last) chat session; `nil` before ``initialize()``.
    public private(set) var chat: (any GenesysChat)?
    /// Text and typing; ending the chat.
    public nonisolated let capabilities: ConversationCapabilities = [.typingStatus, .endConversation]
    /// The flags a screen obeys: no attachments, no languages.
    public private(set) var screenOptions: ScreenOptions
    /// The Comet connection's status (``statusUpdates()`` follows it).
    public private(set) var status: ConnectionStatus = .disconnected
    /// The agent's typing indicator.
    public private(set) var typingIndicator: TypingIndicator?
    /// Always `nil`: GMS chats have no language setting.
    public nonisolated var chatLanguage: String? { nil }

    private let makeChat: @Sendable () -> any GenesysChat
    private var initialized = false
    private var transcript: [ChatMessage] = []
    private var agentFromChat: AgentSession?
    private var agentOverride: AgentSession?
    private var userTyping = false
    private var following: Task<Void, Never>?
    private var subscribers = EventSubscribers<ChatEvent>()

    /// Chats that `makeChat` makes, one per interaction.
    /// - Parameters:
    ///   - screenOptions: The flags a screen obeys; attachments and languages are switched off whatever they say.
    ///   - makeChat: Makes a new chat session, not started.
    public init(screenOptions: ScreenOptions, makeChat: @escaping @Sendable () -> any GenesysChat) {
        var screenOptions = screenOptions
        screenOptions.enableAttachment = false
        screenOptions.multiLangChat = nil
        self.screenOptions = screenOptions
        self.makeChat = makeChat
    }

    /// Chats that `makeChat` makes, on a screen titled `title` that may clear and end them.
    public init(title: String? = nil, makeChat: @escaping @Sendable () -> any GenesysChat) {
        var screenOptions = ScreenOptions()
        screenOptions.title = title
        screenOptions.enableClearMessage = true
        screenOptions.enableEndConversation = true
        self.init(screenOptions: screenOptions, makeChat: makeChat)
    }

    // MARK: Lifecycle

    /// Creates a chat unless one is active, and follows its events.
    public func initialize() async throws(ParleyError) {
        if !initialized {
            initialized = true
            emit(.initialized)
        }
        if let chat, await chat.isActive { return }
        let chat = makeChat()
        self.chat = chat
        following?.cancel()
        let events = await chat.events()
        following = Task { [weak self] in
            for await event in events { await self?.absorb(event, from: chat) }
        }
        try await chat.start()
    }

    /// Leaves the chat (when active) and stops following it.
    public func destroy() async {
        if let chat, await chat.isActive { try? await chat.disconnect() }
        following?.cancel()
        following = nil
        initialized = false
        emit(.destroyed)
    }

    // MARK: Sending

    /// Sends a text; without an active chat a new one is created first. Other payloads fail with
    /// ``ParleyError/Code/unsupportedFeature``.
    @discardableResult
    public func send(_ payload: MessagePayload) async throws(ParleyError) -> ChatMessage? {
        guard case .text(let text) = payload.content else {
            throw ParleyError(.unsupportedFeature, "a Genesys chat carries text only, not \(payload.type.rawValue)")
        }
        guard let chat = try await activeChat() else { return nil }
        return try await chat.send(text: text.text)
    }
    /// Fails: GMS chats have no postbacks.
    public func sendPostback(_ action: Action) async throws(ParleyError) -> ChatMessage? {
        try require(.richMessages, "send postbacks")
        return nil
    }

    /// Fails: GMS chats (through this adapter) take no files.
    public func sendAttachment(
        _ data: Data, fileName: String, mimeType: String, progress: @escaping @Sendable (Double) -> Void
    ) async throws(ParleyError) -> ChatMessage? {
        try require(.attachments, "send files")
        return nil
    }

    /// Fails: GMS chats have no forms.
    public func submitForm(_ draft: FormDraft, postback: JSONValue?) async throws(ParleyError) -> ChatMessage? {
        try require(.richMessages, "submit forms")
        return nil
    }

    /// Fails: GMS chats have no forms.
    public func autoSubmit(_ draft: FormDraft, field fieldId: String) async throws(ParleyError) -> ChatMessage? {
        try require(.richMessages, "submit forms")
        return nil
    }

    /// `startTyping` when the user starts typing, `stopTyping` when they stop; nothing when that was said already
    /// or the chat is not active.
    public func sendUserTypingStatus(_ status: TypingStatus, text: String?) async throws(ParleyError) -> Bool {
        let typing = status == .responding
        guard typing != userTyping, let chat, await chat.isActive else { return false }
        userTyping = typing
        if typing { try await chat.startTyping() } else { try await chat.stopTyping() }
        return true
    }

    /// Fails: GMS chats have no language setting.
    public func setPrimaryLanguage(_ requested: String?) async throws(ParleyError) {
        try require(.languages, "change the chat language")
    }

    /// Empties the transcript on this device (GMS keeps the chat's).
    public func clearMessages() async throws(ParleyError) {
        transcript.removeAll()
        emit(.transcriptCleared)
    }

    /// Leaves the chat (`disconnect`); ``ChatEvent/chatEnded`` follows. The next message starts a new chat.
    public func endChat() async throws(ParleyError) {
        guard let chat, await chat.isActive else { return }
        try await chat.disconnect()
    }

    /// The active chat, made and started when there is none.
    private func activeChat() async throws(ParleyError) -> (any GenesysChat)? {
        if let chat, await chat.isActive { return chat }
        try await initialize()
        return chat
    }

    // MARK: State

    /// A new sequence of every event from now on.
    public func events() -> AsyncStream<ChatEvent> {
        subscribers.subscribe { id in Task { await self.removeSubscriber(id) } }
    }

    /// The chat so far: the customer's and the agent's lines and notices, without typing notices.
    public func messages() -> [ChatMessage] { transcript }

    /// ``messages()`` now, then again after each change.
    public func transcriptUpdates() -> AsyncStream<[ChatMessage]> {
        snapshots({ $0.transcript }, after: { $0.changesTranscript })
    }

    /// ``status`` now, then each change.
    public func statusUpdates() -> AsyncStream<ConnectionStatus> {
        snapshots({ $0.status }, after: { $0.changesStatus })
    }

    /// The agent who joined (by the name GMS gives), or what ``setAgentDetails(_:)`` set.
    public func getAgentDetails() -> AgentSession? { agentOverride ?? agentFromChat }

    /// Overrides what GMS says about the agent.
    public func setAgentDetails(_ details: AgentSession?) {
        agentOverride = details
        if agentFromChat != nil { emit(.agentChanged(getAgentDetails())) }
    }

    /// Changes the user's avatar on the screen.
    public func setPersonAvatar(_ avatar: String?) {
        screenOptions.personAvatar = avatar
    }

    // MARK: Events

    private func absorb(_ event: ChatEvent, from source: any GenesysChat) {
        guard source === chat else { return }  // a chat that ended before this one
        switch event {
        case .messageReceived(let message):
            if case .skill(let envelope) = message.envelope, envelope.effectiveSource == .agent,
                let details = envelope.payload.channelExtensions?.agentSession, details != agentFromChat
            {
                agentFromChat = details
                emit(.agentChanged(getAgentDetails()))
            }
            if case .status(let typing) = message.payload.content {
                setTyping(typing.status == .responding ? .agent(getAgentDetails()) : nil)
                return
            }
            setTyping(nil)
            transcript.append(message)
        case .messageSent(let message):
            userTyping = false
            transcript.append(message)
        case .deliveryChanged(let message):
            if let index = transcript.firstIndex(where: { $0.id == message.id }) { transcript[index] = message }
        case .statusChanged(let new):
            status = new
        case .chatEnded:
            setTyping(nil)
            userTyping = false
            if agentFromChat != nil {
                agentFromChat = nil
                emit(.agentChanged(nil))
            }
        default:
            break
        }
        emit(event)
    }

    private func setTyping(_ indicator: TypingIndicator?) {
        guard indicator != typingIndicator else { return }
        typingIndicator = indicator
        emit(.typingChanged(indicator))
    }

    private func removeSubscriber(_ id: Int) { subscribers.remove(id) }

    private func emit(_ event: ChatEvent) {
        subscribers.yield(event)
    }
}
