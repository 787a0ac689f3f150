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

extension ChatClient {
    /// The screen flags of ``configuration`` (``Configuration/screen``), as a screen reads them.
    public var screenOptions: ScreenOptions { configuration.screen }

    /// ``messages()`` now, then again after each change to the transcript.
    public func transcriptUpdates() -> AsyncStream<[ChatMessage]> {
        snapshots({ $0.messages() }, after: { $0.changesTranscript })
    }

    /// ``status`` now, then each change.
    public func statusUpdates() -> AsyncStream<ConnectionStatus> {
        snapshots({ $0.status }, after: { $0.changesStatus })
    }
}
