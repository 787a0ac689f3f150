import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads a file to the chat server's attachment endpoint (`POST /chat/v1/attachments`, multipart part
/// `attachment`, header `x-oda-meta-file-size`), as Oracle's SDKs do; see `docs/protocol.md` §2.2.
struct AttachmentUploader: Sendable {
    let session: URLSession

    /// What the server answered: the stored file's MIME type, download URL and name.
    struct Uploaded: Sendable {
        var mimeType: String
        var url: String
        var fileName: String
    }

    func upload(
        _ data: Data, fileName: String, mimeType: String, to url: URL, token: String?,
        progress: @escaping @Sendable (Double) -> Void
    ) async throws(ParleyError) -> Uploaded {
        let boundary = "parley-\(UUID().uuidString)"
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        request.setValue(String(data.count), forHTTPHeaderField: "x-oda-meta-file-size")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let quotedName = fileName.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "")
            .replacingOccurrences(of: "\n", with: "")
        var body = Data()
        body.append(contentsOf: Array("--\(boundary)\r\n".utf8))
        body.append(
            contentsOf: Array(
                "Content-Disposition: form-data; name=\"attachment\"; filename=\"\(quotedName)\"\r\n".utf8))
        body.append(contentsOf: Array("Content-Type: \(mimeType)\r\n\r\n".utf8))
        body.append(data)
        body.append(contentsOf: Array("\r\n--\(boundary)--\r\n".utf8))

        progress(0)
        let responseBody: Data
        let response: URLResponse
        do {
            #if canImport(FoundationNetworking)
                // Cancelling an async URLSession request crashes swift-corelibs-foundation, so on Linux the request
                // runs in a task of its own and a cancelled upload stops waiting for it (its answer is dropped).
                let session = session
                let prepared = request
                let delegate = UploadProgressDelegate(progress: progress)
                (responseBody, response) = try await Task {
                    try await session.upload(for: prepared, from: body, delegate: delegate)
                }.value
            #else
                (responseBody, response) = try await session.upload(
                    for: request, from: body, delegate: UploadProgressDelegate(progress: progress))
            #endif
        } catch {
            throw ParleyError(
                .uploadFailed, "uploading \(fileName) failed: \(error.localizedDescription)", underlying: error)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200..<300: break
        case 413:
            // Too large for the server, or for what the user may keep there (`attachment.quotaExceeded`).
            let detail = String(decoding: responseBody.prefix(300), as: UTF8.self)
            throw ParleyError(.attachmentTooLarge, "the server refused \(fileName) as too large (413): \(detail)")
        case 415:
            throw ParleyError(.attachmentTypeNotAllowed, "the server does not accept \(mimeType) files (415)")
        case 400..<500 where status != 408 && status != 429:
            let detail = String(decoding: responseBody.prefix(300), as: UTF8.self)
            throw ParleyError(.uploadRefused, "the server refused \(fileName) with HTTP \(status): \(detail)")
        default:
            let detail = String(decoding: responseBody.prefix(300), as: UTF8.self)
            throw ParleyError(.uploadFailed, "uploading \(fileName) failed with HTTP \(status): \(detail)")
        }
        progress(1)
        do {
            var reader = try FieldReader(JSONValue(parsing: responseBody))
            return Uploaded(
                mimeType: try reader.optional("type") ?? mimeType, url: try reader.required("url"),
                fileName: try reader.optional("fileName") ?? fileName)
        } catch {
            throw ParleyError(
                .uploadFailed, "the upload's answer is not {type,url,fileName}: \(error.message)", underlying: error)
        }
    }
}

/// Reports the bytes sent so far as a fraction.
final class UploadProgressDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let progress: @Sendable (Double) -> Void

    init(progress: @escaping @Sendable (Double) -> Void) {
        self.progress = progress
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard totalBytesExpectedToSend > 0 else { return }
        // The last report waits for the server's answer: a fraction of 1 means "uploaded and accepted".
        progress(min(Double(totalBytesSent) / Double(totalBytesExpectedToSend), 0.99))
    }
}

extension AttachmentType {
    /// The attachment type for a MIME type: image, video or audio by its major type, otherwise file.
    init(mimeType: String) {
        switch mimeType.split(separator: "/").first?.lowercased() {
        case "image": self = .image
        case "video": self = .video
        case "audio": self = .audio
        default: self = .file
        }
    }
}
