/// A conversation message from the skill or a live agent to the user (server → client).
///
/// ```json
/// {"messagePayload": {"type": "text", "text": "Hello"}, "source": "BOT", "userId": "guest",
///  "msgId": "0b4b…", "endOfTurn": true}
/// ```
///
/// Only `messagePayload` is required: the documented examples carry no `source`, which
/// then means ``MessageSource/bot`` (``effectiveSource``), as in the Oracle Android SDK.
public struct SkillMessage: JSONConvertible, Codable, Hashable {
    /// What the skill or agent sends (`messagePayload`).
    public var payload: MessagePayload
    /// Who sent it (`source`): `BOT` or `AGENT`.
    public var source: MessageSource?
    /// The user the message is for (`userId`).
    public var userId: String?
    /// The server's id for the message (`msgId`), used to drop repeats.
    public var msgId: String?
    /// Whether the skill's turn is over (`endOfTurn`): hide the typing indicator.
    public var endOfTurn: Bool?
    /// The `requestId` of the user message this answers.
    public var requestId: String?
    /// The conversation thread (`threadId`).
    public var threadId: String?
    /// When the server created the message (`createdOn`); see ``createdOnDate``.
    public var createdOn: JSONValue?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject {
        get { storedExtra }
        set { storedExtra = newValue }
    }
    // Stored under another name (in the same place) so that the memberwise initializer Swift synthesizes, which
    // decoding uses, differs from the public one; the initializers are declared in an extension to keep it.
    var storedExtra: JSONObject

    /// The sender, `BOT` when the message does not say.
    public var effectiveSource: MessageSource { source ?? .bot }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 4 + extra.count)
        builder.set("messagePayload", payload)
        builder.set("source", source)
        builder.set("userId", userId)
        builder.set("msgId", msgId)
        builder.set("endOfTurn", endOfTurn)
        builder.set("requestId", requestId)
        builder.set("threadId", threadId)
        builder.set("createdOn", createdOn)
        return builder.finish(with: extra)
    }
}

extension SkillMessage {
    /// Creates a skill message.
    public init(
        payload: MessagePayload, source: MessageSource? = .bot, userId: String? = nil, msgId: String? = nil,
        endOfTurn: Bool? = nil, requestId: String? = nil, threadId: String? = nil, createdOn: JSONValue? = nil,
        extra: JSONObject = [:]
    ) {
        self = SkillMessage(
            payload: payload, source: source, userId: userId, msgId: msgId, endOfTurn: endOfTurn, requestId: requestId,
            threadId: threadId, createdOn: createdOn, storedExtra: extra)
    }

    /// Decodes `{"messagePayload": …, "source": …, …}`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        // Read into locals, then made at once by the memberwise initializer: assigning the stored properties one by
        // one made the optimizer copy the finished message out and destroy the original (see `MessagePayload`).
        let payload: MessagePayload = try reader.required("messagePayload")
        let source: MessageSource? = try reader.optional("source")
        let userId: String? = try reader.optional("userId")
        let msgId: String? = try reader.optional("msgId")
        let endOfTurn: Bool? = try reader.optional("endOfTurn")
        let requestId: String? = try reader.optional("requestId")
        let threadId: String? = try reader.optional("threadId")
        let createdOn: JSONValue? = try reader.optional("createdOn")
        self = SkillMessage(
            payload: payload, source: source, userId: userId, msgId: msgId, endOfTurn: endOfTurn, requestId: requestId,
            threadId: threadId, createdOn: createdOn, storedExtra: reader.rest)
    }
}

/// Who sent a skill message: the skill (`BOT`) or a human agent (`AGENT`).
public struct MessageSource: OpenString {
    /// The wire form.
    public let rawValue: String
    /// Creates a source from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The skill.
    public static let bot: Self = "BOT"
    /// A live agent.
    public static let agent: Self = "AGENT"
}
