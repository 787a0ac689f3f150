public import Foundation

/// One entry of the conversation: a message the user sent or one the skill or an agent sent.
public struct ChatMessage: Sendable, Hashable, Identifiable, JSONConvertible {
    /// Who sent a message.
    public struct Sender: OpenString {
        /// The value as it is written on the wire.
        public let rawValue: String
        /// Creates a value from its wire form; values this version does not know are kept.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The user of this app.
        public static let user: Self = "user"
        /// The skill (`source: BOT`).
        public static let bot: Self = "bot"
        /// A live agent (`source: AGENT`).
        public static let agent: Self = "agent"
        /// The client itself: a default response for a slow skill (`enableDefaultClientResponse`).
        public static let client: Self = "client"
    }

    /// The envelope as it went over the wire.
    public enum Envelope: Sendable, Hashable {
        /// A message the user sent.
        case user(UserMessage)
        /// A message from the skill or an agent.
        case skill(SkillMessage)
    }

    /// A stable id: the server's `msgId` when it sent one, otherwise one the client made.
    public var id: String
    /// When the client sent or received it.
    public var date: Date
    /// The message as sent or received.
    public var envelope: Envelope
    /// For a message the user sent: where it is on its way to the server.
    public var delivery: DeliveryState?

    /// An entry.
    public init(
        id: String = UUID.random().uuidString, date: Date = Date(), envelope: Envelope, delivery: DeliveryState? = nil
    ) {
        self.id = id
        self.date = date
        self.envelope = envelope
        self.delivery = delivery
    }

    /// Who sent it.
    public var sender: Sender {
        switch envelope {
        case .user: .user
        case .skill(let message):
            switch message.effectiveSource {
            case .agent: .agent
            case .client: .client
            default: .bot
            }
        }
    }

    /// Whether this message answers the messages before it, for `disablePastActions`: any message the user sent,
    /// except an auto-submitted form field (a `formSubmission` with `partialSubmitField`), after which the skill's
    /// form, often replaced in place, is still being filled in.
    public var answersEarlierMessages: Bool {
        guard sender == .user else { return false }
        if case .formSubmission(let submission) = payload.content, submission.partialSubmitField != nil { return false }
        return true
    }

    /// What it says.
    public var payload: MessagePayload {
        get {
            switch envelope {
            case .user(let message): message.payload
            case .skill(let message): message.payload
            }
        }
        set {
            switch envelope {
            case .user(var message):
                message.payload = newValue
                envelope = .user(message)
            case .skill(var message):
                message.payload = newValue
                envelope = .skill(message)
            }
        }
    }

    /// `{"id":…,"date":<seconds since 1970>,"user"|"skill":{envelope},"delivery"?:…}`: the form a storage
    /// folder keeps.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        id = try reader.required("id")
        date = Date(timeIntervalSince1970: try reader.required("date") as Double)
        if let user: UserMessage = try reader.optional("user") {
            envelope = .user(user)
        } else {
            envelope = .skill(try reader.required("skill"))
        }
        delivery = (try reader.optional("delivery") as String?).flatMap(DeliveryState.init(rawValue:))
    }

    /// The JSON form.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["id": .string(id), "date": .number(date.timeIntervalSince1970)]
        switch envelope {
        case .user(let message): object["user"] = message.jsonValue
        case .skill(let message): object["skill"] = message.jsonValue
        }
        if let delivery { object["delivery"] = .string(delivery.rawValue) }
        return .object(object)
    }
}
