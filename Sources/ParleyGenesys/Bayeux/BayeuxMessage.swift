/// One Bayeux message: a JSON object with a `channel`, read through typed accessors and kept whole, so that
/// members this version does not know survive.
///
/// ```swift
/// let subscribe = BayeuxMessage(channel: .subscribe, ["clientId": "abc", "subscription": "/_genesys"])
/// ```
public struct BayeuxMessage: JSONConvertible, Codable, Hashable {
    /// The whole object.
    public var object: JSONObject

    /// A message on `channel` with further members.
    public init(channel: BayeuxChannel, _ members: JSONObject = [:]) {
        var object: JSONObject = ["channel": .string(channel.rawValue)]
        object.append(contentsOf: members.removing("channel"))
        self.object = object
    }

    /// Decodes a message object; it must have a string `channel`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        _ = try reader.required("channel", as: String.self)
        object = reader.object
    }

    /// The object.
    public var jsonValue: JSONValue { .object(object) }

    /// `channel`.
    public var channel: BayeuxChannel { BayeuxChannel(rawValue: object["channel"]?.stringValue ?? "") }
    /// `clientId`.
    public var clientId: String? { object["clientId"]?.stringValue }
    /// `id`, the request's id that a reply echoes.
    public var id: String? { object["id"]?.stringValue }
    /// `successful`; a reply without it counts as unsuccessful.
    public var successful: Bool { object["successful"]?.boolValue ?? false }
    /// `error`, such as `402::Unknown client`.
    public var error: String? { object["error"]?.stringValue }
    /// The three-digit code at the start of ``error``.
    public var errorCode: Int? {
        guard let error else { return nil }
        return Int(error.prefix { $0.isNumber })
    }
    /// `advice`, when the message has one.
    public var advice: BayeuxAdvice? { object["advice"].flatMap { try? BayeuxAdvice(json: $0) } }
    /// `subscription`: one channel, or the first of several.
    public var subscription: String? {
        object["subscription"]?.stringValue ?? object["subscription"]?[0]?.stringValue
    }
    /// `data`, the payload of an event.
    public var data: JSONValue? { object["data"] }
    /// `ext`.
    public var ext: JSONObject? { object["ext"]?.objectValue }

    /// Whether this is a reply on a meta channel rather than an event.
    public var isMeta: Bool { channel.isMeta }

    /// Parses a Bayeux body: an array of messages, or a single message object.
    /// - Throws: ``ParleyError`` when it is not JSON, or holds something other than message objects.
    public static func batch(decoding bytes: some Collection<UInt8>) throws(ParleyError) -> [BayeuxMessage] {
        let json = try JSONValue(parsing: bytes)
        if case .array(let elements) = json {
            var messages: [BayeuxMessage] = []
            for (index, element) in elements.enumerated() {
                do { messages.append(try BayeuxMessage(json: element)) } catch { throw error.within(.index(index)) }
            }
            return messages
        }
        return [try BayeuxMessage(json: json)]
    }

    /// The messages as a JSON array body.
    public static func body(_ messages: [BayeuxMessage]) -> [UInt8] {
        JSONValue.array(messages.map(\.jsonValue)).jsonBytes()
    }
}

/// A Bayeux channel name. Open: any name decodes.
public struct BayeuxChannel: OpenString {
    /// The wire form.
    public let rawValue: String
    /// A value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `/meta/handshake`.
    public static let handshake: Self = "/meta/handshake"
    /// `/meta/connect`.
    public static let connect: Self = "/meta/connect"
    /// `/meta/subscribe`.
    public static let subscribe: Self = "/meta/subscribe"
    /// `/meta/unsubscribe`.
    public static let unsubscribe: Self = "/meta/unsubscribe"
    /// `/meta/disconnect`.
    public static let disconnect: Self = "/meta/disconnect"
    /// `/_genesys`, the channel GMS chat events arrive on.
    public static let genesys: Self = "/_genesys"

    /// Whether the channel is in the protocol's own `/meta/` namespace.
    public var isMeta: Bool { rawValue.hasPrefix("/meta/") }
}

/// A server's `advice`: what to do after a reply. Newer advice replaces older.
public struct BayeuxAdvice: JSONConvertible, Codable, Hashable {
    /// `reconnect`: `retry`, `handshake` or `none`.
    public var reconnect: Reconnect?
    /// `interval`: the least time to wait before the next `/meta/connect`; negative means do not.
    public var interval: Duration?
    /// `timeout`: how long the server holds a `/meta/connect`.
    public var timeout: Duration?
    /// Members this version does not know.
    public var extra: JSONObject

    /// `advice.reconnect`. Open.
    public struct Reconnect: OpenString {
        /// The wire form.
        public let rawValue: String
        /// A value from its wire form.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Connect again after `interval`.
        public static let retry: Self = "retry"
        /// The session is gone: handshake again.
        public static let handshake: Self = "handshake"
        /// Do not reconnect or handshake.
        public static let none: Self = "none"
    }

    /// Advice.
    public init(
        reconnect: Reconnect? = nil, interval: Duration? = nil, timeout: Duration? = nil, extra: JSONObject = [:]
    ) {
        self.reconnect = reconnect
        self.interval = interval
        self.timeout = timeout
        self.extra = extra
    }

    /// Decodes `{"reconnect", "interval", "timeout", …}` (times in milliseconds).
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        reconnect = try reader.optional("reconnect")
        interval = try Self.milliseconds(reader.optional("interval", as: Double.self), "interval")
        timeout = try Self.milliseconds(reader.optional("timeout", as: Double.self), "timeout")
        extra = reader.rest
    }

    /// A time in milliseconds from the server's advice; a number that is not a sane time (negative, over a day,
    /// `1e300`) is an error, not a timer that traps.
    private static func milliseconds(_ value: Double?, _ key: String) throws(ParleyError) -> Duration? {
        guard let value else { return nil }
        guard let duration = Duration.milliseconds(checking: value) else {
            throw ParleyError(
                .invalidValue, "advice \(key) \(JSONValue.number(value).jsonString()) is not 0 to 86400000 ms",
                path: JSONPath([.key(key)]))
        }
        return duration
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("reconnect", reconnect)
        builder.set("interval", interval.map { Double($0.milliseconds) })
        builder.set("timeout", timeout.map { Double($0.milliseconds) })
        return builder.finish(with: extra)
    }

    /// Newer advice over this one, member by member.
    func updated(with newer: BayeuxAdvice) -> BayeuxAdvice {
        BayeuxAdvice(
            reconnect: newer.reconnect ?? reconnect, interval: newer.interval ?? interval,
            timeout: newer.timeout ?? timeout, extra: newer.extra)
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 {
        let parts = components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }
}
