extension ParleyError.Code {
    /// A `.strings` table could not be read: the message gives the line and what was expected.
    public static let stringsFileInvalid: Self = "ui.stringsFileInvalid"
    /// Speech input was asked for, but this version of the presentation model has no speech engine to run it
    /// (see ``ChatViewModel/startSpeech()``).
    public static let speechUnavailable: Self = "ui.speechUnavailable"
    /// There is nothing to retry: the row is not a failed message or upload.
    public static let nothingToRetry: Self = "ui.nothingToRetry"
    /// An attachment could not be downloaded for viewing (``ChatViewModel/downloadAttachment(_:session:)``).
    public static let attachmentDownloadFailed: Self = "ui.attachmentDownloadFailed"
}
