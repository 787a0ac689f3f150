public import ParleyCore

/// Something that happened to a ``Conversation``, in the order it happened.
///
/// ```swift
/// for await event in await client.events() {
///     if case .messageReceived(let message) = event { print(message.payload.text ?? "") }
/// }
/// ```
public enum ChatEvent: Sendable {
    /// The connection status changed.
    case statusChanged(ConnectionStatus)
    /// The skill or an agent sent a message, after the client's `beforeDisplay` hook (a message the hook
    /// dropped is not reported).
    case messageReceived(ChatMessage)
    /// A message already reported changed in place: a streamed text grew or ended, a message with
    /// `replaceMessage` replaced it, or one with `appendMessage` added its text. Same ``ChatMessage/id``.
    case messageUpdated(ChatMessage)
    /// The user's message was queued for sending, after the client's `beforeSend` hook (its delivery is
    /// `pending`), or was sent from another of the user's sockets, a second tab or device (its delivery is
    /// `acknowledged`; docs/protocol.md §13.6). The hidden init message is not reported.
    case messageSent(ChatMessage)
    /// A message the user sent moved on its way: `sent`, `acknowledged` by the server, or `failed`.
    case deliveryChanged(ChatMessage)
    /// A file was uploaded; the attachment message follows as ``messageSent(_:)``.
    case attachmentUploaded(Attachment)
    /// An upload moved on: queued, progress, waiting to try again, uploaded, failed or cancelled.
    case uploadChanged(Upload)
    /// ``Conversation/initialize()`` finished.
    case initialized
    /// ``Conversation/destroy()`` finished; every call fails until the conversation is initialized again.
    case destroyed
    /// The chat language changed; `nil` means the skill detects it.
    case languageChanged(String?)
    /// The typing indicator changed: the skill is responding (after the user sent something), a live agent is
    /// typing, or nobody (`nil`). A shown indicator hides by itself after `typingStatusTimeout`.
    case typingChanged(TypingIndicator?)
    /// A live agent took the conversation, or their details changed (``Conversation/getAgentDetails()``), or the
    /// conversation went back to the skill (`nil`).
    case agentChanged(AgentSession?)
    /// The conversation ended: the server sent `sessionClosed`.
    case chatEnded
    /// The transcript was emptied.
    case transcriptCleared
    /// Something failed that no call returned to the app: a refused or lost connection, a token that could not
    /// be fetched, a frame that could not be decoded. Reported once.
    case error(ParleyError)
    /// Speech input moved on (``Conversation/startRecording()``): asking permission, recording, finishing, idle.
    case recordingChanged(RecordingState)
    /// The speech service's best guess so far (`final` false), or its final text (Oracle's
    /// `onSpeechResponseReceived(data:final:)`).
    case speechResponseReceived(text: String, final: Bool)
    /// The microphone's level for one captured chunk, RMS and dBFS, for a voice visualiser (Oracle's
    /// `onAudioReceived`).
    case audioLevel(AudioLevel)
    /// An utterance was recognised: sent as a message (`sent`, with `enableAutoSendSpeechResponse`), or handed to
    /// the app to put in the input field for the user to edit.
    case speechRecognized(SpeechResult, sent: Bool)
    /// Speech input failed: a permission denied, an unsupported locale, nothing heard, the speech service or the
    /// microphone failed (``Conversation/startRecording()`` throws the ones it meets itself too).
    case speechFailed(ParleyError)
    /// Reading a message aloud failed: no sound device, or the synthesiser failed. Reading goes on with the next.
    case speechSynthesisFailed(ParleyError)
    /// Reading aloud was muted or unmuted (``Conversation/setSpeechSynthesisMuted(_:)``).
    case speechSynthesisMuted(Bool)
}

extension ChatEvent {
    /// Whether the transcript may have changed: a message sent, received, updated or delivered, the transcript
    /// cleared, or the conversation initialized or destroyed (a backend may load or drop its transcript then).
    public var changesTranscript: Bool {
        switch self {
        case .messageReceived, .messageUpdated, .messageSent, .deliveryChanged, .transcriptCleared, .initialized,
            .destroyed:
            true
        default: false
        }
    }

    /// Whether the connection status changed.
    public var changesStatus: Bool {
        if case .statusChanged = self { return true }
        return false
    }
}
