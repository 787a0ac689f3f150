import Foundation
public import Observation

/// What a chat screen shows, and what the user can do on it: the presentation model of a ``Conversation`` — a
/// `ChatClient` (ParleyClient) to Parley's or Oracle's server, or any other backend (a Genesys chat, for instance).
/// ParleyUI links no transport: it speaks ParleyConversation only.
///
/// The model follows the conversation's events, transcript and status and turns them into ``rows`` (message bubbles,
/// cards, forms, attachments, day headers, the typing indicator), the ``header``, the ``connectionBanner``, the
/// ``languageMenu`` and the ``composer``, obeying the conversation's ``Conversation/screenOptions`` (Oracle's
/// `BotsConfiguration` flags) and the visual ones of its own ``Configuration``. A view only draws these and calls the
/// intents (``send(text:)``, ``perform(_:in:)``, ``submitForm(_:postback:)``…); every intent calls the conversation.
/// What the backend cannot do (``Conversation/capabilities``) is not offered: no attach button without attachments, no
/// language menu without languages, no end button without ending.
///
/// ```swift
/// let model = ChatViewModel(client: client)
/// await model.start()                       // follows the client from now on
/// await model.send(text: "Order pizza")
/// for row in model.rows { print(row.id) }
/// ```
///
/// It is `@MainActor`: it is presentation state, read by views on the main thread, and `@Observable`, so SwiftUI
/// redraws what reads a property that changed (UIKit code observes it with `withObservationTracking`). It needs no
/// UI framework and is tested on Linux.
@MainActor
@Observable
public final class ChatViewModel {
    /// The conversation the screen shows.
    public let conversation: any Conversation
    /// The visual settings; a change redraws everything.
    public var configuration: Configuration {
        didSet { rebuild() }
    }
    /// What the platform does for the model (open a URL, find the location, share).
    @ObservationIgnored public var platform: PlatformActions

    /// The message list, top to bottom.
    public private(set) var rows: [ChatRow] = []
    /// The app bar.
    public private(set) var header: Header
    /// The connection status to show (`showConnectionStatus`); `nil` when the flag is off.
    public private(set) var connectionBanner: ConnectionBanner?
    /// The client's connection status, whatever `showConnectionStatus` says.
    public private(set) var status: ConnectionStatus = .disconnected
    /// The language menu (`multiLangChat` with two languages or more); `nil` without one.
    public private(set) var languageMenu: LanguageMenu?
    /// The composer.
    public private(set) var composer: Composer
    /// What the user is typing; ``updateDraft(_:)`` changes it and tells a live agent.
    public private(set) var draft = ""
    /// The confirmation to show before ending the conversation (``requestEndConversation()``); `nil` when none.
    public private(set) var endConversationPrompt: EndConversationPrompt?
    /// Whether the conversation ended (the user ended it, or the server closed the session); the next message the
    /// user sends starts a new one.
    public private(set) var conversationEnded = false
    /// An alert to show; ``dismissAlert()`` removes it.
    public private(set) var alert: ChatAlert?
    /// A page to show in the chat's web view (``LinkHandler/webView``, a `webview` action); ``closeWebView()``.
    public private(set) var webView: WebViewPresentation?
    /// A message to show in a dialog (a `popup` action); ``dismissPopup()``.
    public private(set) var popup: MessagePayload?
    /// What the user entered in each edit form, by row id.
    public private(set) var formDrafts: [String: FormDraft] = [:]
    /// What is wrong in each edit form, by row id, then field id (shown by the field).
    public private(set) var formProblems: [String: [String: String]] = [:]
    /// The texts in the screen's language.
    public private(set) var strings = Strings()
    /// Speech input and reading aloud: the popup while listening, the partial text, the level, the mute.
    public private(set) var speech = SpeechPresentation()

    // Mirrors of the conversation's state.
    private(set) var messages: [ChatMessage] = []
    private(set) var screenOptions = ScreenOptions()
    private(set) var capabilities: ConversationCapabilities = []
    private var typing: TypingIndicator?
    private var agentDetails: AgentSession?
    private(set) var chatLanguage: String?
    /// Failed messages sent again: their rows are hidden.
    private var retriedMessageIds: Set<String> = []
    var uploads: [PendingUpload] = []
    var uploadCounter = 0
    /// Uploads under way that the model did not start (resumed by the client after a restart), by client id.
    var resumedUploads: [Upload] = []

    @ObservationIgnored private let clock: DisplayClock
    @ObservationIgnored private var eventTask: Task<Void, Never>?
    @ObservationIgnored private var transcriptTask: Task<Void, Never>?
    @ObservationIgnored private var statusTask: Task<Void, Never>?
    @ObservationIgnored private var refreshTask: Task<Void, Never>?

    /// A model of `client`'s screen (any conversation: a `ChatClient`, as Oracle's samples name it, or another
    /// backend). It shows nothing until ``start()``.
    /// - Parameters:
    ///   - client: The conversation.
    ///   - configuration: The visual settings.
    ///   - platform: What the platform does for the model.
    ///   - clock: Where relative timestamps read the time and wait for their next change.
    public convenience init(
        client: some Conversation, configuration: Configuration = Configuration(),
        platform: PlatformActions = PlatformActions(), clock: DisplayClock = .system
    ) {
        self.init(conversation: client, configuration: configuration, platform: platform, clock: clock)
    }

    /// A model of `conversation`'s screen. It shows nothing until ``start()``.
    /// - Parameters:
    ///   - conversation: The conversation, on any backend.
    ///   - configuration: The visual settings.
    ///   - platform: What the platform does for the model.
    ///   - clock: Where relative timestamps read the time and wait for their next change (inject one built on a
    ///     ``VirtualClock`` to test them).
    public init(
        conversation: any Conversation, configuration: Configuration = Configuration(),
        platform: PlatformActions = PlatformActions(), clock: DisplayClock = .system
    ) {
        self.conversation = conversation
        self.configuration = configuration
        self.platform = platform
        self.clock = clock
        header = Header(
            title: "", titleAccessibilityLabel: "", showsClearButton: false, clearButtonAccessibilityLabel: "",
            showsEndConversationButton: false, endConversationButtonLabel: "")
        composer = Composer(
            placeholder: "", sendAccessibilityLabel: "", showsAttachButton: false, attachAccessibilityLabel: "",
            shareMenu: [], showsMicrophone: false, microphoneAccessibilityLabel: "")
        rebuild()
    }

    /// Reads the conversation's state (screen options, transcript, status, typing, agent, language) and follows its
    /// events, transcript and status from then on. Calling it again does nothing. Call it before or after
    /// ``Conversation/initialize()``.
    public func start() async {
        guard eventTask == nil else { return }
        let events = await conversation.events()
        eventTask = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        }
        transcriptTask = await follow(await conversation.transcriptUpdates()) { model, messages in
            model.messages = messages
        }
        statusTask = await follow(await conversation.statusUpdates()) { model, status in
            model.status = status
        }
        await reload()
    }

    /// Stops following the conversation (the rows stay as they are).
    public func stop() {
        eventTask?.cancel()
        eventTask = nil
        transcriptTask?.cancel()
        transcriptTask = nil
        statusTask?.cancel()
        statusTask = nil
        refreshTask?.cancel()
        refreshTask = nil
    }

    /// Applies the first element of `updates` now (a conversation's update sequences start with the current value)
    /// and each later one as it comes, redrawing after each.
    private func follow<Value: Sendable>(
        _ updates: AsyncStream<Value>, _ apply: @escaping @MainActor (ChatViewModel, Value) -> Void
    ) async -> Task<Void, Never> {
        var iterator = updates.makeAsyncIterator()
        if let first = await iterator.next(isolation: #isolation) { apply(self, first) }
        return Task { [weak self, iterator] in
            var iterator = iterator
            while let value = await iterator.next(isolation: #isolation) {
                guard let self else { return }
                apply(self, value)
                self.rebuild()
            }
        }
    }

    /// Reads the conversation's state again (the transcript and status arrive by their own sequences) and redraws.
    func reload() async {
        capabilities = await conversation.capabilities
        screenOptions = await conversation.screenOptions
        typing = await conversation.typingIndicator
        agentDetails = await conversation.getAgentDetails()
        chatLanguage = await conversation.chatLanguage
        speech.isMuted = await conversation.isSpeechSynthesisMuted
        rebuild()
    }

    private func handle(_ event: ChatEvent) async {
        switch event {
        case .statusChanged, .messageReceived, .messageUpdated, .deliveryChanged:
            return  // the status and transcript sequences bring the new state
        case .messageSent:
            conversationEnded = false
        case .transcriptCleared:
            formDrafts = [:]
            formProblems = [:]
            retriedMessageIds = []
        case .typingChanged(let indicator):
            typing = indicator
        case .agentChanged:
            agentDetails = await conversation.getAgentDetails()
        case .languageChanged(let language):
            chatLanguage = language
        case .chatEnded:
            conversationEnded = true
            endConversationPrompt = nil
        case .initialized, .destroyed:
            await reload()
            return
        case .uploadChanged(let upload):
            uploadChanged(upload)
        case .attachmentUploaded, .error:
            return
        case .recordingChanged, .speechResponseReceived, .audioLevel, .speechRecognized, .speechFailed,
            .speechSynthesisMuted, .speechSynthesisFailed:
            handleSpeech(event)  // the rows do not change
            return
        }
        rebuild()
    }

    /// Follows speech input and reading aloud.
    private func handleSpeech(_ event: ChatEvent) {
        switch event {
        case .recordingChanged(let state):
            if speech.state == .idle, state != .idle { speech.text = "" }
            speech.state = state
            if state == .idle || state == .finishing { speech.level = nil }
        case .speechResponseReceived(let text, _):
            speech.text = text
        case .audioLevel(let level):
            if speech.state == .recording { speech.level = level.dBFS }
        case .speechRecognized(let result, let sent):
            if !sent { setDraft(result.text) }
        case .speechFailed(let error):
            fail(error)
        case .speechSynthesisFailed(let error):
            fail(error, message: error.message)
        case .speechSynthesisMuted(let muted):
            speech.isMuted = muted
        default:
            break
        }
    }

    /// Follows the client's report of an upload: a row's retry state, or a resumed upload's own row.
    private func uploadChanged(_ upload: Upload) {
        var index = uploads.firstIndex { $0.clientId == upload.id }
        if index == nil, !resumedUploads.contains(where: { $0.id == upload.id }) {
            index = uploads.firstIndex {
                $0.clientId == nil && $0.failure == nil && $0.fileName == upload.fileName
                    && $0.data.count == upload.byteCount
            }
        }
        if let index {
            uploads[index].clientId = upload.id
            if case .waitingToRetry = upload.state { uploads[index].retrying = true }
            if case .uploading = upload.state { uploads[index].retrying = false }
            return
        }
        resumedUploads.removeAll { $0.id == upload.id }
        if !upload.state.isFinished { resumedUploads.append(upload) }
    }

    // MARK: Drawing

    /// The language of the texts: the chosen chat language, else the configured locale, else the device's.
    var effectiveLocale: String {
        chatLanguage ?? configuration.locale ?? Locale.current.identifier
    }

    /// The row builder for the current state.
    var rowBuilder: RowBuilder {
        RowBuilder(
            strings: strings, enableTimestamp: screenOptions.enableTimestamp,
            timestampMode: screenOptions.timestampMode, timestampFormat: screenOptions.timestampFormat,
            dayHeaderFormat: configuration.dayHeaderFormat, timeZone: configuration.timeZone,
            disablePastActions: screenOptions.disablePastActions, actionsLayout: configuration.actionsLayout,
            botAvatar: screenOptions.botAvatar, agentAvatar: screenOptions.agentAvatar,
            personAvatar: screenOptions.personAvatar, agentDetails: agentDetails, now: clock.now(),
            hiddenMessageIds: retriedMessageIds)
    }

    /// Recomputes everything shown from the mirrors, and plans the next change of a relative timestamp.
    func rebuild() {
        let flags = screenOptions
        strings = Strings(locale: effectiveLocale, overrides: configuration.strings)
        let builder = rowBuilder
        var rows = builder.rows(for: messages)
        rows.append(contentsOf: uploads.map(\.row))
        rows.append(contentsOf: resumedUploads.map { .upload(UploadRow(resumed: $0, strings: strings)) })
        if flags.showTypingStatus, let typing { rows.append(.typing(typingRow(typing))) }
        self.rows = rows
        prepareFormDrafts()
        header = Header(
            title: flags.title ?? strings[.chatTitle],
            titleAccessibilityLabel: "\(strings[.accessLabelChatTitle]) \(flags.title ?? strings[.chatTitle])",
            showsClearButton: flags.enableClearMessage, clearButtonAccessibilityLabel: strings[.accessLabelButtonClear],
            showsEndConversationButton: flags.enableEndConversation && capabilities.contains(.endConversation),
            endConversationButtonLabel: strings[.endConversationTitle])
        connectionBanner = flags.showConnectionStatus ? banner(for: status) : nil
        let attachments = flags.enableAttachment && capabilities.contains(.attachments)
        languageMenu = capabilities.contains(.languages) ? makeLanguageMenu(flags.multiLangChat) : nil
        composer = Composer(
            placeholder: strings[.writeAMessage], sendAccessibilityLabel: strings[.accessLabelButtonSend],
            showsAttachButton: attachments, attachAccessibilityLabel: strings[.accessLabelButtonAttach],
            shareMenu: attachments ? shareMenu(flags.shareMenuConfiguration) : [],
            showsMicrophone: flags.enableSpeechRecognition && capabilities.contains(.speech),
            microphoneAccessibilityLabel: strings[.accessLabelButtonSpeak])
        speech.listeningLabel = strings[.speechStart]
        speech.sendLabel = strings[.speechSend]
        speech.cancelLabel = strings[.speechCancel]
        speech.showsMuteButton = flags.enableSpeechSynthesis && capabilities.contains(.speech)
        if let prompt = endConversationPrompt, prompt.title != strings[.endConversationTitle] {
            endConversationPrompt = makeEndConversationPrompt()
        }
        scheduleRefresh(
            at: builder.timeUntilNextChange(for: messages).map { wait in
                builder.now.addingTimeInterval(
                    Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
            })
    }

    /// Redraws when the latest relative timestamp changes (the only thing that changes with time alone). The wait
    /// ends at a date, not after a duration, so a task that starts waiting late still wakes in time.
    private func scheduleRefresh(at date: Date?) {
        refreshTask?.cancel()
        refreshTask = nil
        guard let date else { return }
        let sleepUntil = clock.sleepUntil
        refreshTask = Task { [weak self] in
            do {
                try await sleepUntil(date)
            } catch {
                return
            }
            guard !Task.isCancelled else { return }
            self?.rebuild()
        }
    }

    private func typingRow(_ typing: TypingIndicator) -> TypingRow {
        switch typing {
        case .skill:
            return TypingRow(
                sender: .skill, text: strings[.typingStatus], name: nil,
                avatar: screenOptions.botAvatar.map(Avatar.image))
        case .agent(let details):
            let avatar = (details?.avatarImage ?? screenOptions.agentAvatar).map(Avatar.image)
            return TypingRow(sender: .agent, text: strings[.typingStatus], name: details?.name, avatar: avatar)
        }
    }

    private func banner(for status: ConnectionStatus) -> ConnectionBanner {
        let text: String =
            switch status {
            case .connected: strings[.connected]
            case .connecting: strings[.connecting]
            case .disconnected: strings[.disconnected]
            }
        return ConnectionBanner(
            status: status, text: text, accessibilityLabel: "\(strings[.accessLabelChatStatus]) \(text)")
    }

    private func makeLanguageMenu(_ languages: MultiLangChat?) -> LanguageMenu? {
        guard let supported = languages?.supportedLanguages, supported.count >= 2 else { return nil }
        let names = Locale(identifier: strings.locale)
        var items = [LanguageMenu.Item(tag: nil, label: strings[.detectLanguage], isSelected: chatLanguage == nil)]
        for language in supported {
            let name = names.localizedString(forIdentifier: language.lang).map { name in
                name.prefix(1).uppercased() + name.dropFirst()
            }
            items.append(
                LanguageMenu.Item(
                    tag: language.lang, label: language.label ?? name ?? language.lang,
                    isSelected: chatLanguage == language.lang))
        }
        return LanguageMenu(label: strings[.languageMenu], items: items, selected: chatLanguage)
    }

    private func shareMenu(_ configuration: ShareMenuConfiguration) -> [ShareMenuEntry] {
        let media = ["image/*", "video/*"]
        var builtIn = configuration.items
        if builtIn.isEmpty, configuration.customItems.isEmpty {
            builtIn = [.photoAndVideoLibrary, .files, .camera, .location]
        }
        var entries: [ShareMenuEntry] = builtIn.map { item in
            let (label, types): (String, [String]) =
                switch item {
                case .photoAndVideoLibrary: (strings[.photo], media)
                case .files: (strings[.files], [])
                case .camera: (strings[.camera], media)
                case .location: (strings[.shareLocation], [])
                default: (item.rawValue, [])
                }
            return ShareMenuEntry(
                kind: .builtIn(item), label: label, icon: nil, types: types, maxSize: ShareMenuConfiguration.maximumSize
            )
        }
        for (index, item) in configuration.customItems.enumerated() {
            entries.append(
                ShareMenuEntry(
                    kind: .custom(index: index), label: item.label ?? strings[.files], icon: item.icon,
                    types: item.types,
                    maxSize: min(item.maxSizeKiB.map { $0 * 1024 } ?? Int.max, ShareMenuConfiguration.maximumSize)))
        }
        return entries
    }

    func makeEndConversationPrompt() -> EndConversationPrompt {
        EndConversationPrompt(
            title: strings[.endConversationTitle], message: strings[.endConversationMessage],
            confirmLabel: strings[.endConversationConfirm], cancelLabel: strings[.endConversationCancel])
    }

    /// Makes a draft for every edit form that has none, or whose form changed (a `replaceMessage`).
    private func prepareFormDrafts() {
        var drafts: [String: FormDraft] = [:]
        for row in rows {
            guard case .message(let message) = row, case .editForm(let content) = message.content else { continue }
            let fresh = FormDraft(content.form)
            if let existing = formDrafts[message.id], existing.fields == fresh.fields {
                drafts[message.id] = existing
            } else {
                drafts[message.id] = fresh
                formProblems[message.id] = nil
            }
        }
        if drafts != formDrafts { formDrafts = drafts }
    }

    // MARK: For the intents

    func setFormDraft(_ draft: FormDraft, for rowId: String) {
        formDrafts[rowId] = draft
    }

    func setFormProblems(_ problems: [String: String]?, for rowId: String) {
        formProblems[rowId] = problems
    }

    func setDraft(_ text: String) {
        draft = text
    }

    func setEndConversationPrompt(_ prompt: EndConversationPrompt?) {
        endConversationPrompt = prompt
    }

    func setWebView(_ presentation: WebViewPresentation?) {
        webView = presentation
    }

    func setPopup(_ payload: MessagePayload?) {
        popup = payload
    }

    func hideRetried(_ id: String) {
        retriedMessageIds.insert(id)
    }

    func setScreenOptions(_ options: ScreenOptions) {
        screenOptions = options
        rebuild()
    }

    func setAgentDetailsMirror(_ details: AgentSession?) {
        agentDetails = details
        rebuild()
    }

    /// Shows `error` as an alert, with a text in the screen's language where there is one, and returns it as the
    /// intent's outcome.
    @discardableResult
    func fail(_ error: ParleyError, message: String? = nil) -> IntentOutcome {
        let message: String =
            if let message { message } else {
                switch error.code {
                case .attachmentTypeNotAllowed: strings[.fileNotSupported]
                case .attachmentTooLarge: strings[.fileSizeWarning]
                case .speechUnavailable: strings[.speechUnavailable]
                case "speech.permissionDenied": strings[.speechPermissionDenied]
                case "speech.unsupportedLocale": strings[.speechUnsupportedLocale]
                case .speechRecognitionFailed: strings[.speechRecognitionError]
                case .speechNoSpeech, .speechTooMuchSpeech: strings[.speechError]
                // ParleySpeech's codes, by value: a screen links no speech engine.
                case "speech.engineFailed", "speech.engineUnavailable": strings[.speechError]
                default: error.message
                }
            }
        let title =
            [.attachmentTypeNotAllowed, .attachmentTooLarge].contains(error.code)
                || error.code.rawValue.hasPrefix("speech.")
            ? strings[.alert] : strings[.error]
        alert = ChatAlert(title: title, message: message, dismissLabel: strings[.ok], error: error)
        return .failed(error)
    }

    func clearAlert() {
        alert = nil
    }
}
