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
/// `agentKey`, optional, is ``ServerConfiguration/agentKey`` (docs/agents.md); `--agent-key`, `--agent-key-file`
/// and `PARLEY_AGENT_KEY` win over it.
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
    /// The agent key, which signs the live agents' tokens; nil for no agent console.
    public var agentKey: String?

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
        agentKey = try reader.optional("agentKey")
        if agentKey?.isEmpty == true {
            throw ParleyError(.invalidValue, "agentKey must not be empty", path: JSONPath([.key("agentKey")]))
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
        if let agentKey { object.append("agentKey", .string(agentKey)) }
        return .object(object)
    }

    /// The values of `speechEngine`.
    public static let speechEngines = ["system", "whisper", "pocketsphinx", "scripted", "none"]
}
