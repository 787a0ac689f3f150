import Foundation

/// A file the user is sending, kept until the upload and the attachment message went through, so that a failed
/// upload can be retried.
///
/// Its progress comes from the upload's own callback; the client's ``ChatEvent/uploadChanged(_:)`` events add what
/// the callback does not say (an automatic retry), matched to the row by the client's upload id, learnt from the
/// first event for a file of that name and size while the row waits.
struct PendingUpload: Sendable {
    var id: String
    /// The client's id of the upload (``Upload/id``), once an event named it.
    var clientId: String?
    /// The client tries again after a network failure.
    var retrying = false
    var data: Data
    var fileName: String
    var mimeType: String
    var progress: Double = 0
    var failure: (message: String, error: ParleyError)?
    var uploadingText: String
    var retryingText: String

    var row: ChatRow {
        let state: UploadRow.State =
            if let failure { .failed(message: failure.message, error: failure.error) } else {
                .uploading(progress: progress)
            }
        return .upload(
            UploadRow(
                id: id, fileName: fileName, mimeType: mimeType, size: data.count, state: state,
                statusText: failure?.message ?? (retrying ? retryingText : uploadingText), canRetry: failure != nil,
                canCancel: failure == nil && clientId != nil))
    }
}

extension UploadRow {
    /// The row of an upload the model did not start: one the client resumed after the app's restart.
    init(resumed upload: Upload, strings: Strings) {
        let progress: Double = if case .uploading(let fraction) = upload.state { fraction } else { 0 }
        let retrying: Bool = if case .waitingToRetry = upload.state { true } else { false }
        self.init(
            id: upload.id, fileName: upload.fileName, mimeType: upload.mimeType, size: upload.byteCount,
            state: .uploading(progress: progress), statusText: strings[retrying ? .uploadRetrying : .uploading],
            canRetry: false, canCancel: true)
    }
}
