/// What GMS answers to every Chat API version 2 operation, and what it pushes as the chat goes on, on the
/// operation's channel:
///
/// ```json
/// {"messages": [{"from": {"nickname": "Kristi Sippola", "participantId": 2, "type": "Agent"}, "index": 2,
///   "text": "has joined", "type": "ParticipantJoined", "utcTime": 1432845013000}],
///  "chatEnded": false, "statusCode": 0, "alias": "117", "secureKey": "8b31761b2154884c", "userId": "007553863DC30029",
///  "chatId": "00048aAPEQJ8000U", "nextPosition": 3}
/// ```
///
/// `statusCode` 0 is success, 1 an error worth retrying, 2 an error not worth it (GMS "API Responses"); errors
/// come in `errors` as `{"code", "advice"}`. ``jsonValue`` is the object as received.
public struct ChatV2Response: JSONConvertible, Codable, Hashable {
    /// `statusCode`: 0 success, 1 retry, 2 give up. Absent counts as 0.
    public var statusCode: Int
    /// `chatEnded`.
    public var chatEnded: Bool
    /// `secureKey`: the chat's key, sent with every later operation.
    public var secureKey: String?
    /// `userId`: this party's id.
    public var userID: String?
    /// `chatId`.
    public var chatID: String?
    /// `alias`: the chat server that answered.
    public var alias: String?
    /// `nextPosition`: the index to ask from next.
    public var nextPosition: Int?
    /// `messages`: transcript events, in the order received.
    public var messages: [ChatV2Event]
    /// `errors`.
    public var errors: [ChatV2Error]
    /// The object as received (or as built).
    public let jsonValue: JSONValue

    /// Decodes a response. Known members must have their documented types; `nextPosition` and `index` may also be
    /// numeric strings. Unknown members are kept in ``jsonValue``.
    /// - Throws: ``ParleyError/Code/typeMismatch`` for a member of the wrong type, ``ParleyError/Code/invalidValue``
    ///   for a position or status that is not a small whole number.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        let status = try reader.optional("statusCode", as: Int.self) ?? 0
        guard (0...999).contains(status) else {
            throw ParleyError(
                .invalidValue, "statusCode \(status) is not 0 to 999", path: JSONPath([.key("statusCode")]))
        }
        statusCode = status
        chatEnded = try reader.optional("chatEnded", as: Bool.self) ?? false
        secureKey = try reader.optional("secureKey")
        userID = try reader.optional("userId")
        chatID = try reader.optional("chatId")
        alias = try Self.text(reader.optional("alias", as: JSONValue.self), "alias")
        nextPosition = try ChatV2Event.position(reader.optional("nextPosition", as: JSONValue.self), "nextPosition")
        messages = try reader.optional("messages") ?? []
        errors = try reader.optional("errors") ?? []
        jsonValue = json
    }

    /// A response built by a server (the simulator).
    public init(
        statusCode: Int = 0, chatEnded: Bool = false, secureKey: String? = nil, userID: String? = nil,
        chatID: String? = nil, alias: String? = nil, nextPosition: Int? = nil, messages: [ChatV2Event] = [],
        errors: [ChatV2Error] = []
    ) {
        self.statusCode = statusCode
        self.chatEnded = chatEnded
        self.secureKey = secureKey
        self.userID = userID
        self.chatID = chatID
        self.alias = alias
        self.nextPosition = nextPosition
        self.messages = messages
        self.errors = errors
        var builder = ObjectBuilder()
        builder.set("messages", messages)
        builder.set("chatEnded", chatEnded)
        builder.set("statusCode", statusCode)
        builder.set("alias", alias)
        builder.set("secureKey", secureKey)
        builder.set("userId", userID)
        builder.set("chatId", chatID)
        builder.set("nextPosition", nextPosition)
        if !errors.isEmpty { builder.set("errors", errors) }
        jsonValue = builder.finish()
    }

    /// Whether GMS reported a failure: a `statusCode` other than 0, or `errors`.
    public var isFailure: Bool { statusCode != 0 || !errors.isEmpty }

    /// The failure as an error with `code` (wrapping ``ChatV2Failure``), or `nil` on success.
    public func failure(_ code: ParleyError.Code, _ context: String) -> ParleyError? {
        guard isFailure else { return nil }
        let failure = ChatV2Failure(statusCode: statusCode, chatEnded: chatEnded, errors: errors)
        return ParleyError(code, "\(context): \(failure.summary)", underlying: failure)
    }

    /// An `alias` GMS may send as a number.
    private static func text(_ value: JSONValue?, _ key: String) throws(ParleyError) -> String? {
        switch value {
        case nil: return nil
        case .string(let text): return text
        case .number(let number) where Int(exactly: number) != nil: return Int(exactly: number).map(String.init)
        case .some(let other):
            throw ParleyError(
                .typeMismatch, "expected a string, found \(other.typeName)", path: JSONPath([.key(key)]))
        }
    }

    /// Equal when the JSON is.
    public static func == (lhs: ChatV2Response, rhs: ChatV2Response) -> Bool { lhs.jsonValue == rhs.jsonValue }
    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonValue) }
}

/// One entry of `errors`: `{"code": 102, "advice": "…"}`.
public struct ChatV2Error: JSONConvertible, Codable, Hashable, Sendable {
    /// `code`; GMS publishes no list, so it is reported, not interpreted.
    public var code: Int
    /// `advice`: what GMS says about it.
    public var advice: String
    /// Members this version does not know.
    public var extra: JSONObject

    /// An error entry.
    public init(code: Int, advice: String, extra: JSONObject = [:]) {
        self.code = code
        self.advice = advice
        self.extra = extra
    }

    /// Decodes `{"code", "advice"}` (`code` a whole number or a numeric string; `advice` may be absent).
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        let raw = try reader.required("code", as: JSONValue.self)
        guard let code = LenientObject.int(raw), (-999_999...999_999).contains(code) else {
            throw ParleyError(.invalidValue, "error code \(raw.jsonString()) is not a small whole number")
                .within(.key("code"))
        }
        self.code = code
        advice = try reader.optional("advice") ?? ""
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("code", code)
        builder.set("advice", advice)
        return builder.finish(with: extra)
    }
}

/// What a failed Chat API version 2 answer said: the ``ParleyError/underlying`` of `gms.chatRefused` and
/// `gms.chatFailed`.
public struct ChatV2Failure: Error, Sendable, Hashable {
    /// `statusCode`: 1 worth retrying, 2 not.
    public var statusCode: Int
    /// `chatEnded`.
    public var chatEnded: Bool
    /// `errors`.
    public var errors: [ChatV2Error]

    /// A failure.
    public init(statusCode: Int, chatEnded: Bool, errors: [ChatV2Error]) {
        self.statusCode = statusCode
        self.chatEnded = chatEnded
        self.errors = errors
    }

    /// Whether GMS says trying again may work (`statusCode` 1).
    public var isRetryable: Bool { statusCode == 1 }

    /// "statusCode 2: 102 Chat session is not found".
    public var summary: String {
        let details = errors.map { "\($0.code) \($0.advice)" }.joined(separator: "; ")
        return "statusCode \(statusCode)" + (details.isEmpty ? "" : ": \(details)")
    }
}
