/// A Bayeux 1.0 client session as a value: ``handle(_:)`` takes what happened (the app's wish, a reply, a
/// failed request, a timer) and returns what to do (send a request, start a timer, deliver an event). No
/// sockets, no clocks: ``BayeuxClient`` performs the actions; tests drive the machine directly.
///
/// What it does:
/// - handshakes (`long-polling`), then keeps exactly one `/meta/connect` outstanding;
/// - honours `advice`: `retry` connects again after `interval`, `handshake` handshakes again, `none` stops;
///   newer advice replaces older;
/// - treats a reply with advice `handshake`, or the error code 401 or 402 whatever its text (`402::Unknown
///   client`, `402::session_unknown`, Faye's `401:<id>:Unknown client`), as a lost session: it handshakes again
///   and subscribes again to every channel the app asked for;
/// - backs off after failed requests (1 s more each time, up to 60 s, as CometD's JavaScript client);
/// - ignores replies and timers that belong to an earlier handshake.
public struct BayeuxSession: Sendable {
    /// How the session behaves.
    public struct Configuration: Sendable, Hashable {
        /// How much longer to wait after each consecutive failure.
        public var backoffIncrement: Duration
        /// The longest wait after failures.
        public var maxBackoff: Duration
        /// `ext` for the handshake, if any.
        public var handshakeExt: JSONObject?

        /// A configuration; the defaults are CometD's.
        public init(
            backoffIncrement: Duration = .seconds(1), maxBackoff: Duration = .seconds(60),
            handshakeExt: JSONObject? = nil
        ) {
            self.backoffIncrement = backoffIncrement
            self.maxBackoff = maxBackoff
            self.handshakeExt = handshakeExt
        }
    }

    /// Where the session is.
    public enum State: Sendable, Hashable {
        /// Not started.
        case unconnected
        /// A handshake is on its way, or waiting to be retried.
        case handshaking
        /// Handshaken; the first `/meta/connect` has not succeeded yet (or the last one failed).
        case connecting
        /// A `/meta/connect` succeeded: events flow.
        case connected
        /// The app disconnected, or the server advised `none`.
        case disconnected
    }

    /// One HTTP exchange the caller must perform, then report with ``Event/replied(_:_:)`` or
    /// ``Event/failed(_:reason:)``.
    public struct Request: Sendable, Hashable {
        /// What the request is for.
        public enum Kind: Sendable, Hashable {
            /// `/meta/handshake`, alone, as the specification requires.
            case handshake
            /// `/meta/connect`: the long poll.
            case connect
            /// Subscribes, unsubscribes and publishes.
            case control
            /// `/meta/disconnect`; its reply does not matter.
            case disconnect
        }

        /// What the request is for.
        public var kind: Kind
        /// The messages, sent as one JSON array.
        public var messages: [BayeuxMessage]
        /// The handshake the request belongs to; replies of an older one are ignored.
        public var generation: Int
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// The app wants a session.
        case start
        /// The app wants the events of `channel` (kept across handshakes).
        case subscribe(BayeuxChannel)
        /// The app no longer wants the events of `channel`.
        case unsubscribe(BayeuxChannel)
        /// The app publishes `data` to `channel`.
        case publish(BayeuxChannel, JSONValue)
        /// The app publishes `data` to `channel` as the message `id`, and wants the server's answer:
        /// ``Action/published(_:)`` or ``Action/refused(_:_:)`` with that id. A publish the server did not take
        /// because the session was lost is sent again after the next handshake.
        case publishTracked(BayeuxChannel, JSONValue, id: String)
        /// The app ends the session; `ext` rides on `/meta/disconnect` (GMS wants `transcriptPosition` there).
        case disconnect(ext: JSONObject?)
        /// A request was answered with these messages.
        case replied(Request, [BayeuxMessage])
        /// A request got no usable answer (network failure, HTTP error, not JSON).
        case failed(Request, reason: String)
        /// The timer with this id fired.
        case timerFired(Int)
    }

    /// What the caller must do, in order.
    public enum Action: Sendable, Hashable {
        /// Perform this request.
        case send(Request)
        /// Report ``Event/timerFired(_:)`` with `id` after `delay`. Starting a timer cancels the previous one.
        case startTimer(id: Int, delay: Duration)
        /// Forget the pending timer.
        case cancelTimer
        /// An event arrived on a channel the app subscribed to.
        case deliver(BayeuxMessage)
        /// The state changed.
        case stateChanged(State)
        /// A handshake succeeded with this client id (the first, or one after the session was lost).
        case handshook(clientId: String)
        /// The server confirmed a subscription.
        case subscribed(BayeuxChannel)
        /// The server refused a subscribe, unsubscribe or publish.
        case refused(BayeuxMessage, ParleyError)
        /// The server took a publish (its reply, whose `id` is the publish's).
        case published(BayeuxMessage)
        /// The session stopped for good (advice `none`).
        case stopped(ParleyError)
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// Where the session is.
    public private(set) var state: State = .unconnected
    /// The server's client id while handshaken.
    public private(set) var clientId: String?
    /// The latest advice (newer advice replaces older, member by member).
    public private(set) var advice = BayeuxAdvice()
    /// The channels the app subscribed to, in order; subscribed again after every handshake.
    public private(set) var subscriptions: [BayeuxChannel] = []
    /// How many handshakes were sent.
    public private(set) var generation = 0
    /// Whether a `/meta/connect` is outstanding.
    public private(set) var connectOutstanding = false
    /// The current back-off after failures (zero after a success).
    public private(set) var backoff: Duration = .zero

    private var nextMessageId = 0
    private var timer: (id: Int, purpose: TimerPurpose)?
    private var nextTimerId = 0
    /// Publishes waiting for a handshake.
    private var outbox: [BayeuxMessage] = []

    private enum TimerPurpose: Hashable { case handshake, connect }

    /// A session that has not started.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Takes an event, returns the actions.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .start:
            guard state == .unconnected || state == .disconnected else { return [] }
            backoff = .zero
            return handshake()
        case .subscribe(let channel):
            guard !subscriptions.contains(channel) else { return [] }
            subscriptions.append(channel)
            guard let clientId else { return [] }
            return [.send(control([message(.subscribe, clientId, ["subscription": .string(channel.rawValue)])]))]
        case .unsubscribe(let channel):
            guard subscriptions.contains(channel) else { return [] }
            subscriptions.removeAll { $0 == channel }
            guard let clientId else { return [] }
            return [.send(control([message(.unsubscribe, clientId, ["subscription": .string(channel.rawValue)])]))]
        case .publish(let channel, let data), .publishTracked(let channel, let data, _):
            var publish = BayeuxMessage(channel: channel, ["data": data])
            if case .publishTracked(_, _, let id) = event { publish.object.append("id", .string(id)) }
            guard let clientId, state != .handshaking else {
                outbox.append(publish)
                return []
            }
            return [.send(control([stamped(publish, clientId)]))]
        case .disconnect(let ext):
            return disconnect(ext: ext)
        case .replied(let request, let messages):
            guard request.generation == generation, state != .disconnected, state != .unconnected else { return [] }
            switch request.kind {
            case .handshake: return handshakeReplied(messages)
            case .connect: return connectReplied(messages)
            case .control: return controlReplied(request, messages)
            case .disconnect: return []
            }
        case .failed(let request, _):
            guard request.generation == generation, state != .disconnected, state != .unconnected else { return [] }
            switch request.kind {
            case .handshake:
                return retry(.handshake)
            case .connect:
                connectOutstanding = false
                var actions: [Action] = []
                if state == .connected {
                    state = .connecting
                    actions.append(.stateChanged(.connecting))
                }
                return actions + retry(.connect)
            case .control:
                // Sent again once the session is confirmed alive by the next successful connect.
                outbox.append(contentsOf: request.messages.map { $0.without("clientId") })
                return []
            case .disconnect:
                return []
            }
        case .timerFired(let id):
            guard let timer, timer.id == id else { return [] }
            self.timer = nil
            switch timer.purpose {
            case .handshake: return handshake()
            case .connect: return connect()
            }
        }
    }

    // MARK: Exchanges

    private mutating func handshake() -> [Action] {
        generation += 1
        clientId = nil
        connectOutstanding = false
        var actions: [Action] = []
        if timer != nil {
            timer = nil
            actions.append(.cancelTimer)
        }
        if state != .handshaking {
            state = .handshaking
            actions.append(.stateChanged(.handshaking))
        }
        var members: JSONObject = [
            "version": "1.0", "minimumVersion": "1.0", "supportedConnectionTypes": ["long-polling"],
            "id": .string(takeId()),
        ]
        if let ext = configuration.handshakeExt { members.append("ext", .object(ext)) }
        actions.append(
            .send(
                Request(
                    kind: .handshake, messages: [BayeuxMessage(channel: .handshake, members)], generation: generation)))
        return actions
    }

    private mutating func connect() -> [Action] {
        guard let clientId, !connectOutstanding else { return [] }
        connectOutstanding = true
        let connect = message(.connect, clientId, ["connectionType": "long-polling"])
        return [.send(Request(kind: .connect, messages: [connect], generation: generation))]
    }

    private mutating func disconnect(ext: JSONObject?) -> [Action] {
        guard state != .disconnected, state != .unconnected else { return [] }
        var actions: [Action] = []
        if let clientId {
            var members: JSONObject = [:]
            if let ext { members.append("ext", .object(ext)) }
            actions.append(
                .send(
                    Request(
                        kind: .disconnect, messages: [message(.disconnect, clientId, members)], generation: generation))
            )
        }
        if timer != nil {
            timer = nil
            actions.append(.cancelTimer)
        }
        generation += 1  // whatever is still in flight is now stale
        clientId = nil
        connectOutstanding = false
        outbox.removeAll()
        state = .disconnected
        actions.append(.stateChanged(.disconnected))
        return actions
    }

    // MARK: Replies

    private mutating func handshakeReplied(_ messages: [BayeuxMessage]) -> [Action] {
        guard state == .handshaking, let reply = messages.first(where: { $0.channel == .handshake }) else {
            return retry(.handshake)
        }
        if let newer = reply.advice { advice = advice.updated(with: newer) }
        guard reply.successful, let id = reply.clientId, !id.isEmpty else {
            if advice.reconnect == BayeuxAdvice.Reconnect.none {
                return stop(ParleyError(.bayeuxRefused, "the handshake was refused: \(reply.error ?? "no reason")"))
            }
            return retry(.handshake)
        }
        clientId = id
        backoff = .zero
        state = .connecting
        var actions: [Action] = [.stateChanged(.connecting), .handshook(clientId: id)]
        var control: [BayeuxMessage] = subscriptions.map {
            message(.subscribe, id, ["subscription": .string($0.rawValue)])
        }
        control += outbox.map { stamped($0, id) }
        outbox.removeAll()
        if !control.isEmpty { actions.append(.send(self.control(control))) }
        return actions + next(.connect, after: advice.interval ?? .zero)
    }

    private mutating func connectReplied(_ messages: [BayeuxMessage]) -> [Action] {
        connectOutstanding = false
        var actions = deliveries(messages)
        guard let reply = messages.first(where: { $0.channel == .connect }) else {
            return actions + retry(.connect)
        }
        if let newer = reply.advice { advice = advice.updated(with: newer) }
        if !reply.successful {
            if Self.sessionLost(reply) { return actions + next(.handshake, after: reply.advice?.interval ?? .zero) }
            if advice.reconnect == BayeuxAdvice.Reconnect.none {
                return actions
                    + stop(ParleyError(.bayeuxRefused, "the server advised not to reconnect: \(reply.error ?? "")"))
            }
            if state == .connected {
                state = .connecting
                actions.append(.stateChanged(.connecting))
            }
            return actions + retry(.connect)
        }
        backoff = .zero
        if state != .connected {
            state = .connected
            actions.append(.stateChanged(.connected))
        }
        if let clientId, !outbox.isEmpty {
            actions.append(.send(control(outbox.map { stamped($0, clientId) })))
            outbox.removeAll()
        }
        switch advice.reconnect {
        case .some(.handshake):
            return actions + next(.handshake, after: advice.interval ?? .zero)
        case .some(.none):
            return actions + stop(ParleyError(.bayeuxRefused, "the server advised not to reconnect"))
        default:
            if let interval = advice.interval, interval < .zero {
                return actions + stop(ParleyError(.bayeuxRefused, "the server advised a negative interval"))
            }
            return actions + next(.connect, after: advice.interval ?? .zero)
        }
    }

    private mutating func controlReplied(_ request: Request, _ messages: [BayeuxMessage]) -> [Action] {
        var actions = deliveries(messages)
        var lost = false
        for reply in messages
        where reply.channel == .subscribe || reply.channel == .unsubscribe
            || (!reply.isMeta && reply.object["successful"] != nil)
        {
            if reply.successful {
                if reply.channel == .subscribe, let channel = reply.subscription {
                    actions.append(.subscribed(BayeuxChannel(rawValue: channel)))
                } else if !reply.isMeta {
                    actions.append(.published(reply))
                }
            } else if Self.sessionLost(reply) {
                lost = true
            } else {
                actions.append(
                    .refused(
                        reply, ParleyError(.bayeuxUnsuccessful, "\(reply.channel): \(reply.error ?? "unsuccessful")")))
            }
        }
        if lost {
            // The server did not take the request's publishes: they go again after the handshake.
            outbox.append(contentsOf: request.messages.filter { !$0.isMeta }.map { $0.without("clientId") })
            actions += next(.handshake, after: .zero)
        }
        return actions
    }

    private func deliveries(_ messages: [BayeuxMessage]) -> [Action] {
        messages.filter { !$0.isMeta && $0.data != nil }.map(Action.deliver)
    }

    // MARK: Timing

    /// A reply that says the server no longer knows the client.
    static func sessionLost(_ reply: BayeuxMessage) -> Bool {
        reply.advice?.reconnect == .handshake || reply.errorCode == 401 || reply.errorCode == 402
    }

    private mutating func retry(_ purpose: TimerPurpose) -> [Action] {
        backoff = min(backoff + configuration.backoffIncrement, configuration.maxBackoff)
        return next(purpose, after: max(advice.interval ?? .zero, backoff))
    }

    private mutating func next(_ purpose: TimerPurpose, after delay: Duration) -> [Action] {
        if purpose == .handshake && state != .handshaking {
            clientId = nil
            state = .handshaking
            generation += 1
            connectOutstanding = false
            if delay <= .zero { return [.stateChanged(.handshaking)] + handshake() }
            var actions: [Action] = [.stateChanged(.handshaking)]
            actions += startTimer(.handshake, delay)
            return actions
        }
        if delay <= .zero {
            return purpose == .handshake ? handshake() : connect()
        }
        return startTimer(purpose, delay)
    }

    private mutating func startTimer(_ purpose: TimerPurpose, _ delay: Duration) -> [Action] {
        nextTimerId += 1
        timer = (nextTimerId, purpose)
        return [.startTimer(id: nextTimerId, delay: delay)]
    }

    private mutating func stop(_ error: ParleyError) -> [Action] {
        var actions: [Action] = []
        if timer != nil {
            timer = nil
            actions.append(.cancelTimer)
        }
        generation += 1
        clientId = nil
        connectOutstanding = false
        state = .disconnected
        return actions + [.stateChanged(.disconnected), .stopped(error)]
    }

    // MARK: Messages

    private mutating func takeId() -> String {
        nextMessageId += 1
        return String(nextMessageId)
    }

    private mutating func message(_ channel: BayeuxChannel, _ clientId: String, _ members: JSONObject) -> BayeuxMessage
    {
        var all: JSONObject = ["clientId": .string(clientId)]
        all.append(contentsOf: members)
        all.append("id", .string(takeId()))
        return BayeuxMessage(channel: channel, all)
    }

    /// The message with `clientId`, and its own `id` (a tracked publish's) or a new one.
    private mutating func stamped(_ message: BayeuxMessage, _ clientId: String) -> BayeuxMessage {
        let id = message.id ?? takeId()
        var object = message.object.removing("clientId").removing("id")
        object.append("clientId", .string(clientId))
        object.append("id", .string(id))
        return BayeuxMessage(channel: message.channel, object)
    }

    private func control(_ messages: [BayeuxMessage]) -> Request {
        Request(kind: .control, messages: messages, generation: generation)
    }
}

extension BayeuxMessage {
    func without(_ key: String) -> BayeuxMessage {
        var copy = self
        copy.object = object.removing(key)
        return copy
    }
}
