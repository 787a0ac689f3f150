// Parley's reliability extension (docs/protocol.md §13): client message ids with acknowledgements,
// per-conversation sequence numbers on what the server sends, and resuming after a sequence number.
// Everything is negotiated with a `parley` state frame; peers that do not know it see unknown keys and
// unknown state types, which the base protocol tells them to keep or ignore.

extension StateType {
    /// Parley's negotiation and resume frame (both directions), §13.
    public static let parley: Self = "parley"
    /// Parley's acknowledgement of a user message or profile update (server → client), §13.
    public static let ack: Self = "ack"
}

/// A reliability feature a Parley server offers (`capabilities` of ``ParleyWelcome``).
public struct Capability: OpenString {
    /// The value as it is written on the wire.
    public let rawValue: String
    /// Creates a value from its wire form; values this version does not know are kept.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// User messages and profile updates with a `clientMessageId` are acknowledged once stored, and a repeat
    /// is acknowledged again but not handled twice.
    public static let acknowledgements: Self = "ack"
    /// Every message the server sends in the conversation has a `sequence`: 1, 2, 3… with no gaps.
    public static let sequence: Self = "sequence"
    /// A `parley` frame with `resumeAfter` replays the messages after that sequence number.
    public static let resume: Self = "resume"
}

/// Client → server: "I speak Parley's extension; send what follows `resumeAfter`".
///
/// `{"state":{"type":"parley","version":1,"resumeAfter":41}}`. Sent after `auth` (if any) and before the
/// handshake `ping`; sent again on an open socket to ask for a replay (a gap in the sequence numbers).
public struct ParleyHello: Sendable, Hashable {
    /// The extension's version; 1.
    public var version: Int
    /// The last sequence number the client holds, in order; `nil` asks for no replay.
    public var resumeAfter: Int?

    /// A hello.
    public init(version: Int = 1, resumeAfter: Int? = nil) {
        self.version = version
        self.resumeAfter = resumeAfter
    }

    /// Reads a `parley` state frame sent by a client; `nil` for another frame.
    public init?(_ state: StateFrame) {
        guard state.type == .parley else { return nil }
        version = state.extra["version"]?.intValue ?? 1
        resumeAfter = state.extra["resumeAfter"]?.intValue
    }

    /// The frame.
    public var stateFrame: StateFrame {
        var extra: JSONObject = ["version": .number(Double(version))]
        if let resumeAfter { extra["resumeAfter"] = .number(Double(resumeAfter)) }
        return StateFrame(type: .parley, extra: extra)
    }
}

/// Server → client: the answer to ``ParleyHello``, before any replayed message.
///
/// ```json
/// {"state": {"type": "parley", "version": 1, "capabilities": ["ack", "sequence", "resume"],
///            "lastSequence": 57, "maxFrameSize": 1048576}}
/// ```
public struct ParleyWelcome: Sendable, Hashable {
    /// The extension's version; 1.
    public var version: Int
    /// What the server offers.
    public var capabilities: [Capability]
    /// The sequence number of the newest message the server sent in this conversation; 0 for none.
    public var lastSequence: Int
    /// The largest frame the server reads; a client does not send larger ones.
    public var maxFrameSize: Int?

    /// A welcome.
    public init(
        version: Int = 1, capabilities: [Capability] = [.acknowledgements, .sequence, .resume], lastSequence: Int,
        maxFrameSize: Int? = nil
    ) {
        self.version = version
        self.capabilities = capabilities
        self.lastSequence = lastSequence
        self.maxFrameSize = maxFrameSize
    }

    /// Reads a `parley` state frame sent by a server; `nil` for another frame.
    public init?(_ state: StateFrame) {
        guard state.type == .parley, case .array(let offered)? = state.extra["capabilities"] else { return nil }
        version = state.extra["version"]?.intValue ?? 1
        capabilities = offered.compactMap { $0.stringValue.map(Capability.init(rawValue:)) }
        lastSequence = state.extra["lastSequence"]?.intValue ?? 0
        maxFrameSize = state.extra["maxFrameSize"]?.intValue
    }

    /// The frame.
    public var stateFrame: StateFrame {
        var extra: JSONObject = [
            "version": .number(Double(version)), "capabilities": .array(capabilities.map { .string($0.rawValue) }),
            "lastSequence": .number(Double(lastSequence)),
        ]
        if let maxFrameSize { extra["maxFrameSize"] = .number(Double(maxFrameSize)) }
        return StateFrame(type: .parley, extra: extra)
    }
}

/// Server → client: a user message or profile update with a `clientMessageId` was stored (or could not be).
///
/// `{"state":{"type":"ack","clientMessageId":"…","sequence":42}}`; a repeat adds `"duplicate":true`; a frame
/// the server cannot take carries `"error":{"code","message","path"}` instead of `sequence`, and the client
/// must not send it again.
public struct Acknowledgement: Sendable, Hashable {
    /// The id the client gave the message.
    public var clientMessageId: String
    /// The message's place in the conversation's stored history (user messages count too); `nil` with an error.
    public var sequence: Int?
    /// Whether the server had already stored this id (the message was not handled again).
    public var duplicate: Bool
    /// Why the server refused the message; it will never take it — except `server.rateLimited`, which it will take
    /// after ``retryAfter``.
    public var error: ParleyError?
    /// With `server.rateLimited`: how many seconds to wait before sending the message again.
    public var retryAfter: Int?

    /// An acknowledgement.
    public init(clientMessageId: String, sequence: Int? = nil, duplicate: Bool = false, error: ParleyError? = nil) {
        self.clientMessageId = clientMessageId
        self.sequence = sequence
        self.duplicate = duplicate
        self.error = error
    }

    /// Reads an `ack` state frame; `nil` for another frame.
    public init?(_ state: StateFrame) {
        guard state.type == .ack, let id = state.extra["clientMessageId"]?.stringValue else { return nil }
        clientMessageId = id
        sequence = state.extra["sequence"]?.intValue
        duplicate = state.extra["duplicate"] == .bool(true)
        error = state.extra["error"].flatMap { try? ParleyError(json: $0) }
        retryAfter = state.extra["retryAfter"]?.intValue
    }

    /// The frame.
    public var stateFrame: StateFrame {
        var extra: JSONObject = ["clientMessageId": .string(clientMessageId)]
        if let sequence { extra["sequence"] = .number(Double(sequence)) }
        if duplicate { extra["duplicate"] = .bool(true) }
        if let error { extra["error"] = error.jsonValue }
        if let retryAfter { extra["retryAfter"] = .number(Double(retryAfter)) }
        return StateFrame(type: .ack, extra: extra)
    }
}

extension UserMessage {
    /// Parley's idempotency key (`clientMessageId`, §13): a repeat with the same key is not handled twice.
    public var clientMessageId: String? {
        get { extra["clientMessageId"]?.stringValue }
        set { extra["clientMessageId"] = newValue.map(JSONValue.string) }
    }
}

extension ProfileUpdate {
    /// Parley's idempotency key (`clientMessageId`, §13).
    public var clientMessageId: String? {
        get { extra["clientMessageId"]?.stringValue }
        set { extra["clientMessageId"] = newValue.map(JSONValue.string) }
    }
}

extension SkillMessage {
    /// Parley's per-conversation sequence number (`sequence`, §13): 1, 2, 3… over everything the server sends
    /// in a conversation, with no gaps; absent on messages that are not part of the conversation (errors about
    /// a frame) and from servers without the extension.
    public var sequence: Int? {
        get { extra["sequence"]?.intValue }
        set { extra["sequence"] = newValue.map { .number(Double($0)) } }
    }
}
