import Foundation

/// One line of a GMS chat transcript: `[eventType, nickname, text, partyId, partyType]`.
///
/// ```json
/// ["Notice.Joined", "Kristi Sippola", "has joined the session", "17", "AGENT"]
/// ```
public struct TranscriptEntry: JSONConvertible, Codable, Hashable {
    /// What happened (element 0).
    public var kind: Kind
    /// Who did it, as shown (element 1).
    public var nickname: String
    /// The message, or the notice's text (element 2).
    public var text: String
    /// The party's id (element 3), a numeric string in GMS.
    public var partyID: String
    /// The party's role (element 4).
    public var partyType: PartyType
    /// The entry's place in the transcript, when known (from the update's `transcriptPosition`).
    public var position: Int?
    /// Elements after the fifth, written back unchanged.
    public var extra: [JSONValue]

    /// An entry.
    public init(
        kind: Kind, nickname: String, text: String, partyID: String, partyType: PartyType, position: Int? = nil,
        extra: [JSONValue] = []
    ) {
        self.kind = kind
        self.nickname = nickname
        self.text = text
        self.partyID = partyID
        self.partyType = partyType
        self.position = position
        self.extra = extra
    }

    /// Decodes the array form; missing elements are empty, numbers are read as their text.
    public init(json: JSONValue) throws(ParleyError) {
        guard case .array(let elements) = json, !elements.isEmpty else {
            throw ParleyError(
                .typeMismatch, "expected a transcript entry array, found \(json.typeName)", path: JSONPath())
        }
        func element(_ index: Int) -> String {
            guard index < elements.count else { return "" }
            switch elements[index] {
            case .string(let text): return text
            case .number(let number): return Int(exactly: number).map(String.init) ?? String(number)
            default: return ""
            }
        }
        kind = Kind(rawValue: element(0))
        nickname = element(1)
        text = element(2)
        partyID = element(3)
        partyType = PartyType(rawValue: element(4))
        position = nil
        extra = Array(elements.dropFirst(5))
    }

    /// The array form (without ``position``, which is not part of it).
    public var jsonValue: JSONValue {
        .array(
            [.string(kind.rawValue), .string(nickname), .string(text), .string(partyID), .string(partyType.rawValue)]
                + extra)
    }

    /// A transcript event type. Open: a type this version does not know decodes and round-trips.
    public struct Kind: OpenString {
        /// The wire form.
        public let rawValue: String
        /// A value from its wire form.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A chat message.
        public static let text: Self = "Message.Text"
        /// A party joined.
        public static let joined: Self = "Notice.Joined"
        /// A party left.
        public static let left: Self = "Notice.Left"
        /// A party started typing.
        public static let typingStarted: Self = "Notice.TypingStarted"
        /// A party stopped typing.
        public static let typingStopped: Self = "Notice.TypingStopped"
        /// A custom notice (GMS sends one to the agent when the app goes to the background).
        public static let custom: Self = "Notice.Custom"
        /// A URL pushed to the customer.
        public static let pushURL: Self = "Notice.PushUrl"
    }

    /// A party's role. Open.
    public struct PartyType: OpenString {
        /// The wire form.
        public let rawValue: String
        /// A value from its wire form.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A contact-centre agent.
        public static let agent: Self = "AGENT"
        /// The customer: this app.
        public static let client: Self = "CLIENT"
        /// A system or bot party.
        public static let external: Self = "EXTERNAL"
        /// A supervisor.
        public static let supervisor: Self = "SUPERVISOR"
    }
}

/// A GMS chat state (`chatIxnState`). Open.
public struct ChatInteractionState: OpenString {
    /// The wire form.
    public let rawValue: String
    /// A value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The chat was created.
    public static let connected: Self = "CONNECTED"
    /// The update carries transcript lines.
    public static let transcript: Self = "TRANSCRIPT"
    /// The chat ended.
    public static let disconnected: Self = "DISCONNECTED"
}
