/// A connection-level frame, sent as `{"state": {...}}`: heartbeat, authentication, push token.
///
/// ```json
/// {"state": {"type": "ping"}}
/// {"state": {"type": "auth", "tokenType": "jwt", "token": "eyJhbGciOiJIUzI1NiJ9…"}}
/// ```
public struct StateFrame: JSONConvertible, Codable, Hashable {
    /// What the frame is for (`type`).
    public var type: StateType
    /// The credential of an `auth` frame (`token`).
    public var token: String?
    /// The kind of credential of an `auth` frame (`tokenType`), `jwt`.
    public var tokenType: String?
    /// The push-notification token of a `token` frame (`deviceToken`).
    public var deviceToken: String?
    /// The platform of a `token` frame (`deviceType`): `android`, `ios` or `desktop`.
    public var deviceType: String?
    /// Members of the inner `state` object this version does not know (such as
    /// `store.undelivered.messages`), written back unchanged.
    public var extra: JSONObject
    /// Members beside `state` in the frame, written back unchanged.
    public var envelopeExtra: JSONObject

    /// Creates a state frame.
    public init(
        type: StateType, token: String? = nil, tokenType: String? = nil, deviceToken: String? = nil,
        deviceType: String? = nil, extra: JSONObject = [:], envelopeExtra: JSONObject = [:]
    ) {
        self.type = type
        self.token = token
        self.tokenType = tokenType
        self.deviceToken = deviceToken
        self.deviceType = deviceType
        self.extra = extra
        self.envelopeExtra = envelopeExtra
    }

    /// The heartbeat a client sends every 30 seconds.
    public static let ping = StateFrame(type: .ping)
    /// The server's answer to ``ping``.
    public static let pong = StateFrame(type: .pong)

    /// An authentication frame carrying a JWT, sent as the first frame on a socket.
    public static func auth(jwt token: String) -> StateFrame {
        StateFrame(type: .auth, token: token, tokenType: "jwt")
    }

    /// Decodes `{"state": {"type": …, …}}`.
    public init(json: JSONValue) throws(ParleyError) {
        var envelope = try FieldReader(json)
        let state: JSONObject = try envelope.required("state")
        envelopeExtra = envelope.rest
        var reader: FieldReader
        do {
            reader = try FieldReader(.object(state))
            type = try reader.required("type")
            token = try reader.optional("token")
            tokenType = try reader.optional("tokenType")
            deviceToken = try reader.optional("deviceToken")
            deviceType = try reader.optional("deviceType")
        } catch {
            throw error.within(.key("state"))
        }
        extra = reader.rest
    }

    /// The wire form, `{"state": {…}}`.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("type", type)
        builder.set("token", token)
        builder.set("tokenType", tokenType)
        builder.set("deviceToken", deviceToken)
        builder.set("deviceType", deviceType)
        var envelope = ObjectBuilder(capacity: 1 + envelopeExtra.count)
        envelope.set("state", builder.finish(with: extra))
        return envelope.finish(with: envelopeExtra)
    }
}

/// The kind of a ``StateFrame``.
public struct StateType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates a state type from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Client heartbeat.
    public static let ping: Self = "ping"
    /// Server answer to a heartbeat.
    public static let pong: Self = "pong"
    /// Client authentication with a token.
    public static let auth: Self = "auth"
    /// Push-notification token registration.
    public static let token: Self = "token"
}
