public import Foundation

extension ChatViewModel {
    // MARK: Sending

    /// Sends a text (``Conversation/send(text:)``); blank text is ignored. A live agent is told the user stopped
    /// typing.
    @discardableResult
    public func send(text: String) async -> IntentOutcome {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .ignored }
        do {
            let sent = try await conversation.send(text: text)
            _ = try? await conversation.sendUserTypingStatus(.listening)
            return sent == nil ? .ignored : .done
        } catch {
            return fail(error)
        }
    }

    /// Sends ``draft`` and empties it.
    @discardableResult
    public func sendDraft() async -> IntentOutcome {
        let text = draft
        let outcome = await send(text: text)
        if outcome == .done { setDraft("") }
        return outcome
    }

    /// The user typed: ``draft`` changes, and a live agent sees that the user is typing
    /// (``Conversation/sendUserTypingStatus(_:text:)``, with `enableSendTypingStatus`), or stopped when it is empty.
    public func updateDraft(_ text: String) async {
        setDraft(text)
        _ = try? await conversation.sendUserTypingStatus(text.isEmpty ? .listening : .responding, text: text)
    }

    // MARK: Actions

    /// Does what an action of `row` (a message, card or form button) does:
    ///
    /// | action | what happens |
    /// |---|---|
    /// | `postback` | ``Conversation/sendPostback(_:)`` |
    /// | `url` | ``open(_:)`` (the ``LinkHandler``) |
    /// | `webview` | the page in ``webView`` |
    /// | `call` | `tel:` through ``PlatformActions/openExternally`` |
    /// | `location` | ``PlatformActions/requestLocation``, ``Conversation/sendLocation(latitude:longitude:title:)`` |
    /// | `share` | ``PlatformActions/share`` with the message's text |
    /// | `submitForm` | ``submitForm(_:postback:)`` |
    /// | `popup` | the message in ``popup`` |
    /// | `client` | ``PlatformActions/clientAction`` |
    ///
    /// A disabled item (`disablePastActions`) does nothing; an unknown action type fails with
    /// ``ParleyError/Code/unsupportedAction``.
    @discardableResult
    public func perform(_ item: ActionItem, in row: MessageRow) async -> IntentOutcome {
        guard item.isEnabled else { return .ignored }
        let action = item.action
        switch action.kind {
        case .postback:
            do {
                return try await conversation.sendPostback(action) == nil ? .ignored : .done
            } catch {
                return fail(error)
            }
        case .url(let link):
            return open(link)
        case .webview(let link):
            guard let url = URL(string: link), url.scheme != nil else { return failLink(link) }
            presentWebView(url)
            return .done
        case .call(let number):
            let digits = number.filter { $0.isNumber || $0 == "+" }
            guard let url = URL(string: "tel:\(digits)") else { return failLink(number) }
            platform.openExternally(url)
            return .done
        case .location:
            return await shareLocation()
        case .share:
            platform.share(Self.shareText(of: row))
            return .done
        case .submitForm(let postback):
            return await submitForm(row.id, postback: postback)
        case .popup(let payload):
            setPopup(payload)
            return .done
        case .client:
            platform.clientAction(action, row.message)
            return .done
        case .unknown(let type):
            return fail(ParleyError(.unsupportedAction, "\(type.rawValue) actions are not supported"))
        }
    }

    /// Asks the platform for the user's location and sends it (a `location` action, or the share menu's location).
    @discardableResult
    public func shareLocation() async -> IntentOutcome {
        guard let location = await platform.requestLocation() else { return .ignored }
        do {
            let sent = try await conversation.sendLocation(
                latitude: location.latitude, longitude: location.longitude, title: location.title)
            return sent == nil ? .ignored : .done
        } catch {
            return fail(error)
        }
    }

    private static func shareText(of row: MessageRow) -> String {
        switch row.content {
        case .text(let text, _): text
        case .cards(let cards): cards.cards.map(\.title).joined(separator: "\n")
        case .attachment(let attachment): attachment.url
        case .location(let location): location.url ?? "\(location.latitude),\(location.longitude)"
        default: row.message.payload.text ?? ""
        }
    }

    /// Closes the dialog of a `popup` action.
    public func dismissPopup() {
        setPopup(nil)
    }

    // MARK: Forms

    /// Sets the value of a field of the edit form in row `rowId` (`nil` clears it). A field with `autoSubmit` is
    /// sent at once (``Conversation/autoSubmit(_:field:)``); a problem with it shows in ``formProblems``.
    @discardableResult
    public func setFormValue(_ value: JSONValue?, field: String, in rowId: String) async -> IntentOutcome {
        guard var draft = formDrafts[rowId] else { return .ignored }
        draft[field] = value
        setFormDraft(draft, for: rowId)
        var problems = formProblems[rowId] ?? [:]
        problems[field] = nil
        setFormProblems(problems.isEmpty ? nil : problems, for: rowId)
        guard draft.field(field)?.autoSubmit == true, isFormEnabled(rowId) else { return .done }
        do {
            return try await conversation.autoSubmit(draft, field: field) == nil ? .ignored : .done
        } catch {
            if error.code == .formInvalid {
                problems[field] = draft.field(field)?.problem(with: value) ?? error.message
                setFormProblems(problems, for: rowId)
                return .failed(error)
            }
            return fail(error)
        }
    }

    /// Submits the edit form in row `rowId` (``Conversation/submitForm(_:postback:)``). When a field has a problem,
    /// nothing is sent and ``formProblems`` says what, by field.
    @discardableResult
    public func submitForm(_ rowId: String, postback: JSONValue? = nil) async -> IntentOutcome {
        guard let draft = formDrafts[rowId], isFormEnabled(rowId) else { return .ignored }
        let problems = draft.problems
        guard problems.isEmpty else {
            setFormProblems(problems, for: rowId)
            return .failed(ParleyError(.formInvalid, "the form has problems: \(problems.keys.sorted())"))
        }
        setFormProblems(nil, for: rowId)
        do {
            return try await conversation.submitForm(draft, postback: postback) == nil ? .ignored : .done
        } catch {
            return fail(error)
        }
    }

    private func isFormEnabled(_ rowId: String) -> Bool {
        for row in rows {
            if case .message(let message) = row, message.id == rowId, case .editForm(let form) = message.content {
                return form.isEnabled
            }
        }
        return false
    }

    // MARK: Attachments

    /// Uploads a file and sends it (``Conversation/sendAttachment(_:fileName:mimeType:progress:)``). An upload row
    /// shows its progress until the attachment message arrives; a file whose type or size is refused is an alert
    /// (`odais_file_not_supported`, `odais_file_size_warning`); an upload that failed otherwise stays as a row
    /// that ``retry(_:)`` sends again.
    @discardableResult
    public func attach(_ data: Data, fileName: String, mimeType: String) async -> IntentOutcome {
        guard capabilities.contains(.attachments) else {
            return fail(ParleyError(.unsupportedFeature, "this conversation's backend cannot send files"))
        }
        uploadCounter += 1
        let upload = PendingUpload(
            id: "upload-\(uploadCounter)", data: data, fileName: fileName, mimeType: mimeType,
            uploadingText: strings[.uploading], retryingText: strings[.uploadRetrying])
        uploads.append(upload)
        rebuild()
        return await runUpload(upload.id)
    }

    private func runUpload(_ id: String) async -> IntentOutcome {
        guard let upload = uploads.first(where: { $0.id == id }) else { return .ignored }
        do {
            let sent = try await conversation.sendAttachment(
                upload.data, fileName: upload.fileName, mimeType: upload.mimeType,
                progress: { [weak self] fraction in
                    Task { @MainActor in self?.uploadProgressed(id, fraction) }
                })
            uploads.removeAll { $0.id == id }
            rebuild()
            return sent == nil ? .ignored : .done
        } catch {
            if error.code == .uploadCancelled {
                uploads.removeAll { $0.id == id }
                rebuild()
                return .ignored
            }
            if [.attachmentTypeNotAllowed, .attachmentTooLarge, .featureDisabled, .unsupportedFeature].contains(
                error.code)
            {
                uploads.removeAll { $0.id == id }
                rebuild()
                return fail(error)
            }
            if let index = uploads.firstIndex(where: { $0.id == id }) {
                uploads[index].failure = (strings[.uploadFailed], error)
                uploads[index].clientId = nil
                uploads[index].retrying = false
            }
            rebuild()
            return .failed(error)
        }
    }

    private func uploadProgressed(_ id: String, _ fraction: Double) {
        guard let index = uploads.firstIndex(where: { $0.id == id }), uploads[index].failure == nil,
            fraction > uploads[index].progress
        else { return }
        uploads[index].progress = fraction
        rebuild()
    }

    /// Stops an upload under way (the row's cancel button, ``UploadRow/canCancel``): its row goes.
    @discardableResult
    public func cancelUpload(_ rowId: String) async -> IntentOutcome {
        let clientId = uploads.first { $0.id == rowId }?.clientId ?? resumedUploads.first { $0.id == rowId }?.id
        guard let clientId else { return .ignored }
        await conversation.cancelUpload(clientId)
        return .done
    }

    // MARK: Retry

    /// Sends again a message whose delivery failed (its row is replaced by the new message's), or uploads again a
    /// file whose upload failed.
    @discardableResult
    public func retry(_ rowId: String) async -> IntentOutcome {
        if let index = uploads.firstIndex(where: { $0.id == rowId }), uploads[index].failure != nil {
            uploads[index].failure = nil
            uploads[index].progress = 0
            rebuild()
            return await runUpload(rowId)
        }
        guard let message = messages.first(where: { $0.id == rowId }), message.delivery == .failed,
            case .user(let envelope) = message.envelope
        else {
            return fail(ParleyError(.nothingToRetry, "\(rowId) is not a failed message or upload"))
        }
        hideRetried(rowId)
        do {
            let sent = try await conversation.send(envelope.payload)
            rebuild()
            return sent == nil ? .ignored : .done
        } catch {
            return fail(error)
        }
    }

    // MARK: Language, clearing, ending

    /// Chooses the chat language (``Conversation/setPrimaryLanguage(_:)``; `nil` for "Detect Language"). The
    /// conversation starts over, and the screen's texts follow the language.
    @discardableResult
    public func pickLanguage(_ tag: String?) async -> IntentOutcome {
        do {
            try await conversation.setPrimaryLanguage(tag)
            return .done
        } catch {
            return fail(error)
        }
    }

    /// Empties the conversation (``Conversation/clearMessages()``): the header's clear button, which
    /// `enableClearMessage` shows. Fails with ``ParleyError/Code/featureDisabled`` when the flag is off.
    @discardableResult
    public func clear() async -> IntentOutcome {
        guard screenOptions.enableClearMessage else {
            return fail(ParleyError(.featureDisabled, "clearing messages is switched off (enableClearMessage)"))
        }
        do {
            try await conversation.clearMessages()
            return .done
        } catch {
            return fail(error)
        }
    }

    /// The header's close button (`enableEndConversation`): shows ``endConversationPrompt``. Fails with
    /// ``ParleyError/Code/featureDisabled`` when the flag is off.
    @discardableResult
    public func requestEndConversation() -> IntentOutcome {
        guard screenOptions.enableEndConversation else {
            return fail(
                ParleyError(.featureDisabled, "ending the conversation is switched off (enableEndConversation)"))
        }
        setEndConversationPrompt(makeEndConversationPrompt())
        return .done
    }

    /// The prompt's confirming button: ends the conversation (``Conversation/endChat()``).
    @discardableResult
    public func confirmEndConversation() async -> IntentOutcome {
        guard endConversationPrompt != nil else { return .ignored }
        setEndConversationPrompt(nil)
        do {
            try await conversation.endChat()
            return .done
        } catch {
            return fail(error)
        }
    }

    /// The prompt's cancelling button: the conversation goes on.
    public func cancelEndConversation() {
        setEndConversationPrompt(nil)
    }

    // MARK: Speech

    /// The microphone button, for a button's action: starts ``startSpeechInput()`` in a task and returns at once.
    /// Without the microphone (``Composer/showsMicrophone`` is `false`) it fails with
    /// ``ParleyError/Code/speechUnavailable`` (`parley_speech_unavailable`).
    @discardableResult
    public func startSpeech() -> IntentOutcome {
        guard composer.showsMicrophone else { return failSpeechUnavailable() }
        Task { await startSpeechInput() }
        return .done
    }

    /// The microphone button: asks the conversation to listen. ``speech`` then follows the recording — the popup
    /// with `odais_speech_start`, the partial text, the level; the final text is sent
    /// (`enableAutoSendSpeechResponse`) or put in ``draft`` for the user to edit. A refused permission or an
    /// unsupported locale shows an alert (`odais_speech_permission_denied`, `odais_speech_unsupported_locale`).
    @discardableResult
    public func startSpeechInput() async -> IntentOutcome {
        guard composer.showsMicrophone else { return failSpeechUnavailable() }
        do {
            try await conversation.startRecording()
            return .done
        } catch {
            return fail(error)
        }
    }

    /// The popup's SEND (`odais_speech_send`): stops listening; the final text follows. For a button's action.
    @discardableResult
    public func stopSpeech() -> IntentOutcome {
        guard speech.isActive else { return .ignored }
        Task { await conversation.stopRecording() }
        return .done
    }

    /// The popup's SEND, awaited: the conversation has closed the microphone when it returns.
    @discardableResult
    public func stopSpeechInput() async -> IntentOutcome {
        guard speech.isActive else { return .ignored }
        await conversation.stopRecording()
        return .done
    }

    /// The popup's CANCEL (`odais_speech_cancel`): stops listening and drops what was said.
    @discardableResult
    public func cancelSpeech() async -> IntentOutcome {
        guard speech.isActive else { return .ignored }
        await conversation.cancelRecording()
        return .done
    }

    /// The mute button: mutes or unmutes reading aloud (`enableSpeechSynthesis`).
    @discardableResult
    public func setSpeechMuted(_ muted: Bool) async -> IntentOutcome {
        guard speech.showsMuteButton else { return .ignored }
        await conversation.setSpeechSynthesisMuted(muted)
        return .done
    }

    private func failSpeechUnavailable() -> IntentOutcome {
        let why =
            screenOptions.enableSpeechRecognition
            ? "this conversation's backend has no speech" : "speech input is switched off (enableSpeechRecognition)"
        return fail(ParleyError(.speechUnavailable, why))
    }

    // MARK: Links

    /// Opens a link (a `url` action, a card's `url`, a link in a text) as ``Configuration/linkHandler`` says. A
    /// link that is not a URL shows `odais_check_url`.
    @discardableResult
    public func open(_ link: String) -> IntentOutcome {
        guard let url = URL(string: link.trimmingCharacters(in: .whitespaces)), url.scheme != nil else {
            return failLink(link)
        }
        switch configuration.linkHandler {
        case .webView: presentWebView(url)
        case .external: platform.openExternally(url)
        case .custom(let handler): handler(url)
        }
        return .done
    }

    /// Closes the web view.
    public func closeWebView() {
        setWebView(nil)
    }

    /// Removes the alert.
    public func dismissAlert() {
        clearAlert()
    }

    private func presentWebView(_ url: URL) {
        let settings = configuration.webViewConfiguration
        let palette = configuration.theme.light
        setWebView(
            WebViewPresentation(
                url: url, size: settings.size, closeButtonLabel: settings.clearButtonLabel ?? strings[.done],
                closeButtonIcon: settings.clearButtonIcon, closeButtonLabelColor: settings.clearButtonLabelColor,
                closeButtonColor: settings.clearButtonColor,
                headerColor: settings.webviewHeaderColor ?? palette.navigationBar,
                titleColor: settings.webviewTitleColor ?? palette.headerText))
    }

    private func failLink(_ link: String) -> IntentOutcome {
        fail(ParleyError(.invalidValue, "\"\(link)\" is not a URL"), message: strings[.checkURL])
    }

    // MARK: Avatars and agent

    /// Changes the user's avatar on every message, earlier ones included (``Conversation/setPersonAvatar(_:)``).
    public func setPersonAvatar(_ avatar: String?) async {
        await conversation.setPersonAvatar(avatar)
        setScreenOptions(await conversation.screenOptions)
    }

    /// Overrides what the server says about the live agent (``Conversation/setAgentDetails(_:)``): name, avatar,
    /// colours.
    public func setAgentDetails(_ details: AgentSession?) async {
        await conversation.setAgentDetails(details)
        setAgentDetailsMirror(await conversation.getAgentDetails())
    }
}
