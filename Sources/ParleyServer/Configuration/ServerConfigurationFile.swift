/// The JSON configuration file of `parley serve --config`: `{"channels": [ … ], "database": "postgres://…"}`.
///
/// Each channel is an object with `id` (required), `name`, `secret`, `clientAuthenticationEnabled`,
/// `maxTokenExpiryMinutes`, `sessionExpiryMinutes`, `allowedOrigins`, `skill` and `enabled`
/// (see ``ChannelConfiguration``). `database`, optional, is the PostgreSQL URL conversations are kept in
/// (`parley serve --database`, which wins over it; see docs/server.md); without it they are kept in SQLite.
public struct ServerConfigurationFile: JSONConvertible {
    /// The channels, in order.
    public var channels: [ChannelConfiguration]
    /// The database URL, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`; nil for SQLite in the data folder.
    public var database: String?

    /// Creates a file's content.
    public init(channels: [ChannelConfiguration], database: String? = nil) {
        self.channels = channels
        self.database = database
    }

    /// Decodes `{"channels": [ … ]}`; channel ids must be unique.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        channels = try reader.required("channels")
        database = try reader.optional("database")
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
        return .object(object)
    }
}
