public import Foundation

/// One transcript event of Chat API version 2 (an element of `messages`):
///
/// ```json
/// {"from": {"nickname": "Kristi Sippola", "participantId": 2, "type": "Agent"}, "index": 4, "text": "Hello",
///  "type": "Message", "utcTime": 1432845013000}
/// ```
///
/// `index` is the event's place in the transcript (1, 2, …); it orders events and tells repeats apart.
public struct ChatV2Event: JSONConvertible, Codable, Hashable {
    /// The largest index or position accepted (2³¹ − 1): beyond it a number is hostile, not a transcript.
    public static let maximumIndex = Int(Int32.max)
    /// The latest `utcTime` accepted, in milliseconds (the end of the year 9999).
    public static let maximumUTCTime: Int64 = 253_402_300_799_999

    /// `type`.
    public var type: ChatV2EventType
    /// `from`.
    public var from: ChatV2Party
    /// `index`.
    public var index: Int
    /// `text`: the message, the notice, the URL; absent for some events.
    public var text: String?
    /// `utcTime`, milliseconds since 1970.
    public var utcTime: Int64?
    /// `userData`, when the event carries some.
    public var userData: JSONObject?
    /// The object as received (or as built).
    public let jsonValue: JSONValue

    /// Decodes an event.
    /// - Throws: ``ParleyError/Code/missingField`` without `type`, `from` or `index`;
    ///   ``ParleyError/Code/typeMismatch`` for a member of the wrong type; ``ParleyError/Code/invalidValue`` for an
    ///   index or time out of range.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        type = try reader.required("type")
        from = try reader.required("from")
        guard let index = try Self.position(reader.required("index", as: JSONValue.self), "index") else {
            throw ParleyError(.missingField, "missing required field \"index\"", path: JSONPath([.key("index")]))
        }
        self.index = index
        text = try reader.optional("text")
        if let time = try reader.optional("utcTime", as: JSONValue.self) {
            guard let milliseconds = LenientObject.int(time), (0...Int(Self.maximumUTCTime)).contains(milliseconds)
            else {
                throw ParleyError(
                    .invalidValue, "utcTime \(time.jsonString()) is not a time in milliseconds",
                    path: JSONPath([.key("utcTime")]))
            }
            utcTime = Int64(milliseconds)
        } else {
            utcTime = nil
        }
        userData = try reader.optional("userData")
        jsonValue = json
    }

    /// An event built by a server (the simulator).
    public init(
        type: ChatV2EventType, from: ChatV2Party, index: Int, text: String? = nil, utcTime: Int64? = nil,
        userData: JSONObject? = nil
    ) {
        self.type = type
        self.from = from
        self.index = index
        self.text = text
        self.utcTime = utcTime
        self.userData = userData
        var builder = ObjectBuilder()
        builder.set("from", from)
        builder.set("index", index)
        builder.set("text", text)
        builder.set("type", type)
        builder.set("utcTime", utcTime.map { Double($0) })
        builder.set("userData", userData.map(JSONValue.object))
        jsonValue = builder.finish()
    }

    /// ``utcTime`` as a date.
    public var date: Date? { utcTime.map { Date(timeIntervalSince1970: Double($0) / 1000) } }

    /// A transcript position: a whole number 0 to ``maximumIndex``, or such a number as a string.
    static func position(_ value: JSONValue?, _ key: String) throws(ParleyError) -> Int? {
        guard let value, !value.isNull else { return nil }
        switch value {
        case .number, .string:
            guard let position = LenientObject.int(value), (0...maximumIndex).contains(position) else {
                throw ParleyError(
                    .invalidValue, "\(key) \(value.jsonString()) is not a position (0 to \(maximumIndex))",
                    path: JSONPath([.key(key)]))
            }
            return position
        default:
            throw ParleyError(
                .typeMismatch, "expected a position, found \(value.typeName)", path: JSONPath([.key(key)]))
        }
    }

    /// Equal when the JSON is.
    public static func == (lhs: ChatV2Event, rhs: ChatV2Event) -> Bool { lhs.jsonValue == rhs.jsonValue }
    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonValue) }
}

/// `from`: who caused an event.
public struct ChatV2Party: JSONConvertible, Codable, Hashable, Sendable {
    /// `nickname`.
    public var nickname: String
    /// `participantId`, a number or a string on the wire, kept as text.
    public var participantID: String
    /// `type`.
    public var type: ChatV2PartyType
    /// Members this version does not know.
    public var extra: JSONObject

    /// A party.
    public init(nickname: String, participantID: String, type: ChatV2PartyType, extra: JSONObject = [:]) {
        self.nickname = nickname
        self.participantID = participantID
        self.type = type
        self.extra = extra
    }

    /// Decodes `{"nickname", "participantId", "type"}`; a missing nickname or id is empty.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        nickname = try reader.optional("nickname") ?? ""
        switch try reader.optional("participantId", as: JSONValue.self) {
        case nil: participantID = ""
        case .string(let text): participantID = text
        case .number(let number):
            guard let whole = Int(exactly: number) else {
                throw ParleyError(
                    .invalidValue, "participantId \(JSONValue.number(number).jsonString()) is not a whole number",
                    path: JSONPath([.key("participantId")]))
            }
            participantID = String(whole)
        case .some(let other):
            throw ParleyError(
                .typeMismatch, "expected a participant id, found \(other.typeName)",
                path: JSONPath([.key("participantId")]))
        }
        type = try reader.required("type")
        extra = reader.rest
    }

    /// The wire form (`participantId` as a number when it is one).
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("nickname", nickname)
        if let number = Int(participantID) {
            builder.set("participantId", number)
        } else {
            builder.set("participantId", participantID)
        }
        builder.set("type", type)
        return builder.finish(with: extra)
    }
}

/// An event's `type`. Open: a type this version does not know decodes and round-trips.
public struct ChatV2EventType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// A value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A chat message.
    public static let message: Self = "Message"
    /// A party joined.
    public static let participantJoined: Self = "ParticipantJoined"
    /// A party left.
    public static let participantLeft: Self = "ParticipantLeft"
    /// A party started typing.
    public static let typingStarted: Self = "TypingStarted"
    /// A party stopped typing.
    public static let typingStopped: Self = "TypingStopped"
    /// A URL was pushed (`text` is the URL).
    public static let pushURL: Self = "PushUrl"
    /// A custom notice.
    public static let customNotice: Self = "CustomNotice"
    /// A party changed its nickname.
    public static let nicknameUpdated: Self = "NicknameUpdated"
    /// A notice from an external party.
    public static let external: Self = "External"
}

/// A party's `type`. Open.
public struct ChatV2PartyType: OpenString {
    /// The wire form.
    public let rawValue: String
    /// A value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A contact-centre agent.
    public static let agent: Self = "Agent"
    /// The customer: this app.
    public static let client: Self = "Client"
    /// A supervisor.
    public static let supervisor: Self = "Supervisor"
    /// A system or bot party.
    public static let external: Self = "External"
}
