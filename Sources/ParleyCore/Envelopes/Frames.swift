/// Any frame a client sends on the chat socket.
///
/// ```swift
/// switch try ClientFrame(decoding: text) {
/// case .message(let message): …      // {"messagePayload": …}
/// case .profile(let update): …       // {"profile": …}
/// case .state(let state): …          // {"state": {"type": "ping"}}
/// case .unknown(let object): …       // anything else, kept as is
/// }
/// ```
public enum ClientFrame: JSONConvertible, Codable, Hashable {
    /// A conversation message, `{"messagePayload": …}`.
    case message(UserMessage)
    /// A profile update, `{"profile": …}`.
    case profile(ProfileUpdate)
    /// A connection-level frame, `{"state": …}`.
    case state(StateFrame)
    /// An object of a shape this version does not know.
    case unknown(JSONObject)

    /// Decodes a frame, choosing the case by its keys: `messagePayload`, then `profile`, then `state`.
    /// - Throws: ``ParleyError`` if the frame is not an object or its chosen case does not decode.
    public init(json: JSONValue) throws(ParleyError) {
        let object = try JSONObject(json: json)
        if object["messagePayload"] != nil {
            self = .message(try UserMessage(json: json))
        } else if object["profile"] != nil {
            self = .profile(try ProfileUpdate(json: json))
        } else if object["state"] != nil {
            self = .state(try StateFrame(json: json))
        } else {
            self = .unknown(object)
        }
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        switch self {
        case .message(let message): message.jsonValue
        case .profile(let update): update.jsonValue
        case .state(let state): state.jsonValue
        case .unknown(let object): .object(object)
        }
    }
}

/// Any frame a server sends on the chat socket.
public enum ServerFrame: JSONConvertible, Codable, Hashable {
    /// A conversation message from the skill or an agent, `{"messagePayload": …}`.
    case message(SkillMessage)
    /// A connection-level frame, `{"state": …}`, such as the heartbeat answer.
    case state(StateFrame)
    /// The answer to a `suggest` payload, `{"suggestions": […]}`.
    case suggestions(Suggestions)
    /// An object of a shape this version does not know.
    case unknown(JSONObject)

    /// Decodes a frame, choosing the case by its keys: `messagePayload`, `state`, then `suggestions`.
    ///
    /// Problems with a frame the client sent come back as a message whose payload is
    /// ``MessagePayload/Content/error(_:)``, which Oracle clients show and Parley clients read as a ``ParleyError``.
    /// - Throws: ``ParleyError`` if the frame is not an object or its chosen case does not decode.
    public init(json: JSONValue) throws(ParleyError) {
        let object = try JSONObject(json: json)
        if object["messagePayload"] != nil {
            self = .message(try SkillMessage(json: json))
        } else if object["state"] != nil {
            self = .state(try StateFrame(json: json))
        } else if object["suggestions"] != nil {
            self = .suggestions(try Suggestions(json: json))
        } else {
            self = .unknown(object)
        }
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        switch self {
        case .message(let message): message.jsonValue
        case .state(let state): state.jsonValue
        case .suggestions(let suggestions): suggestions.jsonValue
        case .unknown(let object): .object(object)
        }
    }
}

/// The server's answer to a `suggest` payload: autocomplete suggestions for what the user is typing.
public struct Suggestions: JSONConvertible, Codable, Hashable {
    /// The suggested utterances (`suggestions`).
    public var suggestions: [String]
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates an answer.
    public init(_ suggestions: [String], extra: JSONObject = [:]) {
        self.suggestions = suggestions
        self.extra = extra
    }

    /// Decodes `{"suggestions": […]}`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        suggestions = try reader.required("suggestions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("suggestions", suggestions)
        return builder.finish(with: extra)
    }
}
