extension ParleyError.Code {
    /// The client was destroyed; call ``ChatClient/initialize()`` before using it again.
    public static let clientDestroyed: Self = "client.destroyed"
    /// The client has not been initialized yet.
    public static let clientNotInitialized: Self = "client.notInitialized"
    /// A frame was written to a connection that is closed (transports report it; the client's outbox sends again).
    public static let notConnected: Self = "client.notConnected"
    /// The server did not answer a heartbeat in time: the socket is treated as dead.
    public static let heartbeatTimeout: Self = "client.heartbeatTimeout"
    /// The configuration cannot work, such as a URL that is not http(s) or ws(s).
    public static let invalidConfiguration: Self = "client.invalidConfiguration"
    /// The app's token provider failed or returned a token the client cannot use.
    public static let tokenUnavailable: Self = "client.tokenUnavailable"
    /// The upload failed; the message carries the HTTP status or the network error.
    public static let uploadFailed: Self = "attachment.uploadFailed"
    /// The server answered the upload with a refusal that trying again cannot change (4xx other than 408, 413,
    /// 415 and 429).
    public static let uploadRefused: Self = "attachment.uploadRefused"
    /// The app's `beforeEndConversation` reported an error, so the conversation was not ended.
    public static let endConversationCancelled: Self = "client.endConversationCancelled"
    /// Reading or writing the transcript folder failed.
    public static let transcriptStorage: Self = "client.transcriptStorage"
    /// A record the client keeps on disk (a queued message in the outbox, a line of the transcript, an unfinished
    /// upload) could not be read. It was not deleted: the file was moved aside, renamed `NAME.damaged-<UTC time>`,
    /// and the message says where; the client's ``ChatClient`` logger reports it.
    public static let clientRecordDamaged: Self = "client.recordDamaged"
}
