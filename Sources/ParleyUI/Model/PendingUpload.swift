import Foundation

/// A file the user is sending, kept until the upload and the attachment message went through, so that a failed
/// upload can be retried.
struct PendingUpload: Sendable {
    var id: String
    var data: Data
    var fileName: String
    var mimeType: String
    var progress: Double = 0
    var failure: (message: String, error: ParleyError)?
    var uploadingText: String

    var row: ChatRow {
        let state: UploadRow.State =
            if let failure { .failed(message: failure.message, error: failure.error) } else {
                .uploading(progress: progress)
            }
        return .upload(
            UploadRow(
                id: id, fileName: fileName, mimeType: mimeType, size: data.count, state: state,
                statusText: failure?.message ?? uploadingText, canRetry: failure != nil))
    }
}
