public import Foundation

extension ChatClient {
    /// Uploads a file, then sends it as an attachment message.
    ///
    /// Before uploading, the client checks `enableAttachment`, that the file is not empty, and that the
    /// share-menu configuration allows its type (MIME type, extension or uniform type identifier) and size (25 MiB
    /// at most). The upload is reported as ``ChatEvent/uploadChanged(_:)`` (progress included); a try that fails on
    /// the network or with a server error is repeated after a back-off (`uploadRetryLimit`); with `storageFolder`
    /// the file is kept until it is uploaded, so an upload cut off by the app's end starts over at the next
    /// ``initialize()``. ``cancelUpload(_:)`` stops it.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - fileName: Its name, shown to the skill as the attachment's title.
    ///   - mimeType: Its MIME type; the attachment type (image, video, audio, file) follows from it.
    ///   - progress: Called with the fraction uploaded, from 0 to 1 (1 once the server accepted the file).
    /// - Returns: The attachment message, or `nil` when ``Hooks/beforeSend`` dropped it (the file stays uploaded).
    /// - Throws: ``ParleyError/Code/attachmentTypeNotAllowed`` or ``ParleyError/Code/attachmentTooLarge`` before
    ///   anything is sent; ``ParleyError/Code/uploadRefused`` when the server refuses the file;
    ///   ``ParleyError/Code/uploadFailed`` when every try failed; ``ParleyError/Code/uploadCancelled``.
    @discardableResult
    public func sendAttachment(
        _ data: Data, fileName: String, mimeType: String, progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(ParleyError) -> ChatMessage? {
        try checkInitialized()
        guard configuration.enableAttachment else {
            throw ParleyError(.featureDisabled, "attachments are switched off (enableAttachment is false)")
        }
        guard let limit = configuration.shareMenuConfiguration.sizeLimit(mimeType: mimeType, fileName: fileName) else {
            throw ParleyError(
                .attachmentTypeNotAllowed, "the share menu does not allow \(mimeType) files (\(fileName))")
        }
        guard !data.isEmpty else { throw ParleyError(.attachmentTooLarge, "\(fileName) is empty") }
        guard data.count <= limit else {
            throw ParleyError(.attachmentTooLarge, "\(fileName) has \(data.count) bytes; the limit is \(limit)")
        }
        let entry = UploadStore.Entry(
            id: "upload-\(UUID().uuidString.lowercased())", fileName: fileName, mimeType: mimeType, data: data)
        try uploadStore.add(entry)
        return try await startUpload(entry, progress: progress).value.get()
    }

    /// The uploads not finished yet, oldest first.
    public func uploads() -> [Upload] {
        uploadStore.entries.compactMap { uploadStates[$0.id] }
    }

    /// Stops an upload (and forgets its file); its ``sendAttachment(_:fileName:mimeType:progress:)`` fails with
    /// ``ParleyError/Code/uploadCancelled``. A file the server already has is not sent as a message. Does nothing
    /// for an upload that is over.
    public func cancelUpload(_ id: String) {
        uploadTasks[id]?.cancel()
    }

    // MARK: Running uploads

    /// Starts the uploads kept from before the app's restart (after ``initialize()``).
    func resumeUploads() {
        for entry in uploadStore.entries where uploadTasks[entry.id] == nil {
            _ = startUpload(entry, progress: { _ in })
        }
    }

    /// Stops every running upload, keeping them (when `forget` is false) for the next ``initialize()``.
    func stopUploads(forget: Bool) {
        for (id, task) in uploadTasks {
            if !forget { suspendedUploads.insert(id) }
            task.cancel()
        }
        if forget { uploadStore.removeAll() }
    }

    private func startUpload(
        _ entry: UploadStore.Entry, progress: @escaping @Sendable (Double) -> Void
    ) -> Task<Result<ChatMessage?, ParleyError>, Never> {
        report(entry, .queued)
        let task = Task { await self.runUpload(entry, progress: progress) }
        uploadTasks[entry.id] = task
        return task
    }

    /// Tries the upload until it succeeds, is refused, runs out of tries or is cancelled; then sends the attachment.
    private func runUpload(
        _ entry: UploadStore.Entry, progress: @escaping @Sendable (Double) -> Void
    ) async -> Result<ChatMessage?, ParleyError> {
        defer { uploadTasks[entry.id] = nil }
        var query = [("channelId", identity.channelId), ("userId", identity.userId)]
        if let sessionSecret = configuration.sessionSecret { query.append(("sessionSecret", sessionSecret)) }
        var attempt = 0
        while true {
            guard !Task.isCancelled else { return stopped(entry) }
            report(entry, .uploading(0))
            let id = entry.id
            // The pieces URLSession reports reach the upload's state through one stream, in order and all before
            // the try's outcome. (A task per piece ran in any order, and on a busy machine after the outcome, which
            // dropped them: an upload showed no progress between 0 and done.)
            let (fractions, reporter) = AsyncStream.makeStream(of: Double.self)
            let reporting = Task {
                for await fraction in fractions { self.uploadProgressed(id, fraction) }
            }
            do {
                let url = try configuration.endpoint("chat/v1/attachments", websocket: false, query: query)
                let uploaded = try await uploader.upload(
                    entry.data, fileName: entry.fileName, mimeType: entry.mimeType, to: url,
                    token: try await currentToken(),
                    progress: { fraction in
                        progress(fraction)
                        reporter.yield(fraction)
                    })
                reporter.finish()
                await reporting.value
                guard !Task.isCancelled else { return stopped(entry) }
                let attachment = Attachment(
                    type: AttachmentType(mimeType: uploaded.mimeType), url: uploaded.url, title: uploaded.fileName)
                uploadStore.remove(id)
                report(entry, .uploaded(attachment))
                emit(.attachmentUploaded(attachment))
                do {
                    return .success(try await send(.attachment(attachment)))
                } catch {
                    return .failure(error)
                }
            } catch {
                reporter.finish()
                await reporting.value
                guard !Task.isCancelled else { return stopped(entry) }
                guard error.code == .uploadFailed || error.code == .connectionFailed,
                    attempt < configuration.uploadRetryLimit
                else {
                    uploadStore.remove(id)
                    report(entry, .failed(error))
                    return .failure(error)
                }
                attempt += 1
                let delay = Self.uploadRetryDelay(attempt: attempt)
                report(entry, .waitingToRetry(attempt: attempt, delay: delay, error: error))
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return stopped(entry)
                }
            }
        }
    }

    /// The wait before try `attempt + 1`: 1 s, 2 s, 4 s… at most 30 s.
    public static func uploadRetryDelay(attempt: Int) -> Duration {
        .seconds(min(1 << min(max(attempt - 1, 0), 5), 30))
    }

    /// A cancelled upload: forgotten and reported (``cancelUpload(_:)``), or kept for the next start (``destroy()``).
    private func stopped(_ entry: UploadStore.Entry) -> Result<ChatMessage?, ParleyError> {
        if suspendedUploads.remove(entry.id) != nil {
            report(entry, .queued)
            return .failure(ParleyError(.clientDestroyed, "the client stopped; the upload resumes at initialize()"))
        }
        uploadStore.remove(entry.id)
        report(entry, .cancelled)
        return .failure(ParleyError(.uploadCancelled, "the upload of \(entry.fileName) was cancelled"))
    }

    private func uploadProgressed(_ id: String, _ fraction: Double) {
        guard let upload = uploadStates[id], case .uploading(let before) = upload.state, fraction > before,
            fraction == 1 || fraction - before >= 0.01
        else { return }
        var changed = upload
        changed.state = .uploading(fraction)
        uploadStates[id] = changed
        emit(.uploadChanged(changed))
    }

    private func report(_ entry: UploadStore.Entry, _ state: Upload.State) {
        let upload = Upload(
            id: entry.id, fileName: entry.fileName, mimeType: entry.mimeType, byteCount: entry.data.count, state: state)
        uploadStates[entry.id] = state.isFinished ? nil : upload
        emit(.uploadChanged(upload))
    }
}
