import Foundation
import ParleyGenesys

/// The simulator's Bayeux server: handshake, long-polling connect, subscribe, unsubscribe, publish, disconnect.
/// Clients are tied to the `gms_user` header they handshook with, which is how chat events find them.
actor BayeuxHub {
    struct Client {
        var user: String?
        var browser: String
        var subscriptions: Set<String> = []
        var queue: [BayeuxMessage] = []
        var waiter: (token: Int, continuation: CheckedContinuation<Void, Never>)?
        /// Whether a connect was answered: the first one is answered at once, as CometD does.
        var connected = false
    }

    let configuration: GMSSimulatorConfiguration
    /// What a long poll waits on.
    let clock: any Clock<Duration>
    private var clients: [String: Client] = [:]
    private var nextToken = 0
    /// The `ext` of every `/meta/disconnect`, in order (GMS reads `transcriptPosition` from it).
    private(set) var disconnectExts: [JSONObject] = []

    init(configuration: GMSSimulatorConfiguration, clock: any Clock<Duration>) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Answers one request's messages (`nil` for an element that is not a message object, which gets
    /// `400::Bad request`). `browserCookie` is the request's `BAYEUX_BROWSER`; the second result is the one to set.
    /// `service` answers publishes on `/service/**` channels (Chat API version 2), given the publishing client's
    /// id, the channel and the data: service channels are request and response, never broadcast.
    func handle(
        _ messages: [BayeuxMessage?], user: String?, browserCookie: String?,
        service: @Sendable (String, BayeuxChannel, JSONValue) async -> Void = { _, _, _ in }
    ) async -> (
        replies: [BayeuxMessage], setBrowser: String?
    ) {
        var replies: [BayeuxMessage] = []
        var setBrowser: String?
        for message in messages {
            guard let message else {
                replies.append(Self.badRequest)
                continue
            }
            let channel = message.channel
            var reply = BayeuxMessage(channel: channel)
            // The request's `id` is echoed as it came, whatever its JSON type.
            if let id = message.object["id"] { reply.object["id"] = id }
            let clientId = message.clientId
            switch channel {
            case .handshake:
                let id = Self.randomId()
                let browser = browserCookie ?? Self.randomId()
                if browserCookie == nil { setBrowser = browser }
                clients[id] = Client(user: user, browser: browser)
                reply.object["version"] = "1.0"
                reply.object["supportedConnectionTypes"] = ["long-polling"]
                reply.object["clientId"] = .string(id)
                reply.object["successful"] = true
                reply.object["advice"] =
                    BayeuxAdvice(reconnect: .retry, interval: .zero, timeout: configuration.longPollTimeout).jsonValue
                replies.append(reply)
            case .connect:
                guard let clientId, known(clientId, browserCookie) else {
                    replies.append(unknown(reply))
                    continue
                }
                reply.object["clientId"] = .string(clientId)
                let events = await poll(clientId)
                guard clients[clientId] != nil else {
                    replies.append(unknown(reply))
                    continue
                }
                reply.object["successful"] = true
                reply.object["advice"] = BayeuxAdvice(reconnect: .retry, interval: .zero).jsonValue
                replies.append(reply)
                replies += events
            case .subscribe, .unsubscribe:
                guard let clientId, known(clientId, browserCookie) else {
                    replies.append(unknown(reply))
                    continue
                }
                // One channel or several: BayeuxMessage.subscription reads only the first.
                let subscription = message.object["subscription"] ?? .null
                let channels =
                    subscription.arrayValue?.compactMap(\.stringValue) ?? [subscription.stringValue ?? ""]
                reply.object["clientId"] = .string(clientId)
                reply.object["subscription"] = subscription
                let denied = channels.contains {
                    $0.isEmpty || BayeuxChannel(rawValue: $0).isMeta || !$0.hasPrefix("/")
                }
                if denied {
                    reply.object["successful"] = false
                    reply.object["error"] = .string("403:\(channels.joined(separator: ",")):Subscription denied")
                } else {
                    for name in channels {
                        if channel == .subscribe {
                            clients[clientId]?.subscriptions.insert(name)
                        } else {
                            clients[clientId]?.subscriptions.remove(name)
                        }
                    }
                    reply.object["successful"] = true
                }
                replies.append(reply)
            case .disconnect:
                if let clientId, clients[clientId] != nil {
                    disconnectExts.append(message.ext ?? [:])
                    wake(clientId)
                    clients[clientId] = nil
                    reply.object["successful"] = true
                    reply.object["clientId"] = .string(clientId)
                    replies.append(reply)
                } else {
                    replies.append(unknown(reply))
                }
            default:
                guard !channel.isMeta else {
                    reply.object["successful"] = false
                    reply.object["error"] = .string("404:\(channel.rawValue):Unknown channel")
                    replies.append(reply)
                    continue
                }
                guard let clientId, known(clientId, browserCookie) else {
                    replies.append(unknown(reply))
                    continue
                }
                reply.object["successful"] = true
                replies.append(reply)
                if channel.rawValue.hasPrefix("/service/") {
                    // Request and response (Bayeux §"Service channels"): the answer goes to the publisher alone.
                    await service(clientId, channel, message.data ?? .null)
                    continue
                }
                var event = BayeuxMessage(channel: channel, ["data": message.data ?? .null])
                if let id = message.object["id"] { event.object["id"] = id }
                deliver(event, to: channel) { _ in true }
            }
        }
        return (replies, setBrowser)
    }

    /// Queues `data` on `channel` for one client (a service channel's answer), if it is still known.
    /// - Returns: Whether the client is known.
    @discardableResult
    func send(_ data: JSONValue, channel: BayeuxChannel, to clientId: String) -> Bool {
        guard clients[clientId] != nil else { return false }
        clients[clientId]?.queue.append(BayeuxMessage(channel: channel, ["data": data]))
        wake(clientId)
        return true
    }

    /// Queues `data` on `channel` for every client of `user` subscribed to it.
    func publish(_ data: JSONValue, channel: BayeuxChannel, user: String?) {
        deliver(BayeuxMessage(channel: channel, ["data": data]), to: channel) { $0.user == user }
    }

    /// Forgets every client, as a restarted server would: their next request is answered `402::Unknown client`.
    func forgetAll() {
        for id in clients.keys { wake(id) }
        clients.removeAll()
    }

    /// How many clients are handshaken.
    var clientCount: Int { clients.count }

    private func deliver(_ event: BayeuxMessage, to channel: BayeuxChannel, where filter: (Client) -> Bool) {
        for (id, client) in clients where client.subscriptions.contains(channel.rawValue) && filter(client) {
            clients[id]?.queue.append(event)
            wake(id)
        }
    }

    private func known(_ clientId: String, _ browserCookie: String?) -> Bool {
        guard let client = clients[clientId] else { return false }
        return !configuration.requireBrowserCookie || client.browser == browserCookie
    }

    private func unknown(_ reply: BayeuxMessage) -> BayeuxMessage {
        var reply = reply
        reply.object["successful"] = false
        reply.object["error"] = "402::Unknown client"
        reply.object["advice"] = BayeuxAdvice(reconnect: .handshake, interval: .zero).jsonValue
        return reply
    }

    /// The reply to an element that is not a message object: there is no channel to echo, so the reply has none
    /// (`BayeuxMessage` keeps its object whole, and this one is set whole).
    private static let badRequest: BayeuxMessage = {
        var reply = BayeuxMessage(channel: .handshake)
        reply.object = ["successful": false, "error": "400::Bad request"]
        return reply
    }()

    /// Returns queued events at once, or waits for one (or the long-poll timeout).
    private func poll(_ clientId: String) async -> [BayeuxMessage] {
        let first = clients[clientId]?.connected == false
        clients[clientId]?.connected = true
        if !first, clients[clientId]?.queue.isEmpty ?? true {
            wake(clientId)  // one outstanding connect per client: an older one returns now
            nextToken += 1
            let token = nextToken
            let timeout = configuration.longPollTimeout
            let clock = clock
            await withCheckedContinuation { continuation in
                clients[clientId]?.waiter = (token, continuation)
                if clients[clientId] == nil {
                    continuation.resume()
                    return
                }
                Task {
                    try? await clock.sleep(for: timeout)
                    self.wake(clientId, token: token)
                }
            }
        }
        let events = clients[clientId]?.queue ?? []
        clients[clientId]?.queue.removeAll()
        return events
    }

    private func wake(_ clientId: String, token: Int? = nil) {
        guard let waiter = clients[clientId]?.waiter, token == nil || waiter.token == token else { return }
        clients[clientId]?.waiter = nil
        waiter.continuation.resume()
    }

    private static func randomId() -> String {
        (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 36) }.joined()
    }
}
