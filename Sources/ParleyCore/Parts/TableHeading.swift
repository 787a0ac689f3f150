/// A column heading of a table (`headings[]`).
public struct TableHeading: JSONConvertible, Codable, Hashable {
    /// The heading text (`label`).
    public var label: String
    /// The column's width in percent (`width`).
    public var width: Double?
    /// The column's alignment (`alignment`).
    public var alignment: Alignment?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a heading.
    public init(
        label: String, width: Double? = nil, alignment: Alignment? = nil, channelExtensions: ChannelExtensions? = nil,
        extra: JSONObject = [:]
    ) {
        self.label = label
        self.width = width
        self.alignment = alignment
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// Decodes a heading; `label` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        label = try reader.required("label")
        width = try reader.optional("width")
        alignment = try reader.optional("alignment")
        channelExtensions = try reader.optional("channelExtensions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("label", label)
        builder.set("width", width)
        builder.set("alignment", alignment)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}

/// A row of a table: read-only fields under the headings (`rows[]`).
public struct TableRow: JSONConvertible, Codable, Hashable {
    /// The cells, one per heading (`fields`).
    public var fields: [Field]
    /// What a tap on the row does (`selectAction`).
    public var selectAction: Action?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a row.
    public init(
        fields: [Field], selectAction: Action? = nil, channelExtensions: ChannelExtensions? = nil,
        extra: JSONObject = [:]
    ) {
        self.fields = fields
        self.selectAction = selectAction
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// Decodes a row; `fields` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        fields = try reader.required("fields")
        selectAction = try reader.optional("selectAction")
        channelExtensions = try reader.optional("channelExtensions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("fields", fields)
        builder.set("selectAction", selectAction)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}
