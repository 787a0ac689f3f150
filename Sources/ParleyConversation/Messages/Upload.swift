import Foundation

/// A file on its way to the chat server, as ``ChatEvent/uploadChanged(_:)`` reports it and
/// ChatClient's `uploads()` lists it.
///
/// An upload is kept (with `storageFolder`, on disk: the file's bytes and this record) until the server has the file
/// and the attachment message is queued in the outbox, so an app that is killed mid-upload uploads the file again
/// when it starts (Oracle's attachment endpoint takes a file in one request: "resume" starts the file over).
public struct Upload: Sendable, Hashable, Identifiable {
    /// Where an upload is.
    public enum State: Sendable, Hashable {
        /// Waiting for its first try (or for the client to be initialized, after a restart).
        case queued
        /// Being sent: the fraction sent so far, from 0 to 1 (1 once the server accepted the file).
        case uploading(Double)
        /// A try failed on the network or with a server error; the next try starts after `delay`.
        case waitingToRetry(attempt: Int, delay: Duration, error: ParleyError)
        /// The server has the file; the attachment message is in the outbox.
        case uploaded(Attachment)
        /// It will not be tried again: the server refused it, or every try failed.
        case failed(ParleyError)
        /// ``Conversation/cancelUpload(_:)`` stopped it.
        case cancelled

        /// Whether the upload is over (uploaded, failed or cancelled).
        public var isFinished: Bool {
            switch self {
            case .uploaded, .failed, .cancelled: true
            case .queued, .uploading, .waitingToRetry: false
            }
        }
    }

    /// The upload's id (``Conversation/cancelUpload(_:)`` takes it).
    public var id: String
    /// The file's name.
    public var fileName: String
    /// Its MIME type.
    public var mimeType: String
    /// Its size in bytes.
    public var byteCount: Int
    /// Where it is.
    public var state: State

    /// An upload's description.
    public init(id: String, fileName: String, mimeType: String, byteCount: Int, state: State) {
        self.id = id
        self.fileName = fileName
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.state = state
    }
}
