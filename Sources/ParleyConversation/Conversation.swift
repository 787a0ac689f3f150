public import Foundation

/// One conversation with a skill or an agent, whatever the backend: Parley's or Oracle's chat server
/// (ParleyClient's `ChatClient`), a Genesys chat (`GenesysConversation` in ParleyGenesys, Chat API version 1 or 2),
/// or a page of your own. ParleyUI's `ChatViewModel` and `parley chat` drive any of them the same way; this module
/// has no transport, so a screen that shows a conversation links none.
///
/// The names are those of Oracle's `BotsManager`: ``initialize()`` connects, ``destroy()`` disconnects,
/// ``events()`` reports what happened as ``ChatEvent``s, ``transcriptUpdates()`` and ``statusUpdates()`` follow the
/// transcript and the connection status, and ``endChat()`` ends the conversation. What a backend cannot do is in
/// ``capabilities``: calling it fails with ``ParleyError/Code/unsupportedFeature``, and a screen hides it. What a
/// screen obeys (Oracle's user-interface flags) is ``screenOptions``.
///
/// ```swift
/// func show(_ conversation: any Conversation) async throws {
///     let transcript = await conversation.transcriptUpdates()
///     try await conversation.initialize()
///     try await conversation.send(text: "Order pizza")
///     for await messages in transcript {
///         print(messages.last?.payload.text ?? "")
///     }
/// }
/// ```
public protocol Conversation: Actor {
    /// What this backend can do beyond sending and receiving text.
    var capabilities: ConversationCapabilities { get }
    /// The flags a screen obeys (the user-interface flags of Oracle's `BotsConfiguration`); a backend sets those it
    /// cannot honour off.
    var screenOptions: ScreenOptions { get }
    /// Who is typing, if anyone.
    var typingIndicator: TypingIndicator? { get }
    /// The chat language; `nil` when the skill detects it (or the backend has no languages).
    var chatLanguage: String? { get }

    /// A new sequence of every event from now on, in order.
    func events() -> AsyncStream<ChatEvent>
    /// A new sequence of the transcript, oldest message first: the transcript now, then again after each change (a
    /// message sent, received, updated or delivered, the transcript cleared or reloaded). A reader that falls
    /// behind gets the latest transcript, not every one in between.
    func transcriptUpdates() -> AsyncStream<[ChatMessage]>
    /// A new sequence of the connection status: the status now, then each change. A reader that falls behind gets
    /// the latest status.
    func statusUpdates() -> AsyncStream<ConnectionStatus>
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

    /// Starts speech input (``ConversationCapabilities/speech``); ``ChatEvent/recordingChanged(_:)`` and the
    /// speech events follow.
    func startRecording() async throws(ParleyError)
    /// Stops speech input; the final result follows.
    func stopRecording() async
    /// Stops speech input without a result.
    func cancelRecording() async
    /// Mutes or unmutes reading aloud.
    func setSpeechSynthesisMuted(_ muted: Bool) async
    /// Whether reading aloud is muted.
    var isSpeechSynthesisMuted: Bool { get }

    /// The app went to the background (a client closes its socket, as Oracle's SDK does).
    func applicationDidEnterBackground() async
    /// The app is in the foreground again (a client reconnects and delivers what waited).
    func applicationWillEnterForeground() async
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

    /// Does nothing: this backend keeps what it has in the background.
    public func applicationDidEnterBackground() async {}

    /// Does nothing: this backend kept what it had in the background.
    public func applicationWillEnterForeground() async {}

    /// Fails with ``ParleyError/Code/unsupportedFeature`` unless ``capabilities`` has `capability`.
    public func require(_ capability: ConversationCapabilities, _ what: String) throws(ParleyError) {
        guard capabilities.contains(capability) else {
            throw ParleyError(.unsupportedFeature, "this conversation's backend cannot \(what)")
        }
    }

    /// A new sequence of snapshots, for implementing ``transcriptUpdates()`` and ``statusUpdates()``: `read` now,
    /// then `read` again after each event for which `changes` is true, from ``events()``. The newest snapshot
    /// replaces one the reader has not taken yet. The sequence ends when the reader stops reading.
    public func snapshots<Value: Sendable>(
        _ read: @escaping @Sendable (isolated Self) -> Value, after changes: @escaping @Sendable (ChatEvent) -> Bool
    ) -> AsyncStream<Value> {
        let events = events()
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield(read(self))
        let following = Task {
            for await event in events where changes(event) {
                continuation.yield(read(self))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in following.cancel() }
        return stream
    }
}
