public import Foundation

/// A GMS chat (Chat API version 1 with Comet notifications), reported as Parley ``ChatEvent``s.
///
/// ```swift
/// let chat = ChatSession(configuration: try .init(startChat: chatDialogContent, service: service.configuration))
/// let events = await chat.events()
/// try await chat.start()
/// try await chat.send(text: "Hello")
/// for await event in events {
///     if case .messageReceived(let message) = event { print(message.payload.text ?? "") }
/// }
/// ```
///
/// How GMS events become Parley events:
/// - an agent's `Message.Text` → ``ChatEvent/messageReceived(_:)`` with a text payload, source `AGENT` and the
///   agent's name as `channelExtensions.agentSession`;
/// - `Notice.TypingStarted` / `Notice.TypingStopped` → a `status` payload `RESPONDING` / `LISTENING`;
/// - `Notice.Joined`, `Notice.Left`, `Notice.Custom`, `Notice.PushUrl` and unknown kinds → a text message
///   ("Kristi Sippola has joined the session") whose `channelExtensions.gmsEvent` names the kind;
/// - the customer's own lines acknowledge the message sent (``ChatEvent/deliveryChanged(_:)``);
/// - `chatIxnState: DISCONNECTED` → ``ChatEvent/chatEnded``.
/// Lines are de-duplicated and ordered by `transcriptPosition` (``TranscriptTracker``); after the Comet session
/// is lost and handshaken again, a `refresh` fetches what was missed.
///
/// Backgrounding: ``enterBackground()`` sends `/meta/disconnect` with `ext.transcriptPosition` (what GMS
/// documents for apps that go to the background); ``enterForeground()`` opens a new Comet session and refreshes.
public actor ChatSession {
    /// Where the chat lives.
    public struct Configuration: Sendable {
        /// Where the interaction is created (`_start_chat_url`, `…/service/{id}/ixn/chat`); the operations are
        /// `…/send`, `…/refresh`, `…/startTyping`, `…/stopTyping`, `…/disconnect` under it unless a verbose
        /// answer names other URLs.
        public var startChatURL: URL
        /// The CometD endpoint (`_comet_url`).
        public var cometURL: URL
        /// The `gms_user` header for every request, Comet included.
        public var gmsUser: String?
        /// Form fields for creating the chat (`firstName`, `lastName`, `email`, `subject`, …).
        public var parameters: [String: String]
        /// The Comet client's behaviour.
        public var bayeux: BayeuxSession.Configuration

        /// A configuration.
        public init(
            startChatURL: URL, cometURL: URL, gmsUser: String? = nil, parameters: [String: String] = [:],
            bayeux: BayeuxSession.Configuration = .init()
        ) {
            self.startChatURL = startChatURL
            self.cometURL = cometURL
            self.gmsUser = gmsUser
            self.parameters = parameters
            self.bayeux = bayeux
        }

        /// The configuration a `StartChat` dialog describes; relative URLs resolve against the service's server.
        /// - Throws: ``ParleyError/Code/missingField`` when the dialog has no start-chat or Comet URL.
        public init(startChat: StartChat, service: CallbackService.Configuration) throws(ParleyError) {
            let resolver = CallbackService(configuration: service)
            guard let start = startChat.startChatURL.flatMap(resolver.resolve) else {
                throw ParleyError(.missingField, "the StartChat dialog has no _start_chat_url")
            }
            guard let comet = startChat.cometURL.flatMap(resolver.resolve) else {
                throw ParleyError(.missingField, "the StartChat dialog has no _comet_url")
            }
            var parameters: [String: String] = [:]
            for member in startChat.parameters {
                parameters[member.key] = member.value.stringValue ?? member.value.jsonString()
            }
            self.init(
                startChatURL: start, cometURL: comet, gmsUser: startChat.userHeader ?? service.gmsUser,
                parameters: parameters)
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    private let web: any WebClient
    private let clock: any Clock<Duration>

    private var comet: BayeuxClient?
    private var cometTask: Task<Void, Never>?
    private var subscribers = EventSubscribers<ChatEvent>()
    private var tracker = TranscriptTracker()
    private var actionURLs: [String: URL] = [:]
    private var genesysSubscribed = false
    private var subscribedWaiters: [CheckedContinuation<Void, any Error>] = []
    private var handshakes = 0
    private var pendingSends: [ChatMessage] = []
    /// Whether the chat was created and has not ended.
    public private(set) var isActive = false
    /// Whether GMS said the chat is over.
    public private(set) var hasEnded = false
    /// The connection status last reported.
    public private(set) var status: ConnectionStatus = .disconnected
    /// Every transcript line shown so far, in order, without repeats.
    public private(set) var transcript: [TranscriptEntry] = []

    /// A chat; nothing happens until ``start()``.
    /// - Parameters:
    ///   - configuration: Where the chat lives.
    ///   - web: How requests are sent; default ``URLSessionWebClient``.
    ///   - clock: The clock for Comet retries.
    public init(
        configuration: Configuration, web: any WebClient = URLSessionWebClient(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        self.web = web
        self.clock = clock
    }

    /// The highest transcript position shown: what `refresh` and the background `/meta/disconnect` carry.
    public var transcriptPosition: Int { tracker.highWater }

    /// A new sequence of every event from now on.
    public func events() -> AsyncStream<ChatEvent> {
        subscribers.subscribe { id in Task { await self.removeSubscriber(id) } }
    }

    // MARK: Operations

    /// Opens a Comet session subscribed to `/_genesys`, then creates the chat interaction (`notify_by=comet`).
    /// - Throws: ``ParleyError`` when the Comet session or the create request fails.
    public func start() async throws(ParleyError) {
        guard !isActive else { return }
        hasEnded = false
        try await openComet()
        var fields: [(String, String)] = [("_verbose", "true"), ("notify_by", "comet")]
        fields += configuration.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let update = try await post(configuration.startChatURL, fields)
        // A DISCONNECTED event may overtake the create answer: the chat then stays ended.
        if !hasEnded { isActive = true }
        try await absorb(update)
    }

    /// Sends a text message; it is reported as ``ChatEvent/messageSent(_:)``, then ``ChatEvent/deliveryChanged(_:)``
    /// when GMS takes it (`sent`) and when it shows in the transcript (`acknowledged`).
    /// - Throws: ``ParleyError/Code/gmsChatNotActive`` before ``start()`` or after the end; what the request throws.
    @discardableResult
    public func send(text: String) async throws(ParleyError) -> ChatMessage {
        try checkActive()
        var message = ChatMessage(envelope: .user(UserMessage(payload: .text(text))), delivery: .pending)
        emit(.messageSent(message))
        pendingSends.append(message)
        do {
            let update = try await post(operationURL("SEND", "send"), [("message", text), ("_verbose", "true")])
            if let index = pendingSends.firstIndex(where: { $0.id == message.id }),
                pendingSends[index].delivery == .pending
            {
                pendingSends[index].delivery = .sent
                message = pendingSends[index]
                emit(.deliveryChanged(message))
            }
            try await absorb(update)
        } catch {
            pendingSends.removeAll { $0.id == message.id }
            message.delivery = .failed
            emit(.deliveryChanged(message))
            throw error
        }
        return message
    }

    /// Tells the agent the customer is typing.
    public func startTyping() async throws(ParleyError) {
        try checkActive()
        try await absorb(post(operationURL("START_TYPING", "startTyping"), [("_verbose", "true")]))
    }

    /// Tells the agent the customer stopped typing.
    public func stopTyping() async throws(ParleyError) {
        try checkActive()
        try await absorb(post(operationURL("STOP_TYPING", "stopTyping"), [("_verbose", "true")]))
    }

    /// Asks GMS for the transcript from ``transcriptPosition`` on; repeats are dropped, gaps are given up.
    public func refresh() async throws(ParleyError) {
        try checkActive()
        let update = try await post(
            operationURL("REFRESH", "refresh"),
            [("transcriptPosition", String(tracker.highWater)), ("message", ""), ("_verbose", "true")])
        try await absorb(update, flushing: true)
    }

    /// Ends the chat on GMS and closes the Comet session; ``ChatEvent/chatEnded`` follows.
    public func disconnect() async throws(ParleyError) {
        try checkActive()
        let update = try await post(operationURL("DISCONNECT", "disconnect"), [("_verbose", "true")])
        try await absorb(update)
        if !hasEnded { end() }
        await closeComet(ext: nil)
    }

    /// The app goes to the background: `/meta/disconnect` with `ext.transcriptPosition`, so that GMS knows the app
    /// is away (rather than letting the long poll die), and no Comet session until ``enterForeground()``.
    public func enterBackground() async {
        guard isActive, comet != nil else { return }
        await closeComet(ext: ["transcriptPosition": .string(String(tracker.highWater))])
    }

    /// The app is back: a new Comet session, then a `refresh` for what happened meanwhile.
    /// - Throws: When the Comet session or the refresh fails.
    public func enterForeground() async throws(ParleyError) {
        guard isActive, comet == nil else { return }
        try await openComet()
        try await refresh()
    }

    // MARK: Comet

    private func openComet() async throws(ParleyError) {
        var headers: [String: String] = [:]
        if let user = configuration.gmsUser { headers["gms_user"] = user }
        let client = BayeuxClient(
            configuration: .init(url: configuration.cometURL, headers: headers, session: configuration.bayeux),
            web: web, clock: clock)
        comet = client
        handshakes = 0
        genesysSubscribed = false
        let events = await client.events()
        cometTask = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.cometEvent(event, from: client)
            }
        }
        await client.subscribe(.genesys)
        await client.start()
        guard !genesysSubscribed else { return }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                subscribedWaiters.append(continuation)
            }
        } catch let error as ParleyError {
            await closeComet(ext: nil)
            throw error
        } catch {
            await closeComet(ext: nil)
            throw ParleyError(.connectionFailed, "\(error)")
        }
    }

    private func closeComet(ext: JSONObject?) async {
        guard let client = comet else { return }
        comet = nil
        await client.disconnect(ext: ext)
        cometTask?.cancel()
        cometTask = nil
        setStatus(.disconnected)
    }

    private func cometEvent(_ event: BayeuxClient.Event, from client: BayeuxClient) async {
        guard client === comet else { return }
        switch event {
        case .message(let message):
            guard message.channel == .genesys, let data = message.data else { return }
            do {
                let notification = try ChatNotification(json: data)
                try await absorb(notification.update)
            } catch {
                emit(.error(error))
            }
        case .stateChanged(let state):
            switch state {
            case .connected: setStatus(.connected)
            case .handshaking, .connecting: setStatus(.connecting)
            case .unconnected, .disconnected: setStatus(.disconnected)
            }
        case .handshook:
            handshakes += 1
        case .subscribed(let channel):
            guard channel == .genesys else { return }
            genesysSubscribed = true
            let waiters = subscribedWaiters
            subscribedWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
            // After a lost session, what was published meanwhile went nowhere: fetch it.
            if handshakes > 1, isActive, !hasEnded {
                do { try await refresh() } catch { emit(.error(error)) }
            }
        case .error(let error):
            if await client.state == .disconnected {
                let waiters = subscribedWaiters
                subscribedWaiters.removeAll()
                for waiter in waiters { waiter.resume(throwing: error) }
            }
            emit(.error(error))
        }
    }

    // MARK: Updates

    private func absorb(_ update: ChatUpdate, flushing: Bool = false) async throws(ParleyError) {
        for name in ["SEND", "REFRESH", "START_TYPING", "STOP_TYPING", "DISCONNECT"] {
            if let address = update.actionURL(name), let url = URL(string: address), url.scheme != nil {
                actionURLs[name] = url
            }
        }
        var released = tracker.accept(update.entries)
        if flushing { released += tracker.flush() }
        for entry in released { show(entry) }
        guard !hasEnded else { return }
        let behind = (update.transcriptPosition ?? 0) > tracker.highWater
        if update.state == .disconnected {
            // The answer can overtake the Comet events before it: fetch the last lines before ending.
            if behind, !flushing { try? await refresh() }
            if !hasEnded {
                end()
                await closeComet(ext: nil)
            }
        } else if tracker.hasGap, !flushing, isActive {
            try await refresh()
        }
    }

    private func show(_ entry: TranscriptEntry) {
        transcript.append(entry)
        let id = "gms-\(entry.position.map(String.init) ?? UUID().uuidString)"
        let fromCustomer = entry.partyType == .client
        switch entry.kind {
        case .text where fromCustomer:
            if let index = pendingSends.firstIndex(where: { $0.payload.text == entry.text }) {
                var message = pendingSends.remove(at: index)
                message.delivery = .acknowledged
                emit(.deliveryChanged(message))
            }
        case _ where fromCustomer:
            return  // the customer's own notices (joined, typing): the app knows
        case .text:
            emit(.messageReceived(message(id, .text(entry.text), entry)))
        case .typingStarted, .typingStopped:
            let status: TypingStatus = entry.kind == .typingStarted ? .responding : .listening
            let payload = MessagePayload(.status(.init(status, partyType: entry.partyType.rawValue)))
            emit(.messageReceived(message(id, payload, entry)))
        default:
            let text =
                entry.kind == .pushURL
                ? entry.text
                : [entry.nickname, entry.text].filter { !$0.isEmpty }
                    .joined(separator: " ")
            emit(.messageReceived(message(id, .text(text), entry)))
        }
    }

    private func message(_ id: String, _ payload: MessagePayload, _ entry: TranscriptEntry) -> ChatMessage {
        var payload = payload
        var extensions = payload.channelExtensions ?? ChannelExtensions()
        extensions.values["agentSession"] = AgentSession(name: entry.nickname).jsonValue
        if entry.kind != .text { extensions.values["gmsEvent"] = .string(entry.kind.rawValue) }
        extensions.values["gmsPartyType"] = .string(entry.partyType.rawValue)
        payload.channelExtensions = extensions
        let source: MessageSource = entry.partyType == .external ? .bot : .agent
        return ChatMessage(
            id: id, envelope: .skill(SkillMessage(payload: payload, source: source, msgId: id)))
    }

    private func end() {
        hasEnded = true
        isActive = false
        emit(.chatEnded)
    }

    // MARK: HTTP

    private func checkActive() throws(ParleyError) {
        guard isActive else {
            throw ParleyError(.gmsChatNotActive, hasEnded ? "the chat has ended" : "call start() first")
        }
    }

    private func operationURL(_ name: String, _ path: String) -> URL {
        actionURLs[name] ?? configuration.startChatURL.appendingPathComponent(path)
    }

    private func post(_ url: URL, _ fields: [(String, String)]) async throws(ParleyError) -> ChatUpdate {
        var headers: [String: String] = [:]
        if let user = configuration.gmsUser { headers["gms_user"] = user }
        let response: WebResponse
        do {
            response = try await web.send(.form(url: url, fields: fields, headers: headers))
        } catch {
            throw ParleyError(.connectionFailed, "POST \(url) failed: \(error)", underlying: error)
        }
        guard response.isSuccess else {
            throw ParleyError(.gmsHTTPStatus, "POST \(url) answered HTTP \(response.status)")
        }
        do {
            return try ChatUpdate(json: JSONValue(parsingLeniently: response.body))
        } catch {
            throw ParleyError(.gmsBadResponse, "\(url) did not answer with a chat update: \(error)", underlying: error)
        }
    }

    // MARK: Events

    private func setStatus(_ new: ConnectionStatus) {
        guard new != status else { return }
        status = new
        emit(.statusChanged(new))
    }

    private func removeSubscriber(_ id: Int) { subscribers.remove(id) }

    private func emit(_ event: ChatEvent) {
        subscribers.yield(event)
    }
}
