extension ChatClient.Configuration {
    // Names Oracle's iOS SDK pages also use for these flags, kept so that code ported from a `BotsConfiguration`
    // compiles; each reads and writes the Parley flag, and the compiler offers the rename.

    /// Oracle's pages' other name for ``enableAutoSendSpeechResponse``.
    @available(*, deprecated, renamed: "enableAutoSendSpeechResponse")
    public var enableSpeechAutoSendSpeechResponse: Bool {
        get { enableAutoSendSpeechResponse }
        set { enableAutoSendSpeechResponse = newValue }
    }

    /// Oracle's pages' other name for ``enableAutoSendSpeechResponse`` ("setting `enableSpeechRecognitionAutoSend`
    /// to false" lets the user edit a dictated message before sending it).
    @available(*, deprecated, renamed: "enableAutoSendSpeechResponse")
    public var enableSpeechRecognitionAutoSend: Bool {
        get { enableAutoSendSpeechResponse }
        set { enableAutoSendSpeechResponse = newValue }
    }

    /// Oracle's earlier name for ``shareMenuConfiguration``.
    @available(*, deprecated, renamed: "shareMenuConfiguration")
    public var sharePopupConfiguration: ShareMenuConfiguration {
        get { shareMenuConfiguration }
        set { shareMenuConfiguration = newValue }
    }
}
