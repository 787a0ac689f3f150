/// A read-only form: one record of a `form` or `tableForm` message, or a message's `footerForm`.
///
/// Its fields come either as a flat list (``fields``) or as rows of columns (``formRows``).
public struct ReadOnlyForm: JSONConvertible, Codable, Hashable {
    /// An id (`id`).
    public var id: String?
    /// The form's heading (`title`).
    public var title: String?
    /// The fields, flat (`fields`).
    public var fields: [Field]?
    /// The fields, in rows and columns (`formRows`).
    public var formRows: [FormRow]?
    /// The form's buttons (`actions`).
    public var actions: [Action]?
    /// What a tap on the form does (`selectAction`).
    public var selectAction: Action? {
        get { storedSelectAction?.value }
        set { storedSelectAction = newValue.map(Indirect.init) }
    }
    /// How a voice channel speaks the form (`voice`).
    public var voice: Voice?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject
    // Out of line: an action is over 200 bytes, and a form is part of every payload.
    private var storedSelectAction: Indirect<Action>?

    /// Creates a form.
    public init(
        id: String? = nil, title: String? = nil, fields: [Field]? = nil, formRows: [FormRow]? = nil,
        actions: [Action]? = nil, selectAction: Action? = nil, voice: Voice? = nil,
        channelExtensions: ChannelExtensions? = nil, extra: JSONObject = [:]
    ) {
        self.id = id
        self.title = title
        self.fields = fields
        self.formRows = formRows
        self.actions = actions
        storedSelectAction = selectAction.map(Indirect.init)
        self.voice = voice
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// Decodes a form; every member is optional.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        id = try reader.optional("id")
        title = try reader.optional("title")
        fields = try reader.optional("fields")
        formRows = try reader.optional("formRows")
        actions = try reader.optional("actions")
        storedSelectAction = try reader.optional("selectAction", as: Action.self).map(Indirect.init)
        voice = try reader.optional("voice")
        channelExtensions = try reader.optional("channelExtensions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("id", id)
        builder.set("title", title)
        builder.set("fields", fields)
        builder.set("formRows", formRows)
        builder.set("actions", actions)
        builder.set("selectAction", selectAction)
        builder.set("voice", voice)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}

/// A row of a form laid out in rows and columns (`formRows[]`).
public struct FormRow: JSONConvertible, Codable, Hashable {
    /// The columns, left to right (`columns`).
    public var columns: [FormColumn]
    /// An id (`id`).
    public var id: String?
    /// What a tap on the row does (`selectAction`).
    public var selectAction: Action?
    /// Whether to draw a line above the row (`separator`).
    public var separator: Bool?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a form row.
    public init(
        columns: [FormColumn], id: String? = nil, selectAction: Action? = nil, separator: Bool? = nil,
        channelExtensions: ChannelExtensions? = nil, extra: JSONObject = [:]
    ) {
        self.columns = columns
        self.id = id
        self.selectAction = selectAction
        self.separator = separator
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// Decodes a form row; `columns` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        columns = try reader.required("columns")
        id = try reader.optional("id")
        selectAction = try reader.optional("selectAction")
        separator = try reader.optional("separator")
        channelExtensions = try reader.optional("channelExtensions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("id", id)
        builder.set("columns", columns)
        builder.set("selectAction", selectAction)
        builder.set("separator", separator)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}

/// A column of a form row: fields stacked vertically (`columns[]`).
public struct FormColumn: JSONConvertible, Codable, Hashable {
    /// The fields, top to bottom (`fields`).
    public var fields: [Field]
    /// An id (`id`).
    public var id: String?
    /// Vertical alignment (`verticalAlignment`).
    public var verticalAlignment: VerticalAlignment?
    /// Width: `auto` or `stretch` (`width`).
    public var width: ColumnWidth?
    /// Channel-specific properties (`channelExtensions`).
    public var channelExtensions: ChannelExtensions?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a column.
    public init(
        fields: [Field], id: String? = nil, verticalAlignment: VerticalAlignment? = nil, width: ColumnWidth? = nil,
        channelExtensions: ChannelExtensions? = nil, extra: JSONObject = [:]
    ) {
        self.fields = fields
        self.id = id
        self.verticalAlignment = verticalAlignment
        self.width = width
        self.channelExtensions = channelExtensions
        self.extra = extra
    }

    /// Decodes a column; `fields` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        fields = try reader.required("fields")
        id = try reader.optional("id")
        verticalAlignment = try reader.optional("verticalAlignment")
        width = try reader.optional("width")
        channelExtensions = try reader.optional("channelExtensions")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("id", id)
        builder.set("fields", fields)
        builder.set("verticalAlignment", verticalAlignment)
        builder.set("width", width)
        builder.set("channelExtensions", channelExtensions)
        return builder.finish(with: extra)
    }
}
