import Foundation
public import ParleyLanguageModel

/// A channel: the door an app's users come through, with its authentication rules and the skill behind it.
///
/// Mirrors an Oracle Web/iOS/Android channel: id, name, secret, client authentication, maximum token
/// lifetime, session expiry, allowed origins and routing.
public struct ChannelConfiguration: JSONConvertible, Codable, Hashable {
    /// The channel id, the `channelId` query parameter and token claim.
    public var id: String
    /// A name for people.
    public var name: String
    /// The HS256 key that signs this channel's tokens; required when ``clientAuthenticationEnabled``.
    public var secret: String?
    /// Whether sockets must present a JWT signed with ``secret``.
    public var clientAuthenticationEnabled: Bool
    /// The longest token lifetime (`exp - iat`) accepted, in minutes.
    public var maxTokenExpiryMinutes: Int
    /// How long a conversation may be idle before the next message starts a new session, in minutes.
    public var sessionExpiryMinutes: Int
    /// Origins allowed to open sockets on an unauthenticated channel; `*` allows any. Only browser
    /// origins (`http://…`, `https://…`) are checked: a request without one (a native app; native
    /// WebSocket libraries send `ws://host` or nothing) is always allowed. The same list answers CORS
    /// requests to the channel's HTTP endpoints (uploads, sessions) and, unless ``frameOrigins`` says otherwise, names
    /// the other sites that may frame the widget page (its `*` does not: see ``frameOrigins``).
    public var allowedOrigins: [String]
    /// The sites that may frame the widget page this server serves for the channel (`frame-ancestors`), besides the
    /// server itself; `*` lets any site frame it. `nil` (the default): the origins ``allowedOrigins`` lists, without
    /// its `*` — so a channel that names no site is framed by the server's own pages only, and framing by any site
    /// is an explicit choice (docs/security.md, "Pages").
    public var frameOrigins: [String]?
    /// The attachment types the channel accepts, as MIME types (`image/png`) or major types (`audio/*`), matched
    /// against the type the server sniffs from the file's bytes. Default ``defaultAttachmentTypes``.
    public var attachmentTypes: [String]
    /// Whether user ids are bound to server-issued session secrets (`docs/security.md`): a socket or upload must
    /// give the secret `POST /chat/v1/sessions` issued for its user id. Default `false`, because Oracle's own
    /// client SDKs cannot present one. Ignored on a client-authenticated channel, whose tokens name the user.
    public var sessionSecrets: Bool
    /// How long a session secret lasts from its issue or renewal, in days (1 to 3650; default 30). A socket opened
    /// with it closes with 4009 `session.expired` when it ends; the client renews it with the old secret
    /// (`POST /chat/v1/sessions`, docs/security.md) and keeps its user id and transcript.
    public var sessionSecretLifetimeDays: Int
    /// The skill this channel routes to.
    public var skill: SkillReference
    /// Whether the channel accepts connections.
    public var enabled: Bool
    /// The channel's speech endpoints: on or off, the locales offered, the phrases listened for (``ChannelSpeech``).
    /// Default off.
    public var speech: ChannelSpeech

    /// Creates a channel.
    public init(
        id: String, name: String? = nil, secret: String? = nil, clientAuthenticationEnabled: Bool = false,
        maxTokenExpiryMinutes: Int = 60, sessionExpiryMinutes: Int = 60 * 24, allowedOrigins: [String] = ["*"],
        skill: SkillReference = .demo, enabled: Bool = true,
        attachmentTypes: [String] = ChannelConfiguration.defaultAttachmentTypes, sessionSecrets: Bool = false,
        speech: ChannelSpeech = ChannelSpeech()
    ) {
        self.frameOrigins = nil
        self.id = id
        self.name = name ?? id
        self.secret = secret
        self.clientAuthenticationEnabled = clientAuthenticationEnabled
        self.maxTokenExpiryMinutes = maxTokenExpiryMinutes
        self.sessionExpiryMinutes = sessionExpiryMinutes
        self.allowedOrigins = allowedOrigins
        self.skill = skill
        self.enabled = enabled
        self.attachmentTypes = attachmentTypes
        self.sessionSecrets = sessionSecrets
        self.sessionSecretLifetimeDays = 30
        self.speech = speech
    }

    /// Types that cannot run as script in a browser: pictures, sound, video, PDF, plain text and office files.
    /// HTML, SVG and XML are not among them.
    public static let defaultAttachmentTypes = [
        "image/png", "image/jpeg", "image/gif", "image/webp", "image/heic", "audio/*", "video/*", "application/pdf",
        "text/plain", "text/csv", "application/json", "application/zip", "application/msword",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/vnd.ms-excel",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/vnd.ms-powerpoint",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation", "application/rtf",
    ]

    /// Decodes a channel from a configuration file; `id` is required, the rest has the defaults of the
    /// memberwise initialiser.
    /// A member the format does not have is an error, so that a misspelt option is not silently ignored.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        self.init(
            id: try reader.required("id"), name: try reader.optional("name"), secret: try reader.optional("secret"),
            clientAuthenticationEnabled: try reader.optional("clientAuthenticationEnabled") ?? false,
            maxTokenExpiryMinutes: try reader.optional("maxTokenExpiryMinutes") ?? 60,
            sessionExpiryMinutes: try reader.optional("sessionExpiryMinutes") ?? 60 * 24,
            allowedOrigins: try reader.optional("allowedOrigins") ?? ["*"],
            skill: try reader.optional("skill") ?? .demo,
            enabled: try reader.optional("enabled") ?? true,
            attachmentTypes: try reader.optional("attachmentTypes") ?? Self.defaultAttachmentTypes,
            sessionSecrets: try reader.optional("sessionSecrets") ?? false,
            speech: try reader.optional("speech") ?? ChannelSpeech())
        frameOrigins = try reader.optional("frameOrigins")
        sessionSecretLifetimeDays = try reader.optional("sessionSecretLifetimeDays") ?? 30
        if let unknown = reader.rest.first(where: { !$0.value.isNull }) {
            throw ParleyError(
                .invalidValue, "a channel has no member \(JSONValue.string(unknown.key))",
                path: JSONPath([.key(unknown.key)]))
        }
        guard (1...3650).contains(sessionSecretLifetimeDays) else {
            throw ParleyError(
                .invalidValue, "sessionSecretLifetimeDays is a whole number of days from 1 to 3650",
                path: JSONPath([.key("sessionSecretLifetimeDays")]))
        }
        if clientAuthenticationEnabled, secret?.isEmpty ?? true {
            throw ParleyError(
                .invalidValue, "channel \"\(id)\" enables client authentication but has no secret",
                path: JSONPath([.key("secret")]))
        }
    }

    /// The configuration-file form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 14)
        builder.set("id", id)
        builder.set("name", name)
        builder.set("clientAuthenticationEnabled", clientAuthenticationEnabled)
        builder.set("maxTokenExpiryMinutes", maxTokenExpiryMinutes)
        builder.set("sessionExpiryMinutes", sessionExpiryMinutes)
        builder.set("allowedOrigins", allowedOrigins)
        builder.set("frameOrigins", frameOrigins)
        builder.set("skill", skill)
        builder.set("enabled", enabled)
        builder.set("attachmentTypes", attachmentTypes)
        builder.set("sessionSecrets", sessionSecrets)
        builder.set("sessionSecretLifetimeDays", sessionSecretLifetimeDays)
        builder.set("speech", speech)
        builder.set("secret", secret)
        return builder.finish()
    }

    /// Whether a socket whose `Origin` header is `origin` may use this channel.
    public func allows(origin: String?) -> Bool {
        guard !clientAuthenticationEnabled, let origin, !allowedOrigins.contains("*") else { return true }
        let browserOrigins = origin.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.lowercased().hasPrefix("http://") || $0.lowercased().hasPrefix("https://")
        }
        return browserOrigins.allSatisfy(allowedOrigins.contains)
    }
}

/// Which skill a channel routes to.
public enum SkillReference: JSONConvertible, Codable, Hashable {
    /// The bundled pizza-order demo.
    case demo
    /// A dialog-definition file (see `docs/skills.md`).
    case file(String)
    /// A webhook: each user message is posted to this URL and the answer relayed.
    case webhook(String)
    /// Replies with what the user sent (for tests and benchmarks).
    case echo
    /// A skill the app that embeds the server registers under this name (`buildApplication(configuration:skills:)`).
    case named(String)
    /// A language model on an OpenAI-compatible chat-completions endpoint, its answers streamed (`docs/skills.md`,
    /// "Language models").
    case llm(LanguageModelConfiguration)

    /// Decodes `"demo"`, `"echo"`, the name of an app's skill, `{"file": PATH}`, `{"webhook": URL}` or `{"llm": {…}}`
    /// (``LanguageModelConfiguration``).
    public init(json: JSONValue) throws(ParleyError) {
        switch json {
        case "demo": self = .demo
        case "echo": self = .echo
        case .string(let name) where !name.isEmpty: self = .named(name)
        case .object(let object) where object.count == 1:
            if let path = object["file"]?.stringValue {
                self = .file(path)
            } else if let url = object["webhook"]?.stringValue {
                self = .webhook(url)
            } else if let model = object["llm"] {
                do {
                    self = .llm(try LanguageModelConfiguration(json: model))
                } catch {
                    throw error.within(.key("llm"))
                }
            } else {
                fallthrough
            }
        default:
            throw ParleyError(
                .invalidValue,
                "a skill is \"demo\", \"echo\", the name of a skill the app registers, {\"file\": PATH}, "
                    + "{\"webhook\": URL} or {\"llm\": {\"url\": URL, \"model\": NAME, …}}",
                path: JSONPath())
        }
    }

    /// The configuration-file form.
    public var jsonValue: JSONValue {
        switch self {
        case .demo: "demo"
        case .echo: "echo"
        case .file(let path): ["file": .string(path)]
        case .webhook(let url): ["webhook": .string(url)]
        case .named(let name): .string(name)
        case .llm(let model): ["llm": model.jsonValue]
        }
    }
}
