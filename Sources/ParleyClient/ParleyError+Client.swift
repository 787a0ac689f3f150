extension ParleyError.Code {
    /// The client was destroyed; call ``ChatClient/initialize()`` before using it again.
    public static let clientDestroyed: Self = "client.destroyed"
    /// The client has not been initialized yet.
    public static let clientNotInitialized: Self = "client.notInitialized"
    /// A frame was written to a connection that is closed (transports report it; the client's outbox sends again).
    public static let notConnected: Self = "client.notConnected"
    /// The connection could not be opened or was lost; the message says why.
    public static let connectionFailed: Self = "client.connectionFailed"
    /// The server did not answer a heartbeat in time: the socket is treated as dead.
    public static let heartbeatTimeout: Self = "client.heartbeatTimeout"
    /// The configuration cannot work, such as a URL that is not http(s) or ws(s).
    public static let invalidConfiguration: Self = "client.invalidConfiguration"
    /// The app's token provider failed or returned a token the client cannot use.
    public static let tokenUnavailable: Self = "client.tokenUnavailable"
    /// The feature is switched off in the configuration (such as attachments with `enableAttachment = false`).
    public static let featureDisabled: Self = "client.featureDisabled"
    /// A file is empty or larger than the attachment limit; checked before uploading.
    public static let attachmentTooLarge: Self = "attachment.tooLarge"
    /// A file's type is not allowed by the share-menu configuration, or the server refused it (415).
    public static let attachmentTypeNotAllowed: Self = "attachment.typeNotAllowed"
    /// The upload failed; the message carries the HTTP status or the network error.
    public static let uploadFailed: Self = "attachment.uploadFailed"
    /// The server answered the upload with a refusal that trying again cannot change (4xx other than 408, 413,
    /// 415 and 429).
    public static let uploadRefused: Self = "attachment.uploadRefused"
    /// ``ChatClient/cancelUpload(_:)`` stopped the upload.
    public static let uploadCancelled: Self = "attachment.uploadCancelled"
    /// The action cannot be sent as a message (only postback actions can).
    public static let unsupportedAction: Self = "client.unsupportedAction"
    /// The app's `beforeEndConversation` reported an error, so the conversation was not ended.
    public static let endConversationCancelled: Self = "client.endConversationCancelled"
    /// A form has values that do not pass the client-side checks (``FormDraft/problems``); nothing was sent.
    public static let formInvalid: Self = "client.formInvalid"
    /// Reading or writing the transcript folder failed.
    public static let transcriptStorage: Self = "client.transcriptStorage"
    /// The conversation's backend cannot do this (see ``ConversationCapabilities``): a Genesys chat has no
    /// postbacks, for instance.
    public static let unsupportedFeature: Self = "client.unsupportedFeature"
    /// ``ChatClient/startRecording()`` was called while speech input was already on.
    public static let speechAlreadyRecording: Self = "speech.alreadyRecording"
    /// The user said nothing the recognizer could hear before it gave up.
    public static let speechNoSpeech: Self = "speech.noSpeech"
    /// The user spoke for longer than the recognizer accepts.
    public static let speechTooMuchSpeech: Self = "speech.tooMuchSpeech"
    /// The speech service failed: the socket could not be opened or closed early, or it sent an error
    /// (`odais_speechrecognition_error`).
    public static let speechRecognitionFailed: Self = "speech.recognitionFailed"
}
