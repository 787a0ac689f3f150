/// A file the user or the skill sends: an image, video, audio clip or any other file.
///
/// ```json
/// {"type": "image", "url": "https://example.com/pizza.jpg", "title": "pizza.jpg"}
/// ```
public struct Attachment: JSONConvertible, Codable, Hashable {
    /// The kind of file (`type`).
    public var type: AttachmentType
    /// Where to download it (`url`).
    public var url: String
    /// A name to show, usually the file name (`title`).
    public var title: String?
    /// The file name to save it under (`filename`, web SDK).
    public var filename: String?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates an attachment.
    public init(
        type: AttachmentType, url: String, title: String? = nil, filename: String? = nil, extra: JSONObject = [:]
    ) {
        self.type = type
        self.url = url
        self.title = title
        self.filename = filename
        self.extra = extra
    }

    /// Decodes an attachment; `type` and `url` are required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        type = try reader.required("type")
        url = try reader.required("url")
        title = try reader.optional("title")
        filename = try reader.optional("filename")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("type", type)
        builder.set("url", url)
        builder.set("title", title)
        builder.set("filename", filename)
        return builder.finish(with: extra)
    }
}
