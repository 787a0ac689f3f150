/// The JSON configuration file of `parley serve --config`: `{"channels": [ … ]}`.
///
/// Each channel is an object with `id` (required), `name`, `secret`, `clientAuthenticationEnabled`,
/// `maxTokenExpiryMinutes`, `sessionExpiryMinutes`, `allowedOrigins`, `skill` and `enabled`
/// (see ``ChannelConfiguration``).
public struct ServerConfigurationFile: JSONConvertible {
    /// The channels, in order.
    public var channels: [ChannelConfiguration]

    /// Creates a file's content.
    public init(channels: [ChannelConfiguration]) {
        self.channels = channels
    }

    /// Decodes `{"channels": [ … ]}`; channel ids must be unique.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        channels = try reader.required("channels")
        var seen: Set<String> = []
        for (index, channel) in channels.enumerated() where !seen.insert(channel.id).inserted {
            throw ParleyError(
                .invalidValue, "channel id \"\(channel.id)\" appears twice",
                path: JSONPath([.key("channels"), .index(index), .key("id")]))
        }
    }

    /// The file's JSON form.
    public var jsonValue: JSONValue {
        ["channels": channels.jsonValue]
    }
}
