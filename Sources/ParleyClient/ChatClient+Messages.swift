public import Foundation

extension ChatClient {
    // MARK: Sending

    /// Sends a text message.
    /// - Returns: The message as sent and kept in the transcript, or `nil` when ``Hooks/beforeSend`` dropped it.
    /// - Throws: ``ParleyError/Code/notConnected`` when the socket is not open.
    @discardableResult
    public func send(text: String) async throws(ParleyError) -> ChatMessage? {
        try await send(.text(text))
    }

    /// Sends any user payload (text, postback, location, attachment, form submission, an event…).
    @discardableResult
    public func send(_ payload: MessagePayload) async throws(ParleyError) -> ChatMessage? {
        try checkInitialized()
        return try await send(userMessage(payload), record: true)
    }

    /// Sends the postback of an action the user chose (a `postback` action), with the action's label as text.
    /// ``Hooks/beforeSendPostback`` sees the action first, then ``Hooks/beforeSend`` the message.
    /// - Throws: ``ParleyError/Code/unsupportedAction`` for an action that is not a postback (calls, links and
    ///   location requests are the app's to perform).
    @discardableResult
    public func sendPostback(_ action: Action) async throws(ParleyError) -> ChatMessage? {
        try checkInitialized()
        var action = action
        if let hook = hooks.beforeSendPostback {
            guard let changed = await hook(action) else { return nil }
            action = changed
        }
        guard case .postback(let postback) = action.kind else {
            throw ParleyError(.unsupportedAction, "a \(action.type) action has no postback to send")
        }
        return try await send(.postback(postback, text: action.label))
    }

    /// Sends the user's location.
    @discardableResult
    public func sendLocation(latitude: Double, longitude: Double, title: String? = nil) async throws(ParleyError)
        -> ChatMessage?
    {
        try await send(.location(Location(latitude: latitude, longitude: longitude, title: title)))
    }

    /// Submits an edit form: the fields' values by field id, and — for a field with `autoSubmit` — its id as
    /// `partialSubmitField`.
    @discardableResult
    public func submitForm(
        _ submittedFields: JSONObject, partialSubmitField: String? = nil, postback: JSONValue? = nil
    ) async throws(ParleyError) -> ChatMessage? {
        let submission = MessagePayload.FormSubmission(
            submittedFields: submittedFields, partialSubmitField: partialSubmitField, postback: postback)
        return try await send(MessagePayload(.formSubmission(submission)))
    }

    /// Sends a profile update (`{"profile":{…}}`); the skill reads it as the user's profile.
    public func updateProfile(_ profile: Profile) async throws(ParleyError) {
        try checkInitialized()
        let update = ProfileUpdate(
            profile: profile, userId: identity.userId, sdkMetadata: SDKMetadata(version: configuration.sdkVersion))
        try await write(update.jsonString())
    }

    /// Uploads a file, then sends it as an attachment message.
    ///
    /// Before uploading, the client checks `enableAttachment`, that the file is not empty, and that the
    /// share-menu configuration allows its type and size (25 MiB at most).
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - fileName: Its name, shown to the skill as the attachment's title.
    ///   - mimeType: Its MIME type; the attachment type (image, video, audio, file) follows from it.
    ///   - progress: Called with the fraction uploaded, from 0 to 1 (1 once the server accepted the file).
    /// - Returns: The attachment message, or `nil` when ``Hooks/beforeSend`` dropped it (the file stays uploaded).
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
        let url = try configuration.endpoint(
            "chat/v1/attachments", websocket: false,
            query: [("channelId", identity.channelId), ("userId", identity.userId)])
        let uploaded = try await uploader.upload(
            data, fileName: fileName, mimeType: mimeType, to: url, token: try await currentToken(), progress: progress)
        let attachment = Attachment(
            type: AttachmentType(mimeType: uploaded.mimeType), url: uploaded.url, title: uploaded.fileName)
        emit(.attachmentUploaded(attachment))
        return try await send(.attachment(attachment))
    }

    /// The envelope of a user message on this connection.
    func userMessage(_ payload: MessagePayload) -> UserMessage {
        UserMessage(
            payload: payload, userId: identity.userId, sdkMetadata: SDKMetadata(version: configuration.sdkVersion))
    }

    /// Runs ``Hooks/beforeSend``, writes the message, keeps and reports it when `record` is true.
    func send(_ message: UserMessage, record: Bool) async throws(ParleyError) -> ChatMessage? {
        var message = message
        if let hook = hooks.beforeSend {
            guard let changed = await hook(message) else { return nil }
            message = changed
        }
        try await write(message.jsonString())
        guard record else { return nil }
        let entry = ChatMessage(envelope: .user(message))
        self.record(entry)
        emit(.messageSent(entry))
        return entry
    }

    /// Writes a frame on the open socket.
    func write(_ frame: String) async throws(ParleyError) {
        guard status == .connected, let connection else {
            throw ParleyError(.notConnected, "the client is \(status.rawValue); connect() first")
        }
        do {
            try await connection.send(frame)
        } catch {
            throw ParleyError(.notConnected, "the socket closed while sending: \(error)", underlying: error)
        }
    }

    /// The conversation's opening: `initUserProfile`, then `initUserHiddenMessage` (never shown or kept), so
    /// that the skill's first answer can use the profile.
    func sendInitialMessages() async {
        do {
            if let profile = configuration.initUserProfile {
                try await updateProfile(profile)
            }
            if let hidden = configuration.initUserHiddenMessage {
                _ = try await send(userMessage(.text(hidden)), record: false)
            }
        } catch {
            emit(.error(error))
        }
    }

    // MARK: Receiving

    /// A message from the skill or an agent: ``Hooks/beforeDisplay``, then kept (unless it is a typing
    /// indicator) and reported. `sessionClosed` also reports ``ChatEvent/chatEnded``.
    func display(_ message: SkillMessage) async {
        var message = message
        if let hook = hooks.beforeDisplay {
            guard let changed = await hook(message) else { return }
            message = changed
        }
        let entry = ChatMessage(id: message.msgId ?? UUID().uuidString, envelope: .skill(message))
        switch message.payload.content {
        case .status, .sessionClosed:
            break
        default:
            record(entry)
        }
        emit(.messageReceived(entry))
        if case .sessionClosed = message.payload.content { emit(.chatEnded) }
    }
}
