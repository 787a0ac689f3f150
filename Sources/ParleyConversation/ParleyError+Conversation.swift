// The codes a conversation reports and a screen shows, whatever the backend; each backend's own are in its module.
extension ParleyError.Code {
    /// The conversation's backend cannot do this (see ``ConversationCapabilities``): a Genesys chat has no
    /// postbacks, for instance.
    public static let unsupportedFeature: Self = "client.unsupportedFeature"
    /// The connection could not be opened or was lost; the message says why.
    public static let connectionFailed: Self = "client.connectionFailed"
    /// The feature is switched off in the configuration (such as attachments with `enableAttachment = false`).
    public static let featureDisabled: Self = "client.featureDisabled"
    /// A file is empty or larger than the attachment limit; checked before uploading.
    public static let attachmentTooLarge: Self = "attachment.tooLarge"
    /// A file's type is not allowed by the share-menu configuration, or the server refused it (415).
    public static let attachmentTypeNotAllowed: Self = "attachment.typeNotAllowed"
    /// ``Conversation/cancelUpload(_:)`` stopped the upload.
    public static let uploadCancelled: Self = "attachment.uploadCancelled"
    /// The action cannot be sent as a message (only postback actions can).
    public static let unsupportedAction: Self = "client.unsupportedAction"
    /// A form has values that do not pass the client-side checks (``FormDraft/problems``); nothing was sent.
    public static let formInvalid: Self = "client.formInvalid"
    /// ``Conversation/startRecording()`` was called while speech input was already on.
    public static let speechAlreadyRecording: Self = "speech.alreadyRecording"
    /// The user said nothing the recognizer could hear before it gave up.
    public static let speechNoSpeech: Self = "speech.noSpeech"
    /// The user spoke for longer than the recognizer accepts.
    public static let speechTooMuchSpeech: Self = "speech.tooMuchSpeech"
    /// The speech service failed: the socket could not be opened or closed early, or it sent an error
    /// (`odais_speechrecognition_error`).
    public static let speechRecognitionFailed: Self = "speech.recognitionFailed"
}
