public import ParleySpeech

/// The callbacks of Oracle's `BotsEventListener`, for apps that prefer a listener object to
/// ``ChatClient/events()``. Every method has an empty default, so a listener implements only what it needs.
///
/// The client holds the listener weakly and calls it in event order. An actor-isolated listener (such as a
/// `@MainActor` view model) works as is: the methods are `async`.
public protocol ChatEventListener: AnyObject, Sendable {
    /// The connection status changed.
    func onStatusChange(connectionStatus: ConnectionStatus) async
    /// A message arrived from the skill or an agent.
    func onReceiveMessage(message: ChatMessage) async
    /// A file was uploaded. Oracle passes a `BotsAttachmentMessage`; Parley passes its payload, the attachment the
    /// server stored (type, the server's URL, the file name as title). The message follows as
    /// ``ChatEvent/messageSent(_:)``.
    func onUploadAttachment(attachment: Attachment) async
    /// The client was initialized.
    func onInitialize() async
    /// The client was destroyed.
    func onDestroy() async
    /// The chat language changed; `nil` means the skill detects it. Oracle passes a `SupportedLanguage`; Parley
    /// passes its tag (``SupportedLanguage/lang``, as matched in `multiLangChat.supportedLanguages`).
    func onChatLanguageChange(newLanguage: String?) async
    /// The user is ending the conversation (``ChatClient/endChat()``): clean up, then say whether it worked;
    /// ``EndConversationStatus/error`` keeps the conversation going.
    func beforeEndConversation() async -> EndConversationStatus
    /// The conversation ended.
    func chatEnd() async
    /// Something failed that no call returned (see ``ChatEvent/error(_:)``).
    func onError(error: ParleyError) async
    /// A partial (`final` false) or final text from speech recognition (Oracle's `onSpeechResponseReceived`).
    func onSpeechResponseReceived(data: String, final: Bool) async
    /// The microphone's level while recording, for a voice visualiser (Oracle's `SpeechEventListener.onAudioReceived`).
    func onAudioReceived(level: AudioLevel) async
}

extension ChatEventListener {
    /// Does nothing unless the listener implements it.
    public func onStatusChange(connectionStatus: ConnectionStatus) async {}
    /// Does nothing unless the listener implements it.
    public func onReceiveMessage(message: ChatMessage) async {}
    /// Does nothing unless the listener implements it.
    public func onUploadAttachment(attachment: Attachment) async {}
    /// Does nothing unless the listener implements it.
    public func onInitialize() async {}
    /// Does nothing unless the listener implements it.
    public func onDestroy() async {}
    /// Does nothing unless the listener implements it.
    public func onChatLanguageChange(newLanguage: String?) async {}
    /// Lets the conversation end unless the listener implements it.
    public func beforeEndConversation() async -> EndConversationStatus { .success }
    /// Does nothing unless the listener implements it.
    public func chatEnd() async {}
    /// Does nothing unless the listener implements it.
    public func onError(error: ParleyError) async {}
    /// Does nothing unless the listener implements it.
    public func onSpeechResponseReceived(data: String, final: Bool) async {}
    /// Does nothing unless the listener implements it.
    public func onAudioReceived(level: AudioLevel) async {}

    /// Calls the method that matches `event`.
    func deliver(_ event: ChatEvent) async {
        switch event {
        case .statusChanged(let status): await onStatusChange(connectionStatus: status)
        case .messageReceived(let message): await onReceiveMessage(message: message)
        case .attachmentUploaded(let attachment): await onUploadAttachment(attachment: attachment)
        case .initialized: await onInitialize()
        case .destroyed: await onDestroy()
        case .languageChanged(let language): await onChatLanguageChange(newLanguage: language)
        case .chatEnded: await chatEnd()
        case .error(let error): await onError(error: error)
        case .speechResponseReceived(let text, let final): await onSpeechResponseReceived(data: text, final: final)
        case .audioLevel(let level): await onAudioReceived(level: level)
        case .recordingChanged, .speechRecognized, .speechFailed, .speechSynthesisMuted, .speechSynthesisFailed: break
        case .messageSent, .deliveryChanged, .messageUpdated, .transcriptCleared, .typingChanged, .agentChanged,
            .uploadChanged:
            break
        }
    }
}

/// What the app's cleanup before ending a conversation came to (Oracle's `EndConversationStatus`).
public enum EndConversationStatus: Sendable, Hashable {
    /// Cleaned up: end the conversation.
    case success
    /// The cleanup failed: keep the conversation.
    case error
}
