/// How a message, card or action is spoken by a voice channel.
public struct Voice: JSONConvertible, Codable, Hashable {
    /// The text to speak (`text`).
    public var text: String
    /// An audio file to play instead (`soundUrl`).
    public var soundUrl: String?
    /// A longer spoken version (`longText`).
    public var longText: String?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates voice settings.
    public init(text: String, soundUrl: String? = nil, longText: String? = nil, extra: JSONObject = [:]) {
        self.text = text
        self.soundUrl = soundUrl
        self.longText = longText
        self.extra = extra
    }

    /// Decodes voice settings; `text` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        text = try reader.required("text")
        soundUrl = try reader.optional("soundUrl")
        longText = try reader.optional("longText")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("text", text)
        builder.set("soundUrl", soundUrl)
        builder.set("longText", longText)
        return builder.finish(with: extra)
    }
}

/// Words that select a postback without a button, such as "1" or "large".
public struct Keyword: JSONConvertible, Codable, Hashable {
    /// What is sent when a keyword matches (`postback`): a string or an object.
    public var postback: JSONValue
    /// The words (`keywords`).
    public var keywords: [String]?
    /// Whether to leave it out of automatic numbering (`skipAutoNumber`).
    public var skipAutoNumber: Bool?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a keyword.
    public init(postback: JSONValue, keywords: [String]? = nil, skipAutoNumber: Bool? = nil, extra: JSONObject = [:]) {
        self.postback = postback
        self.keywords = keywords
        self.skipAutoNumber = skipAutoNumber
        self.extra = extra
    }

    /// Decodes a keyword; `postback` is required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        postback = try reader.required("postback")
        keywords = try reader.optional("keywords")
        skipAutoNumber = try reader.optional("skipAutoNumber")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("postback", postback)
        builder.set("keywords", keywords)
        builder.set("skipAutoNumber", skipAutoNumber)
        return builder.finish(with: extra)
    }
}

/// Where a page of a long table or form list sits (`paginationInfo`).
public struct PaginationInfo: JSONConvertible, Codable, Hashable {
    /// How many items there are in all (`totalCount`).
    public var totalCount: Int
    /// How many items this message shows (`rangeSize`).
    public var rangeSize: Int
    /// The index of the first item shown, from 0 (`rangeStart`).
    public var rangeStart: Int
    /// A sentence such as "Showing 1-5 of 8 items" (`status`).
    public var status: String?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates pagination info.
    public init(totalCount: Int, rangeSize: Int, rangeStart: Int, status: String? = nil, extra: JSONObject = [:]) {
        self.totalCount = totalCount
        self.rangeSize = rangeSize
        self.rangeStart = rangeStart
        self.status = status
        self.extra = extra
    }

    /// Decodes pagination info; the three counts are required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        totalCount = try reader.required("totalCount")
        rangeSize = try reader.required("rangeSize")
        rangeStart = try reader.required("rangeStart")
        status = try reader.optional("status")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("totalCount", totalCount)
        builder.set("rangeSize", rangeSize)
        builder.set("rangeStart", rangeStart)
        builder.set("status", status)
        return builder.finish(with: extra)
    }
}
