/// The JSON configuration file of `parley serve --config`: `{"channels": [ … ], "database": "postgres://…"}`.
///
/// Each channel is an object with `id` (required), `name`, `secret`, `clientAuthenticationEnabled`,
/// `maxTokenExpiryMinutes`, `sessionExpiryMinutes`, `allowedOrigins`, `skill` and `enabled`
/// (see ``ChannelConfiguration``). `database`, optional, is the PostgreSQL URL conversations are kept in
/// (`parley serve --database`, which wins over it; see docs/server.md); without it they are kept in SQLite.
/// `metricsPath` and `metricsToken`, optional, are ``ServerConfiguration/metricsPath`` (`""` serves no metrics) and
/// ``ServerConfiguration/metricsToken`` (docs/deploy.md, "Metrics"); the command line's options win over them.
/// `tlsCertificate` and `tlsKey`, optional and together, are the PEM files of ``ServerConfiguration/tls``;
/// `speechEngine`, optional, is `system` (the default: `whisper` when `whisperModel` is given, else
/// `pocketsphinx`), `whisper`, `pocketsphinx`, `scripted` or `none`; `whisperModel`, optional, is a Whisper model
/// folder (docs/speech.md, "Whisper"); `--speech-engine` and `--whisper-model` win over them.
/// `attachmentQuota`, `uploadTimeout`, `uploadMinimumRate` and `retain`, optional, are
/// ``ServerConfiguration/attachmentQuota``, ``ServerConfiguration/uploadTimeout``,
/// ``ServerConfiguration/uploadMinimumRate`` and ``ServerConfiguration/retention`` (durations as `"90d"`); the
/// command line's `--attachment-quota`, `--upload-timeout`, `--upload-minimum-rate` and `--retain` win over them.
/// `agentKey`, optional, is ``ServerConfiguration/agentKey`` (docs/agents.md); `--agent-key`, `--agent-key-file`
/// and `PARLEY_AGENT_KEY` win over it.
/// `trustedProxies`, optional, lists the proxies (addresses or CIDR networks) whose forwarding headers give the
/// client's address (``ServerConfiguration/trustedProxies``); `publicURL`, optional, is
/// ``ServerConfiguration/publicURL``; `widgetChatServers`, optional, is ``ServerConfiguration/widgetChatServers``.
/// The command line's `--trusted-proxy` and `--public-url` win over them.
public struct ServerConfigurationFile: JSONConvertible {
    /// The channels, in order.
    public var channels: [ChannelConfiguration]
    /// The database URL, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`; nil for SQLite in the data folder.
    public var database: String?
    /// The path that serves the metrics; nil for the default (`/metrics`), `""` for none.
    public var metricsPath: String?
    /// The bearer token reading the metrics needs; nil for loopback clients only.
    public var metricsToken: String?
    /// The PEM certificate chain file to serve TLS with; nil for plain HTTP.
    public var tlsCertificate: String?
    /// The PEM private key file of ``tlsCertificate``.
    public var tlsKey: String?
    /// The speech engines: `system`, `whisper`, `pocketsphinx`, `scripted` or `none`; nil for `system`.
    public var speechEngine: String?
    /// The Whisper model folder of the `whisper` engine; nil for none.
    public var whisperModel: String?
    /// ``ServerConfiguration/attachmentQuota`` in bytes; nil for the default.
    public var attachmentQuota: Int?
    /// ``ServerConfiguration/uploadTimeout`` (`"uploadTimeout": "10m"`); nil for the default.
    public var uploadTimeout: Duration?
    /// ``ServerConfiguration/uploadMinimumRate`` in bytes a second; nil for the default.
    public var uploadMinimumRate: Int?
    /// ``ServerConfiguration/retention`` (`"retain": "90d"`); nil keeps conversations for ever.
    public var retain: Duration?
    /// The agent key, which signs the live agents' tokens; nil for no agent console.
    public var agentKey: String?
    /// The trusted reverse proxies, as addresses or CIDR networks; nil for none.
    public var trustedProxies: [String]?
    /// The URL clients reach the server at; nil to derive it from the listening address.
    public var publicURL: String?
    /// Other chat servers a link may point the served widget page at, as origins; nil for none.
    public var widgetChatServers: [String]?

    /// Creates a file's content.
    public init(
        channels: [ChannelConfiguration], database: String? = nil, metricsPath: String? = nil,
        metricsToken: String? = nil
    ) {
        self.channels = channels
        self.database = database
        self.metricsPath = metricsPath
        self.metricsToken = metricsToken
    }

    /// Decodes `{"channels": [ … ]}`; channel ids must be unique.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        channels = try reader.required("channels")
        database = try reader.optional("database")
        metricsPath = try reader.optional("metricsPath")
        metricsToken = try reader.optional("metricsToken")
        tlsCertificate = try reader.optional("tlsCertificate")
        tlsKey = try reader.optional("tlsKey")
        speechEngine = try reader.optional("speechEngine")
        whisperModel = try reader.optional("whisperModel")
        attachmentQuota = try reader.optional("attachmentQuota")
        if let attachmentQuota, attachmentQuota < 1 {
            throw ParleyError(
                .invalidValue, "attachmentQuota is a positive number of bytes",
                path: JSONPath([.key("attachmentQuota")]))
        }
        uploadMinimumRate = try reader.optional("uploadMinimumRate")
        if let uploadMinimumRate, uploadMinimumRate < 0 {
            throw ParleyError(
                .invalidValue, "uploadMinimumRate is a number of bytes a second, 0 or more",
                path: JSONPath([.key("uploadMinimumRate")]))
        }
        let uploadTimeoutText: String? = try reader.optional("uploadTimeout")
        uploadTimeout = try uploadTimeoutText.map { text throws(ParleyError) in
            try Self.duration(text, key: "uploadTimeout")
        }
        let retainText: String? = try reader.optional("retain")
        retain = try retainText.map { text throws(ParleyError) in try Self.duration(text, key: "retain") }
        agentKey = try reader.optional("agentKey")
        if agentKey?.isEmpty == true {
            throw ParleyError(.invalidValue, "agentKey must not be empty", path: JSONPath([.key("agentKey")]))
        }
        trustedProxies = try reader.optional("trustedProxies")
        publicURL = try reader.optional("publicURL")
        widgetChatServers = try reader.optional("widgetChatServers")
        for (index, origin) in (widgetChatServers ?? []).enumerated() where !WidgetRoutes.isPlainOrigin(origin) {
            throw ParleyError(
                .invalidValue, "widgetChatServers holds origins such as https://chat.example.com, not \"\(origin)\"",
                path: JSONPath([.key("widgetChatServers"), .index(index)]))
        }
        if let trustedProxies {
            do {
                _ = try TrustedProxies(parsing: trustedProxies)
            } catch {
                throw ParleyError(.invalidValue, error.message, path: JSONPath([.key("trustedProxies")]))
            }
        }
        if let publicURL, ServerConfiguration.publicURL(publicURL) == nil {
            throw ParleyError(
                .invalidValue, "publicURL is an absolute http:// or https:// URL", path: JSONPath([.key("publicURL")]))
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ParleyError(
                .invalidValue, "tlsCertificate and tlsKey go together",
                path: JSONPath([.key(tlsCertificate == nil ? "tlsKey" : "tlsCertificate")]))
        }
        if let speechEngine, !Self.speechEngines.contains(speechEngine) {
            throw ParleyError(
                .invalidValue,
                "speechEngine is " + Self.speechEngines.map { "\"\($0)\"" }.joined(separator: ", "),
                path: JSONPath([.key("speechEngine")]))
        }
        if speechEngine == "whisper", whisperModel == nil {
            throw ParleyError(
                .invalidValue, "speechEngine \"whisper\" needs whisperModel, a model folder",
                path: JSONPath([.key("whisperModel")]))
        }
        if let metricsPath, !metricsPath.isEmpty, !metricsPath.hasPrefix("/") {
            throw ParleyError(
                .invalidValue, "metricsPath must start with \"/\" (or be \"\" for no metrics)",
                path: JSONPath([.key("metricsPath")]))
        }
        if metricsToken?.isEmpty == true {
            throw ParleyError(.invalidValue, "metricsToken must not be empty", path: JSONPath([.key("metricsToken")]))
        }
        var seen: Set<String> = []
        for (index, channel) in channels.enumerated() where !seen.insert(channel.id).inserted {
            throw ParleyError(
                .invalidValue, "channel id \"\(channel.id)\" appears twice",
                path: JSONPath([.key("channels"), .index(index), .key("id")]))
        }
    }

    /// The file's JSON form.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["channels": channels.jsonValue]
        if let database { object.append("database", .string(database)) }
        if let metricsPath { object.append("metricsPath", .string(metricsPath)) }
        if let metricsToken { object.append("metricsToken", .string(metricsToken)) }
        if let tlsCertificate { object.append("tlsCertificate", .string(tlsCertificate)) }
        if let tlsKey { object.append("tlsKey", .string(tlsKey)) }
        if let speechEngine { object.append("speechEngine", .string(speechEngine)) }
        if let whisperModel { object.append("whisperModel", .string(whisperModel)) }
        if let attachmentQuota { object.append("attachmentQuota", .number(Double(attachmentQuota))) }
        if let uploadTimeout { object.append("uploadTimeout", .string("\(uploadTimeout.components.seconds)s")) }
        if let uploadMinimumRate { object.append("uploadMinimumRate", .number(Double(uploadMinimumRate))) }
        if let retain { object.append("retain", .string("\(retain.components.seconds)s")) }
        if let agentKey { object.append("agentKey", .string(agentKey)) }
        if let trustedProxies { object.append("trustedProxies", trustedProxies.jsonValue) }
        if let publicURL { object.append("publicURL", .string(publicURL)) }
        if let widgetChatServers { object.append("widgetChatServers", widgetChatServers.jsonValue) }
        return .object(object)
    }

    /// The values of `speechEngine`.
    public static let speechEngines = ["system", "whisper", "pocketsphinx", "scripted", "none"]
}
