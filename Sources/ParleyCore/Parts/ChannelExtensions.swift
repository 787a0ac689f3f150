/// Channel-specific properties of a message, action or field (`channelExtensions`).
///
/// The Oracle web SDK reads flat keys (`agentSession`, `replaceMessage`, …) while the Oracle
/// node SDK writes objects keyed by channel (`{"websdk": {…}}`), so the storage is the JSON
/// object itself, with typed accessors for the keys Parley acts on.
///
/// ```json
/// {"agentSession": {"name": "Ava"}, "replaceMessage": "true"}
/// ```
public struct ChannelExtensions: JSONConvertible, Codable, Hashable, ExpressibleByDictionaryLiteral {
    /// Every member, as received.
    public var values: JSONObject

    /// Creates extensions from a JSON object.
    public init(_ values: JSONObject = [:]) {
        self.values = values
    }

    /// Creates extensions from a literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        values = JSONObject(elements.map { JSONObject.Member($0.0, $0.1) })
    }

    /// Accepts any JSON object.
    public init(json: JSONValue) throws(ParleyError) {
        values = try JSONObject(json: json)
    }

    /// The object.
    public var jsonValue: JSONValue { .object(values) }

    /// The member `key`.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Replace the previous skill message instead of adding one (`replaceMessage` or
    /// `websdk.replaceMessage`, a Boolean or the string `"true"`).
    public var replaceMessage: Bool {
        Self.flag(values["replaceMessage"] ?? values["websdk.replaceMessage"])
    }

    /// Add the text to the previous bubble (`appendMessage`, a Boolean or the string `"True"`).
    public var appendMessage: Bool {
        Self.flag(values["appendMessage"])
    }

    /// A special rendering, such as `stars` for a rating (`displayType`).
    public var displayType: String? {
        values["displayType"]?.stringValue
    }

    /// The live agent who sent the message (`agentSession`, or `agentName` alone).
    public var agentSession: AgentSession? {
        if let session = values["agentSession"], let decoded = try? AgentSession(json: session) { return decoded }
        return values["agentName"]?.stringValue.map { AgentSession(name: $0) }
    }

    private static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: flag
        case .string(let text)?: text.lowercased() == "true"
        default: false
        }
    }
}

/// Who the live agent is and how to draw their name and avatar (`channelExtensions.agentSession`).
public struct AgentSession: JSONConvertible, Codable, Hashable {
    /// The agent's display name (`name`).
    public var name: String?
    /// The agent's avatar image URL (`avatarImage`).
    public var avatarImage: String?
    /// The colour of the name (`nameTextColor`), CSS syntax.
    public var nameTextColor: String?
    /// The colour of the avatar initials (`avatarTextColor`).
    public var avatarTextColor: String?
    /// The avatar background (`avatarBackgroundColor`).
    public var avatarBackgroundColor: String?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates agent details.
    public init(
        name: String? = nil, avatarImage: String? = nil, nameTextColor: String? = nil, avatarTextColor: String? = nil,
        avatarBackgroundColor: String? = nil, extra: JSONObject = [:]
    ) {
        self.name = name
        self.avatarImage = avatarImage
        self.nameTextColor = nameTextColor
        self.avatarTextColor = avatarTextColor
        self.avatarBackgroundColor = avatarBackgroundColor
        self.extra = extra
    }

    /// Decodes agent details; every member is optional.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        name = try reader.optional("name")
        avatarImage = try reader.optional("avatarImage")
        nameTextColor = try reader.optional("nameTextColor")
        avatarTextColor = try reader.optional("avatarTextColor")
        avatarBackgroundColor = try reader.optional("avatarBackgroundColor")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("name", name)
        builder.set("avatarImage", avatarImage)
        builder.set("nameTextColor", nameTextColor)
        builder.set("avatarTextColor", avatarTextColor)
        builder.set("avatarBackgroundColor", avatarBackgroundColor)
        return builder.finish(with: extra)
    }
}
