public import Foundation

/// One conversation with a skill or an agent, whatever the backend: Parley's or Oracle's chat server
/// (``ChatClient``), a Genesys chat (`GenesysConversation` in ParleyGenesys, Chat API version 1 or 2), or a page of
/// your own. ParleyUI's `ChatViewModel` and `parley chat` drive any of them the same way.
///
/// The names are those of ``ChatClient`` (Oracle's `BotsManager`): ``initialize()`` connects, ``destroy()``
/// disconnects, ``events()`` and ``messages()`` report what happened as ``ChatEvent``s and ``ChatMessage``s, and
/// ``endChat()`` ends the conversation. What a backend cannot do is in ``capabilities``: calling it fails with
/// ``ParleyError/Code/unsupportedFeature``, and a screen hides it.
///
/// ```swift
/// let conversation: any Conversation = ChatClient(configuration: configuration)
/// let events = await conversation.events()
/// try await conversation.initialize()
/// try await conversation.send(text: "Order pizza")
/// for await event in events {
///     if case .messageReceived(let message) = event { print(message.payload.text ?? "") }
/// }
/// ```
public protocol Conversation: Actor {
    /// What this backend can do beyond sending and receiving text.
    var capabilities: ConversationCapabilities { get }
    /// The feature flags a screen obeys (Oracle's `BotsConfiguration`); a backend sets those it cannot honour off.
    var configuration: ChatClient.Configuration { get }
    /// The connection status.
    var status: ConnectionStatus { get }
    /// Who is typing, if anyone.
    var typingIndicator: TypingIndicator? { get }
    /// The chat language; `nil` when the skill detects it (or the backend has no languages).
    var chatLanguage: String? { get }

    /// A new sequence of every event from now on, in order.
    func events() -> AsyncStream<ChatEvent>
    /// The conversation so far, oldest first.
    func messages() -> [ChatMessage]
    /// The live agent's details, when one has the conversation.
    func getAgentDetails() -> AgentSession?
    /// Overrides what the backend says about the live agent (name, avatar, colours).
    func setAgentDetails(_ details: AgentSession?)
    /// Changes the user's avatar on every message.
    func setPersonAvatar(_ avatar: String?)

    /// Connects (and starts the conversation where the backend needs that); reports ``ChatEvent/initialized``.
    func initialize() async throws(ParleyError)
    /// Disconnects; reports ``ChatEvent/destroyed``.
    func destroy() async

    /// Sends a user payload. Backends without ``ConversationCapabilities/richMessages`` send text only.
    /// - Returns: The message as queued, or `nil` when a hook dropped it.
    @discardableResult
    func send(_ payload: MessagePayload) async throws(ParleyError) -> ChatMessage?
    /// Sends the postback of an action the user chose.
    @discardableResult
    func sendPostback(_ action: Action) async throws(ParleyError) -> ChatMessage?
    /// Uploads a file and sends it as an attachment; `progress` gets the fraction uploaded.
    @discardableResult
    func sendAttachment(
        _ data: Data, fileName: String, mimeType: String, progress: @escaping @Sendable (Double) -> Void
    ) async throws(ParleyError) -> ChatMessage?
    /// Stops an upload under way (``Upload/id``); nothing for one that is over or unknown.
    func cancelUpload(_ id: String)
    /// Submits an edit form.
    @discardableResult
    func submitForm(_ draft: FormDraft, postback: JSONValue?) async throws(ParleyError) -> ChatMessage?
    /// Sends what a form field with `autoSubmit` needs.
    @discardableResult
    func autoSubmit(_ draft: FormDraft, field fieldId: String) async throws(ParleyError) -> ChatMessage?
    /// Tells a live agent whether the user is typing (and, where the backend allows, what).
    /// - Returns: Whether anything was sent.
    @discardableResult
    func sendUserTypingStatus(_ status: TypingStatus, text: String?) async throws(ParleyError) -> Bool
    /// Chooses the chat language; `nil` lets the skill detect it.
    func setPrimaryLanguage(_ requested: String?) async throws(ParleyError)
    /// Empties the transcript; reports ``ChatEvent/transcriptCleared``.
    func clearMessages() async throws(ParleyError)
    /// Ends the conversation; reports ``ChatEvent/chatEnded``.
    func endChat() async throws(ParleyError)

    /// Starts speech input (``ConversationCapabilities/speech``); see ``ChatClient/startRecording()``.
    func startRecording() async throws(ParleyError)
    /// Stops speech input; the final result follows.
    func stopRecording() async
    /// Stops speech input without a result.
    func cancelRecording() async
    /// Mutes or unmutes reading aloud.
    func setSpeechSynthesisMuted(_ muted: Bool) async
    /// Whether reading aloud is muted.
    var isSpeechSynthesisMuted: Bool { get }
}

extension Conversation {
    /// Sends a text message.
    @discardableResult
    public func send(text: String) async throws(ParleyError) -> ChatMessage? {
        try await send(.text(text))
    }

    /// Sends the user's location.
    @discardableResult
    public func sendLocation(latitude: Double, longitude: Double, title: String? = nil) async throws(ParleyError)
        -> ChatMessage?
    {
        try await send(.location(Location(latitude: latitude, longitude: longitude, title: title)))
    }

    /// Tells a live agent whether the user is typing, without the text.
    @discardableResult
    public func sendUserTypingStatus(_ status: TypingStatus) async throws(ParleyError) -> Bool {
        try await sendUserTypingStatus(status, text: nil)
    }

    /// Fails with ``ParleyError/Code/unsupportedFeature``: this backend has no speech.
    public func startRecording() async throws(ParleyError) {
        try require(.speech, "listen to speech")
    }

    /// Does nothing: this backend has no speech.
    public func stopRecording() async {}

    /// Does nothing: this backend has no speech.
    public func cancelRecording() async {}

    /// Does nothing: this backend has no speech.
    public func setSpeechSynthesisMuted(_ muted: Bool) async {}

    /// `true`: this backend reads nothing aloud.
    public var isSpeechSynthesisMuted: Bool { true }

    /// Does nothing: the backend takes no files.
    public func cancelUpload(_ id: String) {}

    /// Fails with ``ParleyError/Code/unsupportedFeature`` unless ``capabilities`` has `capability`.
    public func require(_ capability: ConversationCapabilities, _ what: String) throws(ParleyError) {
        guard capabilities.contains(capability) else {
            throw ParleyError(.unsupportedFeature, "this conversation's backend cannot \(what)")
        }
    }
}

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

extension ChatClient: Conversation {
    /// Everything, with ``ConversationCapabilities/speech`` through the chat server's speech endpoints or the
    /// on-device engines of its ``ChatClient/SpeechSetup``; ``ConversationCapabilities/durableHistory`` with a
    /// `storageFolder`.
    public var capabilities: ConversationCapabilities {
        var capabilities: ConversationCapabilities = [
            .richMessages, .attachments, .typingStatus, .languages, .endConversation, .speech,
        ]
        if configuration.storageFolder != nil { capabilities.insert(.durableHistory) }
        return capabilities
    }
}
