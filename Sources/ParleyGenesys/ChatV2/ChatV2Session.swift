public import Foundation

/// A GMS chat over Chat API version 2 with CometD, reported as Parley ``ChatEvent``s: the same shape as
/// ``ChatSession`` (version 1), so an app can hold either.
///
/// ```swift
/// let chat = ChatV2Session(configuration: .init(
///     cometURL: URL(string: "http://gms.example:8080/genesys/cometd")!, serviceName: "customer-support",
///     nickname: "Ann"))
/// let events = await chat.events()
/// try await chat.start()
/// try await chat.send(text: "Hello")
/// for await event in events {
///     if case .messageReceived(let message) = event { print(message.payload.text ?? "") }
/// }
/// ```
///
/// Every operation is published as `{"operation": …, "secureKey": …}` on `/service/chatV2/{serviceName}`, and
/// GMS answers (and pushes the chat's events) on the same channel. Events become Parley events as in version 1
/// (see ``ChatV2Machine``): agent messages, typing as `status` payloads, notices as text with
/// `channelExtensions.gmsEvent`, the customer's own messages as acknowledgements, `chatEnded` as
/// ``ChatEvent/chatEnded``. Events are ordered and de-duplicated by `index`; after a lost Comet session, and back
/// from the background, `requestNotifications` asks for the transcript from the first index not shown.
public actor ChatV2Session {
    /// Where the chat lives and who the customer is.
    public struct Configuration: Sendable {
        /// The CometD endpoint (`…/genesys/cometd`).
        public var cometURL: URL
        /// The GMS chat service (`{serviceName}` in `/service/chatV2/{serviceName}`).
        public var serviceName: String
        /// The `gms_user` header for every Comet request.
        public var gmsUser: String?
        /// `nickname`, the name the agent sees.
        public var nickname: String?
        /// `firstName`.
        public var firstName: String?
        /// `lastName`.
        public var lastName: String?
        /// `emailAddress`.
        public var emailAddress: String?
        /// `subject`.
        public var subject: String?
        /// `userData` of `requestChat`: attached data for routing and the agent.
        public var userData: JSONObject
        /// How long `start()` waits for GMS to answer `requestChat`, and `disconnect()` for the chat's end.
        public var responseTimeout: Duration
        /// The Comet client's behaviour.
        public var bayeux: BayeuxSession.Configuration

        /// A configuration.
        public init(
            cometURL: URL, serviceName: String, gmsUser: String? = nil, nickname: String? = nil,
            firstName: String? = nil, lastName: String? = nil, emailAddress: String? = nil, subject: String? = nil,
            userData: JSONObject = [:], responseTimeout: Duration = .seconds(30),
            bayeux: BayeuxSession.Configuration = .init()
        ) {
            self.cometURL = cometURL
            self.serviceName = serviceName
            self.gmsUser = gmsUser
            self.nickname = nickname
            self.firstName = firstName
            self.lastName = lastName
            self.emailAddress = emailAddress
            self.subject = subject
            self.userData = userData
            self.responseTimeout = responseTimeout
            self.bayeux = bayeux
        }

        /// The configuration a `StartChat` dialog describes for the chat service `serviceName`: its `_comet_url`
        /// (resolved against the service's server), its `_user_header` (or the service's `gms_user`), and its
        /// `_chat_parameters`: `subject`, `nickname`, `firstName`, `lastName` and `emailAddress` are those fields,
        /// anything else goes to `userData`.
        /// - Throws: ``ParleyError/Code/missingField`` when the dialog has no Comet URL.
        public init(startChat: StartChat, service: CallbackService.Configuration, serviceName: String)
            throws(ParleyError)
        {
            let resolver = CallbackService(configuration: service)
            guard let comet = startChat.cometURL.flatMap(resolver.resolve) else {
                throw ParleyError(.missingField, "the StartChat dialog has no _comet_url")
            }
            self.init(cometURL: comet, serviceName: serviceName, gmsUser: startChat.userHeader ?? service.gmsUser)
            var userData: JSONObject = [:]
            for member in startChat.parameters {
                let text = member.value.stringValue ?? member.value.jsonString()
                switch member.key {
                case "subject": subject = text
                case "nickname": nickname = text
                case "firstName": firstName = text
                case "lastName": lastName = text
                case "emailAddress", "email": emailAddress = text
                default: userData.append(member.key, member.value)
                }
            }
            self.userData = userData
        }

        /// `/service/chatV2/{serviceName}`.
        public var channel: BayeuxChannel { BayeuxChannel(rawValue: "/service/chatV2/\(serviceName)") }

        /// The `requestChat` these settings make.
        public var requestChat: ChatV2Request {
            var builder = ObjectBuilder()
            builder.set("nickname", nickname)
            builder.set("firstName", firstName)
            builder.set("lastName", lastName)
            builder.set("emailAddress", emailAddress)
            builder.set("subject", subject)
            builder.set("userData", JSONValue.object(userData))
            return ChatV2Request(.requestChat, builder.finish().objectValue ?? [:])
        }
    }

    /// The configuration in use.
    public nonisolated let configuration: Configuration
    private let web: any WebClient
    private let clock: any Clock<Duration>

    private var machine = ChatV2Machine()
    private var comet: BayeuxClient?
    private var cometTask: Task<Void, Never>?
    private var subscribers = EventSubscribers<ChatEvent>()
    private var subscribed = false
    private var subscribedWaiters: [CheckedContinuation<Void, any Error>] = []
    private var startWaiter: CheckedContinuation<Void, any Error>?
    private var endWaiters: [CheckedContinuation<Void, Never>] = []
    private var handshakes = 0
    private var refreshTimer: Task<Void, Never>?
    /// Callers of ``refresh(from:)`` waiting for the answer to `requestNotifications`.
    private var refreshWaiters: [CheckedContinuation<Void, Never>] = []
    /// The connection status last reported.
    public private(set) var status: ConnectionStatus = .disconnected

    /// A chat; nothing happens until ``start()``.
    /// - Parameters:
    ///   - configuration: Where the chat lives.
    ///   - web: How requests are sent; default ``URLSessionWebClient``.
    ///   - clock: The clock for Comet retries and the answer timeouts.
    public init(
        configuration: Configuration, web: any WebClient = URLSessionWebClient(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        self.web = web
        self.clock = clock
    }

    /// Whether the chat was created and has not ended.
    public var isActive: Bool { machine.phase == .active }
    /// Whether the chat is over.
    public var hasEnded: Bool { machine.phase == .ended }
    /// The highest transcript index shown; the background `/meta/disconnect` carries it.
    public var transcriptPosition: Int { machine.highWater }
    /// Every transcript event shown so far, in order, without repeats.
    public var transcript: [ChatV2Event] { machine.transcript }
    /// `chatId`, once the chat started.
    public var chatID: String? { machine.chatID }
    /// `userId`, once the chat started.
    public var userID: String? { machine.userID }

    /// A new sequence of every event from now on.
    public func events() -> AsyncStream<ChatEvent> {
        subscribers.subscribe { id in Task { await self.removeSubscriber(id) } }
    }

    // MARK: Operations

    /// Opens a Comet session subscribed to the chat's channel, publishes `requestChat` and waits for GMS's answer.
    /// - Throws: ``ParleyError/Code/gmsChatRefused`` (with a ``ChatV2Failure``) when GMS refuses,
    ///   ``ParleyError/Code/gmsNoAnswer`` after ``Configuration/responseTimeout``, or the Comet session's error.
    public func start() async throws(ParleyError) {
        guard machine.phase == .idle || machine.phase == .ended else { return }
        if comet == nil { try await openComet() }
        let actions: [ChatV2Machine.Action]
        do { actions = try machine.handle(.requestChat(configuration.requestChat)) } catch { throw error }
        let clock = clock
        let timeout = configuration.responseTimeout
        let timer = Task { [weak self] in
            do { try await clock.sleep(for: timeout) } catch { return }
            await self?.applyReporting(.startTimedOut)
        }
        defer { timer.cancel() }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                startWaiter = continuation
                Task { await self.performStart(actions) }
            }
        } catch {
            await closeComet(ext: nil)
            throw error as? ParleyError ?? ParleyError(.connectionFailed, "\(error)")
        }
    }

    /// Sends a text message: reported as ``ChatEvent/messageSent(_:)``, then ``ChatEvent/deliveryChanged(_:)``
    /// `acknowledged` when it shows in the transcript (`failed` if the chat ends first).
    /// - Parameters:
    ///   - text: The message.
    ///   - messageType: `messageType`, for a deployment that routes on it.
    /// - Throws: ``ParleyError/Code/gmsChatNotActive`` before ``start()`` or after the end,
    ///   ``ParleyError/Code/bayeuxNotConnected`` in the background.
    @discardableResult
    public func send(text: String, messageType: String? = nil) async throws(ParleyError) -> ChatMessage {
        try checkConnected()
        let message = ChatMessage(envelope: .user(UserMessage(payload: .text(text))), delivery: .pending)
        do {
            try await apply(.send(message, messageType: messageType))
        } catch {
            await applyReporting(.sendFailed(message))
            throw error
        }
        return message
    }

    /// Tells the agent the customer is typing; `preview` is the draft, for agents that show it.
    public func startTyping(preview: String? = nil) async throws(ParleyError) {
        try await perform(.startTyping, preview.map { ["message": .string($0)] } ?? [:])
    }

    /// Tells the agent the customer stopped typing.
    public func stopTyping() async throws(ParleyError) { try await perform(.stopTyping) }

    /// Sends the agent a URL (`pushUrl`).
    public func pushURL(_ url: URL) async throws(ParleyError) {
        try await perform(.pushURL, ["pushUrl": .string(url.absoluteString)])
    }

    /// Changes the customer's name in the chat (`updateNickname`).
    public func updateNickname(_ nickname: String) async throws(ParleyError) {
        try await perform(.updateNickname, ["nickname": .string(nickname)])
    }

    /// Adds or changes the interaction's user data (`updateData`).
    public func updateData(_ userData: JSONObject) async throws(ParleyError) {
        try await perform(.updateData, ["userData": .object(userData)])
    }

    /// Sends the agent a custom notice (`customNotice`), for desktops customised to read it.
    public func sendCustomNotice(_ message: String) async throws(ParleyError) {
        try await perform(.customNotice, ["message": .string(message)])
    }

    /// Asks GMS for the transcript from the first index not shown (``refresh(from:)`` from
    /// ``transcriptPosition`` + 1) and waits for the answer; what it brings is reported as pushed events are.
    /// - Returns: The events GMS had beyond what was shown (usually none: pushed events arrive by themselves).
    /// - Throws: As ``refresh(from:)``.
    @discardableResult
    public func refresh() async throws(ParleyError) -> [ChatV2Event] {
        try await refresh(from: machine.nextPosition)
    }

    /// Asks GMS for the transcript from `position` on (`requestNotifications` with `transcriptPosition`, inclusive:
    /// GMS's transcript refresh) and waits for its answer, at most ``Configuration/responseTimeout``.
    ///
    /// Events in the answer that were not shown yet are reported (``ChatEvent/messageReceived(_:)`` and the rest) as
    /// pushed events are; those already shown are not reported again. A `position` beyond the first index not shown
    /// gives up the events before it, for an app that has them from elsewhere.
    /// - Parameter position: The first index wanted; 1 (or less) for the whole transcript.
    /// - Returns: GMS's transcript from `position` on, shown before or not, in index order.
    /// - Throws: ``ParleyError/Code/gmsChatNotActive`` before ``start()``, after the end, or when the chat ended
    ///   before the answer; ``ParleyError/Code/bayeuxNotConnected`` in the background;
    ///   ``ParleyError/Code/gmsNoAnswer`` when GMS did not answer in time.
    @discardableResult
    public func refresh(from position: Int) async throws(ParleyError) -> [ChatV2Event] {
        try checkConnected()
        try await apply(.refreshFrom(position: position))
        if machine.refreshingFrom != nil, isActive {
            await withCheckedContinuation { refreshWaiters.append($0) }
        }
        guard let answer = machine.lastRefreshAnswer else {
            guard isActive else {
                throw ParleyError(.gmsChatNotActive, "the chat ended before GMS answered the refresh")
            }
            throw ParleyError(.gmsNoAnswer, "GMS did not answer requestNotifications from \(position)")
        }
        return answer.filter { $0.index >= position }
    }

    /// Leaves the chat (`disconnect`), waits for GMS to say the chat ended (at most
    /// ``Configuration/responseTimeout``), and closes the Comet session; ``ChatEvent/chatEnded`` follows.
    public func disconnect() async throws(ParleyError) {
        try checkConnected()
        try await apply(.disconnect)
        guard !hasEnded else { return }
        let clock = clock
        let timeout = configuration.responseTimeout
        let timer = Task { [weak self] in
            do { try await clock.sleep(for: timeout) } catch { return }
            try? await self?.apply(.endLocally)
        }
        await withCheckedContinuation { continuation in
            if hasEnded { continuation.resume() } else { endWaiters.append(continuation) }
        }
        timer.cancel()
    }

    /// The app goes to the background: `/meta/disconnect` with `ext.transcriptPosition` (the highest index shown),
    /// and no Comet session until ``enterForeground()``.
    public func enterBackground() async {
        guard isActive, comet != nil else { return }
        await closeComet(ext: ["transcriptPosition": .string(String(machine.highWater))])
    }

    /// The app is back: a new Comet session, then `requestNotifications` from the first index not shown.
    /// - Throws: When the Comet session fails.
    public func enterForeground() async throws(ParleyError) {
        guard isActive, comet == nil else { return }
        try await openComet()
        try await apply(.sessionRenewed)
    }

    private func perform(_ operation: ChatV2Operation, _ members: JSONObject = [:]) async throws(ParleyError) {
        try checkConnected()
        try await apply(.perform(ChatV2Request(operation, members)))
    }

    private func checkConnected() throws(ParleyError) {
        if isActive, comet == nil {
            throw ParleyError(.bayeuxNotConnected, "the chat is in the background; call enterForeground() first")
        }
    }

    // MARK: Machine

    private func apply(_ event: ChatV2Machine.Event) async throws(ParleyError) {
        defer { releaseRefreshWaiters() }
        try await perform(try machine.handle(event))
    }

    /// Wakes the callers of ``refresh(from:)`` once no answer is awaited any more (or the chat is over).
    private func releaseRefreshWaiters() {
        guard !refreshWaiters.isEmpty, machine.refreshingFrom == nil || !isActive else { return }
        let waiters = refreshWaiters
        refreshWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// ``apply(_:)`` where no caller waits: a refusal is reported as an event.
    private func applyReporting(_ event: ChatV2Machine.Event) async {
        do { try await apply(event) } catch { emit(.error(error)) }
    }

    private func performStart(_ actions: [ChatV2Machine.Action]) async {
        do {
            try await perform(actions)
        } catch {
            startWaiter?.resume(throwing: error)
            startWaiter = nil
        }
    }

    /// Performs the machine's actions; a publish returns when the server took it (the answer comes later, on the
    /// channel), and throws when it did not, unless the chat ended meanwhile.
    private func perform(_ actions: [ChatV2Machine.Action]) async throws(ParleyError) {
        for action in actions {
            switch action {
            case .publish(let request):
                guard let comet else {
                    throw ParleyError(.bayeuxNotConnected, "no Comet session for \(request.operation.rawValue)")
                }
                if request.operation == .requestNotifications {
                    let clock = clock
                    let timeout = configuration.responseTimeout
                    refreshTimer?.cancel()
                    refreshTimer = Task { [weak self] in
                        do { try await clock.sleep(for: timeout) } catch { return }
                        await self?.applyReporting(.refreshTimedOut)
                    }
                }
                do {
                    try await comet.publishConfirmed(request.jsonValue, to: configuration.channel)
                } catch  where machine.phase == .ended {
                    continue  // the chat ended (and its Comet session closed) while the publish waited
                }
            case .emit(let event):
                emit(event)
            case .started:
                startWaiter?.resume()
                startWaiter = nil
            case .startFailed(let error):
                startWaiter?.resume(throwing: error)
                startWaiter = nil
            case .ended:
                let waiters = endWaiters
                endWaiters.removeAll()
                for waiter in waiters { waiter.resume() }
                await closeComet(ext: nil)
            }
        }
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
        subscribed = false
        let events = await client.events()
        cometTask = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.cometEvent(event, from: client)
            }
        }
        await client.subscribe(configuration.channel)
        await client.start()
        guard !subscribed else { return }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                subscribedWaiters.append(continuation)
            }
        } catch {
            await closeComet(ext: nil)
            throw error as? ParleyError ?? ParleyError(.connectionFailed, "\(error)")
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
            guard message.channel == configuration.channel, let data = message.data else { return }
            await applyReporting(.received(data))
        case .stateChanged(let state):
            switch state {
            case .connected: setStatus(.connected)
            case .handshaking, .connecting: setStatus(.connecting)
            case .unconnected, .disconnected: setStatus(.disconnected)
            }
        case .handshook:
            handshakes += 1
        case .subscribed(let channel):
            guard channel == configuration.channel else { return }
            subscribed = true
            let waiters = subscribedWaiters
            subscribedWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
            // After a lost session GMS no longer knows where to push the chat: bind it again and catch up.
            if handshakes > 1 { await applyReporting(.sessionRenewed) }
        case .error(let error):
            if await client.state == .disconnected {
                let waiters = subscribedWaiters
                subscribedWaiters.removeAll()
                for waiter in waiters { waiter.resume(throwing: error) }
                startWaiter?.resume(throwing: error)
                startWaiter = nil
            }
            emit(.error(error))
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
