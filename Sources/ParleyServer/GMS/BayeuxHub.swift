import Foundation
import ParleyCore

/// The simulator's Bayeux server: handshake, long-polling connect, subscribe, unsubscribe, publish, disconnect.
/// Clients are tied to the `gms_user` header they handshook with, which is how chat events find them.
actor BayeuxHub {
    struct Client {
        var user: String?
        var browser: String
        var subscriptions: Set<String> = []
        var queue: [JSONValue] = []
        var waiter: (token: Int, continuation: CheckedContinuation<Void, Never>)?
        /// Whether a connect was answered: the first one is answered at once, as CometD does.
        var connected = false
    }

    let configuration: GMSSimulatorConfiguration
    private var clients: [String: Client] = [:]
    private var nextToken = 0
    /// The `ext` of every `/meta/disconnect`, in order (GMS reads `transcriptPosition` from it).
    private(set) var disconnectExts: [JSONObject] = []

    init(configuration: GMSSimulatorConfiguration) {
        self.configuration = configuration
    }

    /// Answers one request's messages. `cookie` is the request's `BAYEUX_BROWSER`; the second result is the one
    /// to set.
    func handle(_ messages: [JSONValue], user: String?, browserCookie: String?) async -> (
        replies: [JSONValue], setBrowser: String?
    ) {
        var replies: [JSONValue] = []
        var setBrowser: String?
        for message in messages {
            guard let object = message.objectValue, let channel = object["channel"]?.stringValue else {
                replies.append(["successful": false, "error": "400::Bad request"])
                continue
            }
            var reply: JSONObject = ["channel": .string(channel)]
            if let id = object["id"] { reply["id"] = id }
            let clientId = object["clientId"]?.stringValue
            switch channel {
            case "/meta/handshake":
                let id = Self.randomId()
                let browser = browserCookie ?? Self.randomId()
                if browserCookie == nil { setBrowser = browser }
                clients[id] = Client(user: user, browser: browser)
                reply["version"] = "1.0"
                reply["supportedConnectionTypes"] = ["long-polling"]
                reply["clientId"] = .string(id)
                reply["successful"] = true
                reply["advice"] = [
                    "reconnect": "retry", "interval": 0,
                    "timeout": .number(Double(configuration.longPollTimeout.components.seconds * 1000)),
                ]
                replies.append(.object(reply))
            case "/meta/connect":
                guard let clientId, known(clientId, browserCookie) else {
                    replies.append(.object(unknown(reply)))
                    continue
                }
                reply["clientId"] = .string(clientId)
                let events = await poll(clientId)
                guard clients[clientId] != nil else {
                    replies.append(.object(unknown(reply)))
                    continue
                }
                reply["successful"] = true
                reply["advice"] = ["reconnect": "retry", "interval": 0]
                replies.append(.object(reply))
                replies += events
            case "/meta/subscribe", "/meta/unsubscribe":
                guard let clientId, known(clientId, browserCookie) else {
                    replies.append(.object(unknown(reply)))
                    continue
                }
                let subscription = object["subscription"] ?? .null
                let channels = subscription.arrayValue?.compactMap(\.stringValue) ?? [subscription.stringValue ?? ""]
                reply["clientId"] = .string(clientId)
                reply["subscription"] = subscription
                if channels.contains(where: { $0.isEmpty || $0.hasPrefix("/meta/") || !$0.hasPrefix("/") }) {
                    reply["successful"] = false
                    reply["error"] = .string("403:\(channels.joined(separator: ",")):Subscription denied")
                } else {
                    for name in channels {
                        if channel == "/meta/subscribe" {
                            clients[clientId]?.subscriptions.insert(name)
                        } else {
                            clients[clientId]?.subscriptions.remove(name)
                        }
                    }
                    reply["successful"] = true
                }
                replies.append(.object(reply))
            case "/meta/disconnect":
                if let clientId, clients[clientId] != nil {
                    disconnectExts.append(object["ext"]?.objectValue ?? [:])
                    wake(clientId)
                    clients[clientId] = nil
                    reply["successful"] = true
                    reply["clientId"] = .string(clientId)
                    replies.append(.object(reply))
                } else {
                    replies.append(.object(unknown(reply)))
                }
            default:
                guard !channel.hasPrefix("/meta/") else {
                    reply["successful"] = false
                    reply["error"] = .string("404:\(channel):Unknown channel")
                    replies.append(.object(reply))
                    continue
                }
                guard let clientId, known(clientId, browserCookie) else {
                    replies.append(.object(unknown(reply)))
                    continue
                }
                reply["successful"] = true
                replies.append(.object(reply))
                var event: JSONObject = ["channel": .string(channel), "data": object["data"] ?? .null]
                if let id = object["id"] { event["id"] = id }
                deliver(.object(event), channel: channel) { _ in true }
            }
        }
        return (replies, setBrowser)
    }

    /// Queues `data` on `channel` for every client of `user` subscribed to it.
    func publish(_ data: JSONValue, channel: String, user: String?) {
        deliver(["channel": .string(channel), "data": data], channel: channel) { $0.user == user }
    }

    /// Forgets every client, as a restarted server would: their next request is answered `402::Unknown client`.
    func forgetAll() {
        for id in clients.keys { wake(id) }
        clients.removeAll()
    }

    /// How many clients are handshaken.
    var clientCount: Int { clients.count }

    private func deliver(_ event: JSONValue, channel: String, to filter: (Client) -> Bool) {
        for (id, client) in clients where client.subscriptions.contains(channel) && filter(client) {
            clients[id]?.queue.append(event)
            wake(id)
        }
    }

    private func known(_ clientId: String, _ browserCookie: String?) -> Bool {
        guard let client = clients[clientId] else { return false }
        return !configuration.requireBrowserCookie || client.browser == browserCookie
    }

    private func unknown(_ reply: JSONObject) -> JSONObject {
        var reply = reply
        reply["successful"] = false
        reply["error"] = "402::Unknown client"
        reply["advice"] = ["reconnect": "handshake", "interval": 0]
        return reply
    }

    /// Returns queued events at once, or waits for one (or the long-poll timeout).
    private func poll(_ clientId: String) async -> [JSONValue] {
        let first = clients[clientId]?.connected == false
        clients[clientId]?.connected = true
        if !first, clients[clientId]?.queue.isEmpty ?? true {
            wake(clientId)  // one outstanding connect per client: an older one returns now
            nextToken += 1
            let token = nextToken
            let timeout = configuration.longPollTimeout
            await withCheckedContinuation { continuation in
                clients[clientId]?.waiter = (token, continuation)
                if clients[clientId] == nil {
                    continuation.resume()
                    return
                }
                Task {
                    try? await Task.sleep(for: timeout)
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
