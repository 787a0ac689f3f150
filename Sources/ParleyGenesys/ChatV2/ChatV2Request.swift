/// One Chat API version 2 operation as the client publishes it on `/service/chatV2/{serviceName}`:
/// `{"operation": "sendMessage", "secureKey": "…", "message": "Hello"}`.
///
/// ```swift
/// let send = ChatV2Request(.sendMessage, ["message": "Hello"])
/// comet.publish(send.stamped(secureKey: key).jsonValue, to: channel)
/// ```
///
/// Members other than `operation` are kept as they are, so a request this version does not know round-trips.
public struct ChatV2Request: JSONConvertible, Codable, Hashable {
    /// `operation`.
    public var operation: ChatV2Operation
    /// The other members (`secureKey`, `message`, `nickname`, `userData`, `transcriptPosition`, …), in order.
    public var members: JSONObject

    /// A request.
    public init(_ operation: ChatV2Operation, _ members: JSONObject = [:]) {
        self.operation = operation
        self.members = members.removing("operation")
    }

    /// Decodes a request; `operation` must be a string.
    /// - Throws: ``ParleyError/Code/typeMismatch`` when it is not an object, ``ParleyError/Code/missingField``
    ///   without `operation`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        operation = try reader.required("operation")
        members = reader.rest
    }

    /// The wire form, `operation` first.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["operation": .string(operation.rawValue)]
        object.append(contentsOf: members)
        return .object(object)
    }

    /// `secureKey`, the chat's key.
    public var secureKey: String? { members["secureKey"]?.stringValue }
    /// `message`: the text of `sendMessage`, `customNotice`, and the typing preview.
    public var message: String? { members["message"]?.stringValue }
    /// `nickname`.
    public var nickname: String? { members["nickname"]?.stringValue }
    /// `userData`.
    public var userData: JSONObject? { members["userData"]?.objectValue }
    /// `transcriptPosition` of `requestNotifications`, from a number or a numeric string; `nil` when absent or not
    /// a position (0 to ``ChatV2Event/maximumIndex``).
    public var transcriptPosition: Int? {
        guard let position = LenientObject.int(members["transcriptPosition"]),
            (0...ChatV2Event.maximumIndex).contains(position)
        else { return nil }
        return position
    }

    /// The request with `secureKey` set (replacing any).
    public func stamped(secureKey: String) -> ChatV2Request {
        var members = members.removing("secureKey")
        members.append("secureKey", .string(secureKey))
        return ChatV2Request(operation, members)
    }
}

/// A Chat API version 2 operation. Open: an operation this version does not know decodes and round-trips.
public struct ChatV2Operation: OpenString {
    /// The wire form.
    public let rawValue: String
    /// A value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Starts a chat (`nickname`, `firstName`, `lastName`, `emailAddress`, `subject`, `userData`).
    public static let requestChat: Self = "requestChat"
    /// Sends a message (`message`, optional `messageType`).
    public static let sendMessage: Self = "sendMessage"
    /// The customer started typing (optional `message`, a preview).
    public static let startTyping: Self = "startTyping"
    /// The customer stopped typing.
    public static let stopTyping: Self = "stopTyping"
    /// Sends the agent a URL (`pushUrl`).
    public static let pushURL: Self = "pushUrl"
    /// Changes the customer's name in the chat (`nickname`).
    public static let updateNickname: Self = "updateNickname"
    /// Adds or changes the interaction's user data (`userData`).
    public static let updateData: Self = "updateData"
    /// Sends the agent a notice for a customised desktop (`message`).
    public static let customNotice: Self = "customNotice"
    /// Leaves the chat.
    public static let disconnect: Self = "disconnect"
    /// Asks for the transcript again from `transcriptPosition` on (inclusive; 0 or absent: everything), and binds
    /// the chat to this Comet session: what a client sends after it lost its Comet session.
    public static let requestNotifications: Self = "requestNotifications"
}
