public import Foundation

/// A Bayeux (CometD) long-polling client: ``BayeuxSession`` plus HTTP, timers and cookies.
///
/// ```swift
/// let comet = BayeuxClient(configuration: .init(url: cometURL, headers: ["gms_user": user]))
/// let events = await comet.events()
/// await comet.subscribe(.genesys)
/// await comet.start()
/// for await event in events {
///     if case .message(let message) = event { print(message.data ?? nil) }
/// }
/// ```
///
/// Every request carries the configured headers and the cookies the server set (CometD ties sessions to its
/// `BAYEUX_BROWSER` cookie). Timers run on the injected clock.
public actor BayeuxClient {
    /// Where the server is and how to reach it.
    public struct Configuration: Sendable {
        /// The Bayeux endpoint, such as `http://gms:8080/genesys/cometd`.
        public var url: URL
        /// Headers for every request (GMS needs `gms_user`).
        public var headers: [String: String]
        /// How the session retries and backs off.
        public var session: BayeuxSession.Configuration
        /// How much longer than the server's advised `timeout` a long poll may take before it counts as failed.
        public var networkDelay: Duration

        /// A configuration.
        public init(
            url: URL, headers: [String: String] = [:], session: BayeuxSession.Configuration = .init(),
            networkDelay: Duration = .seconds(10)
        ) {
            self.url = url
            self.headers = headers
            self.session = session
            self.networkDelay = networkDelay
        }
    }

    /// What the client reports.
    public enum Event: Sendable, Hashable {
        /// An event on a subscribed channel.
        case message(BayeuxMessage)
        /// The session's state changed.
        case stateChanged(BayeuxSession.State)
        /// A handshake succeeded (again, after a lost session): subscriptions are being restored.
        case handshook(clientId: String)
        /// The server confirmed a subscription.
        case subscribed(BayeuxChannel)
        /// Something failed that no call returned: a refused subscription or publish, or the end of the session.
        case error(ParleyError)
    }

    /// The configuration in use.
    public let configuration: Configuration
    private let web: any WebClient
    private let clock: any Clock<Duration>
    private var session: BayeuxSession
    /// The cookies the server set.
    public private(set) var cookies = CookieJar()
    private var subscribers = EventSubscribers<Event>()
    private var timerTask: Task<Void, Never>?
    private var inFlight: [UUID: Task<Void, Never>] = [:]
    private var publishWaiters: [String: CheckedContinuation<Void, any Error>] = [:]
    private var nextPublish = 0

    /// A client; nothing happens until ``start()``.
    /// - Parameters:
    ///   - configuration: The endpoint and headers.
    ///   - web: How requests are sent; default ``URLSessionWebClient``.
    ///   - clock: The clock for retry intervals and back-off (inject a virtual one in tests).
    public init(
        configuration: Configuration, web: any WebClient = URLSessionWebClient(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        self.web = web
        self.clock = clock
        self.session = BayeuxSession(configuration: configuration.session)
    }

    /// The session's state.
    public var state: BayeuxSession.State { session.state }
    /// The server's client id while handshaken.
    public var clientId: String? { session.clientId }

    /// A new sequence of every event from now on.
    public func events() -> AsyncStream<Event> {
        subscribers.subscribe { id in Task { await self.removeSubscriber(id) } }
    }

    /// Handshakes and starts long-polling.
    public func start() { perform(session.handle(.start)) }
    /// Subscribes to `channel`, now if handshaken, otherwise after the handshake; kept across handshakes.
    public func subscribe(_ channel: BayeuxChannel) { perform(session.handle(.subscribe(channel))) }
    /// Unsubscribes from `channel`.
    public func unsubscribe(_ channel: BayeuxChannel) { perform(session.handle(.unsubscribe(channel))) }
    /// Publishes `data` to `channel`.
    public func publish(_ data: JSONValue, to channel: BayeuxChannel) {
        perform(session.handle(.publish(channel, data)))
    }

    /// Publishes `data` to `channel` and returns when the server took it (now if handshaken, otherwise after the
    /// handshake; again after a handshake if the session was lost before the server took it).
    /// - Throws: ``ParleyError/Code/bayeuxUnsuccessful`` when the server refuses it,
    ///   ``ParleyError/Code/bayeuxNotConnected`` when the session ends first.
    public func publishConfirmed(_ data: JSONValue, to channel: BayeuxChannel) async throws(ParleyError) {
        guard session.state != .disconnected else {
            throw ParleyError(.bayeuxNotConnected, "the Bayeux session is closed")
        }
        nextPublish += 1
        let id = "p\(nextPublish)"
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                publishWaiters[id] = continuation
                perform(session.handle(.publishTracked(channel, data, id: id)))
            }
        } catch {
            throw error as? ParleyError ?? ParleyError(.bayeuxUnsuccessful, "\(error)")
        }
    }

    /// Sends `/meta/disconnect` (with `ext`, if given), waits for its answer (or failure), and stops polling.
    public func disconnect(ext: JSONObject? = nil) async {
        failPublishes(ParleyError(.bayeuxNotConnected, "the Bayeux session was closed"))
        let actions = session.handle(.disconnect(ext: ext))
        for task in inFlight.values { task.cancel() }
        inFlight.removeAll()
        for action in actions {
            if case .send(let request) = action {
                _ = try? await exchange(request)
            }
        }
        perform(actions.filter { if case .send = $0 { false } else { true } })
    }

    private func removeSubscriber(_ id: Int) { subscribers.remove(id) }

    private func emit(_ event: Event) {
        subscribers.yield(event)
    }

    private func perform(_ actions: [BayeuxSession.Action]) {
        for action in actions {
            switch action {
            case .send(let request):
                let id = UUID()
                inFlight[id] = Task {
                    let event: BayeuxSession.Event
                    do {
                        event = .replied(request, try await self.exchange(request))
                    } catch {
                        event = .failed(request, reason: "\(error)")
                    }
                    self.finished(id, event)
                }
            case .startTimer(let id, let delay):
                timerTask?.cancel()
                let clock = clock
                timerTask = Task {
                    do { try await clock.sleep(for: delay) } catch { return }
                    self.perform(self.session.handle(.timerFired(id)))
                }
            case .cancelTimer:
                timerTask?.cancel()
                timerTask = nil
            case .deliver(let message): emit(.message(message))
            case .stateChanged(let state): emit(.stateChanged(state))
            case .handshook(let clientId): emit(.handshook(clientId: clientId))
            case .subscribed(let channel): emit(.subscribed(channel))
            case .refused(let reply, let error):
                if let id = reply.id, let waiter = publishWaiters.removeValue(forKey: id) {
                    waiter.resume(throwing: error)
                } else {
                    emit(.error(error))
                }
            case .published(let reply):
                if let id = reply.id { publishWaiters.removeValue(forKey: id)?.resume() }
            case .stopped(let error):
                failPublishes(error)
                emit(.error(error))
            }
        }
    }

    private func failPublishes(_ error: ParleyError) {
        let waiters = publishWaiters
        publishWaiters.removeAll()
        for waiter in waiters.values { waiter.resume(throwing: error) }
    }

    private func finished(_ id: UUID, _ event: BayeuxSession.Event) {
        guard inFlight.removeValue(forKey: id) != nil else { return }  // cancelled by a disconnect
        perform(session.handle(event))
    }

    /// POSTs the request's messages as a JSON array and parses the answer.
    private func exchange(_ request: BayeuxSession.Request) async throws -> [BayeuxMessage] {
        var headers = configuration.headers
        headers["Content-Type"] = "application/json;charset=UTF-8"
        if let cookie = cookies.header { headers["Cookie"] = cookie }
        var timeout = configuration.networkDelay
        if request.kind == .connect { timeout += session.advice.timeout ?? .seconds(30) }
        let response = try await web.send(
            WebRequest(
                method: "POST", url: configuration.url, headers: headers, body: BayeuxMessage.body(request.messages),
                timeout: timeout))
        cookies.store(from: response)
        guard response.isSuccess else {
            throw ParleyError(.gmsHTTPStatus, "\(configuration.url) answered HTTP \(response.status)")
        }
        return try BayeuxMessage.batch(decoding: response.body)
    }
}
