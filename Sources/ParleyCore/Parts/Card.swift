/// One card of a card message.
///
/// ```json
/// {"title": "Hawaiian Pizza", "description": "Ham and pineapple on thin crust",
///  "actions": [{"type": "postback", "label": "Order Small", "postback": {"state": "GetOrder"}}]}
/// ```
public struct Card: JSONConvertible, Codable, Hashable {
    /// The first line (`title`).
    public var title: String
    /// The text under the title (`description`).
    public var description: String?
    /// A picture (`imageUrl`).
    public var imageUrl: String?
    /// The page a tap on the card opens (`url`).
    public var url: String?
    /// The card's buttons (`actions`).
    public var actions: [Action]?
    /// An id (`id`).
    public var id: String?
    /// How a voice channel speaks the card (`voice`).
    public var voice: Voice?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a card.
    public init(
        title: String, description: String? = nil, imageUrl: String? = nil, url: String? = nil,
        actions: [Action]? = nil, id: String? = nil, voice: Voice? = nil, channelExtensions: ChannelExtensions? = nil,
        extra: JSONObject = [:]
    ) {
        self.title = title
        self.description = description
        self.imageUrl = imageUrl
        self.url = url
        self.actions = actions
        self.id = id
        self.voice = voice
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// Decodes a card; `title` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        title = try reader.required("title")
        description = try reader.optional("description")
        imageUrl = try reader.optional("imageUrl")
        url = try reader.optional("url")
        actions = try reader.optional("actions")
        id = try reader.optional("id")
        voice = try reader.optional("voice")
        channelExtensions = try reader.optional("channelExtensions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder(capacity: 3 + extra.count)
        builder.set("id", id)
        builder.set("title", title)
        builder.set("description", description)
        builder.set("imageUrl", imageUrl)
        builder.set("url", url)
        builder.set("actions", actions)
        builder.set("voice", voice)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}
