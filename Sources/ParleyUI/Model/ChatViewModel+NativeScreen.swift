public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension ChatViewModel {
    // MARK: Composer

    /// The composer's trailing button: the microphone while the field is empty and speech input is on
    /// (``Composer/showsMicrophone``), else send, enabled when ``draft`` is not blank.
    public var composerButton: ComposerButton {
        let blank = draft.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        if blank, composer.showsMicrophone { return .microphone }
        return .send(isEnabled: !blank)
    }

    /// The text field changed, for a binding's setter: ``draft`` changes at once (so the field shows what was typed
    /// and a dictated text the user edits stays in one place), and a live agent is told in a task, as
    /// ``updateDraft(_:)`` does.
    public func editDraft(_ text: String) {
        guard text != draft else { return }
        setDraft(text)
        let conversation = conversation
        Task { _ = try? await conversation.sendUserTypingStatus(text.isEmpty ? .listening : .responding, text: text) }
    }

    /// ``draft`` as a text field edits it (`TextField(text: $model.composerText)` with `@Bindable var model`):
    /// reading is ``draft``, writing is ``editDraft(_:)``.
    public var composerText: String {
        get { draft }
        set { editDraft(newValue) }
    }

    // MARK: Presentations, for bindings

    /// Whether ``alert`` shows, for `alert(isPresented:)`; setting `false` dismisses it (``dismissAlert()``).
    public var isAlertPresented: Bool {
        get { alert != nil }
        set { if !newValue { dismissAlert() } }
    }

    /// Whether ``endConversationPrompt`` shows, for `alert(isPresented:)`. Setting `false` does nothing: the system
    /// hides an alert when one of its buttons is tapped, and the buttons (``confirmEndConversation()``,
    /// ``cancelEndConversation()``) say what happens; cancelling here would make the confirmation find no prompt.
    public var isEndConversationPromptPresented: Bool {
        get { endConversationPrompt != nil }
        set {}
    }

    /// ``webView`` for `sheet(item:)`; setting `nil` (the sheet swiped away) closes it (``closeWebView()``).
    public var presentedWebView: WebViewPresentation? {
        get { webView }
        set { if newValue == nil { closeWebView() } }
    }

    /// Whether ``popup`` shows, for `sheet(isPresented:)`; setting `false` dismisses it (``dismissPopup()``).
    public var isPopupPresented: Bool {
        get { popup != nil }
        set { if !newValue { dismissPopup() } }
    }

    // MARK: Reading aloud

    /// The mute button (``SpeechPresentation/showsMuteButton``, `enableSpeechSynthesis`); `nil` when it is hidden.
    public var muteButton: MuteButton? {
        guard speech.showsMuteButton else { return nil }
        return MuteButton(
            isMuted: speech.isMuted,
            accessibilityLabel: strings[
                speech.isMuted ? .accessLabelButtonAudioResponseOff : .accessLabelButtonAudioResponseOn])
    }

    /// The mute button's action: unmutes when muted, mutes when speaking.
    @discardableResult
    public func toggleSpeechMuted() async -> IntentOutcome {
        await setSpeechMuted(!speech.isMuted)
    }

    // MARK: App bar

    /// The app bar's buttons, in order: the language menu, clear, end. A SwiftUI toolbar and a UIKit navigation bar
    /// draw the same list.
    public var headerButtons: [HeaderButton] {
        var buttons: [HeaderButton] = []
        if let languageMenu { buttons.append(.language(languageMenu)) }
        if header.showsClearButton { buttons.append(.clear(accessibilityLabel: header.clearButtonAccessibilityLabel)) }
        if header.showsEndConversationButton {
            buttons.append(.endConversation(label: header.endConversationButtonLabel))
        }
        return buttons
    }

    // MARK: The app's life

    /// The app went to the background: the conversation's ``Conversation/applicationDidEnterBackground()`` (a
    /// `ChatClient` closes its socket; other backends keep what they have).
    public func sceneDidEnterBackground() async {
        await conversation.applicationDidEnterBackground()
    }

    /// The app is back: the conversation's ``Conversation/applicationWillEnterForeground()`` (a `ChatClient`
    /// reconnects and delivers what waited).
    public func sceneWillEnterForeground() async {
        await conversation.applicationWillEnterForeground()
    }

    // MARK: Attachments

    /// Downloads an attachment to a temporary file, named as the attachment, for a viewer that needs a local file
    /// (Quick Look). A failed download shows an alert (`odais_error`) and returns `nil`.
    /// - Parameters:
    ///   - attachment: The attachment of a message row.
    ///   - session: The session that downloads.
    public func downloadAttachment(_ attachment: AttachmentContent, session: URLSession = .shared) async -> URL? {
        guard let url = URL(string: attachment.url), url.scheme != nil else {
            fail(ParleyError(.invalidValue, "\"\(attachment.url)\" is not a URL"), message: strings[.checkURL])
            return nil
        }
        do {
            let data: Data
            if url.isFileURL {
                // Already on the device (Linux's URLSession has no file:// loads).
                data = try Data(contentsOf: url)
            } else {
                let (body, response) = try await session.data(from: url)
                if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                    throw ParleyError(.attachmentDownloadFailed, "the attachment's server answered \(http.statusCode)")
                }
                data = body
            }
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("parley-attachments", isDirectory: true)
                .appendingPathComponent(UUID().uuidString, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent(Self.fileName(of: attachment, url: url))
            try data.write(to: file)
            return file
        } catch let error as ParleyError {
            fail(error)
            return nil
        } catch {
            fail(ParleyError(.attachmentDownloadFailed, "the attachment could not be downloaded: \(error)"))
            return nil
        }
    }

    /// The attachment's file name: its title when that looks like a file name, else the URL's last component.
    static func fileName(of attachment: AttachmentContent, url: URL) -> String {
        let fromURL = url.lastPathComponent
        if let title = attachment.title, !title.isEmpty, !title.contains("/"), title.contains(".") { return title }
        return fromURL.isEmpty || fromURL == "/" ? "attachment" : fromURL
    }
}
