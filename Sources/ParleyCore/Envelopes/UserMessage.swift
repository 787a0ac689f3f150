/// A conversation message from the user to the skill (client → server).
///
/// ```json
/// {"messagePayload": {"type": "text", "text": "hi"}, "userId": "guest",
///  "sdkMetadata": {"version": "25.02"}, "requestId": "wsreq/1732000000000/01234"}
/// ```
///
/// `userId` is optional when decoding: the server already knows the user from the socket, and
/// Parley's server uses the connection's user whatever the frame says.
public struct UserMessage: JSONConvertible, Codable, Hashable {
    /// What the user sends (`messagePayload`).
    public var payload: MessagePayload
    /// The user's id (`userId`).
    public var userId: String?
    /// Facts about the sending SDK (`sdkMetadata`).
    public var sdkMetadata: SDKMetadata?
    /// Correlates the skill's replies with this message (`requestId`, sent when response cancelling is on).
    public var requestId: String?
    /// The conversation thread (`threadId`), when the app uses threads.
    public var threadId: String?
    /// Top-level `metadata`, sent by the Android SDK and older web SDKs.
    public var metadata: JSONObject?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject {
        get { storedExtra }
        set { storedExtra = newValue }
    }
    // Stored under another name (in the same place) so that the memberwise initializer Swift synthesizes, which
    // decoding uses, differs from the public one; the initializers are declared in an extension to keep it.
    var storedExtra: JSONObject

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 3 + extra.count)
        builder.set("messagePayload", payload)
        builder.set("userId", userId)
        builder.set("sdkMetadata", sdkMetadata)
        builder.set("requestId", requestId)
        builder.set("threadId", threadId)
        builder.set("metadata", metadata)
        return builder.finish(with: extra)
    }
}

extension UserMessage {
    /// Creates a user message.
    public init(
        payload: MessagePayload, userId: String? = nil, sdkMetadata: SDKMetadata? = nil, requestId: String? = nil,
        threadId: String? = nil, metadata: JSONObject? = nil, extra: JSONObject = [:]
    ) {
        self = UserMessage(
            payload: payload, userId: userId, sdkMetadata: sdkMetadata, requestId: requestId, threadId: threadId,
            metadata: metadata, storedExtra: extra)
    }

    /// Decodes `{"messagePayload": …, "userId": …, …}`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        // Read into locals, then made at once by the memberwise initializer (see `SkillMessage.init(json:)`).
        let payload: MessagePayload = try reader.required("messagePayload")
        let userId: String? = try reader.optional("userId")
        let sdkMetadata: SDKMetadata? = try reader.optional("sdkMetadata")
        let requestId: String? = try reader.optional("requestId")
        let threadId: String? = try reader.optional("threadId")
        let metadata: JSONObject? = try reader.optional("metadata")
        self = UserMessage(
            payload: payload, userId: userId, sdkMetadata: sdkMetadata, requestId: requestId, threadId: threadId,
            metadata: metadata, storedExtra: reader.rest)
    }
}

/// Facts about the SDK that sent a user message (`sdkMetadata`).
public struct SDKMetadata: JSONConvertible, Codable, Hashable {
    /// The SDK release, such as `25.02`.
    public var version: String?
    /// For a message produced by voice, the speech recognition request it came from.
    public var speechId: String?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates SDK metadata.
    public init(version: String? = nil, speechId: String? = nil, extra: JSONObject = [:]) {
        self.version = version
        self.speechId = speechId
        self.extra = extra
    }

    /// Decodes `{"version": …, "speechId": …}`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        version = try reader.optional("version")
        speechId = try reader.optional("speechId")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("version", version)
        builder.set("speechId", speechId)
        return builder.finish(with: extra)
    }
}
