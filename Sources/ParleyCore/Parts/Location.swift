/// A geographic location.
///
/// ```json
/// {"title": "Oracle Headquarters", "url": "https://maps…", "latitude": 37.529818, "longitude": -122.265987}
/// ```
public struct Location: JSONConvertible, Codable, Hashable {
    /// Degrees north (`latitude`).
    public var latitude: Double
    /// Degrees east (`longitude`).
    public var longitude: Double
    /// The place's name (`title`).
    public var title: String?
    /// A link that shows the place on a map (`url`).
    public var url: String?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a location.
    public init(latitude: Double, longitude: Double, title: String? = nil, url: String? = nil, extra: JSONObject = [:])
    {
        self.latitude = latitude
        self.longitude = longitude
        self.title = title
        self.url = url
        self.extra = extra
    }

    /// Decodes a location; `latitude` and `longitude` are required.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        latitude = try reader.required("latitude")
        longitude = try reader.required("longitude")
        title = try reader.optional("title")
        url = try reader.optional("url")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("title", title)
        builder.set("url", url)
        builder.set("latitude", latitude)
        builder.set("longitude", longitude)
        return builder.finish(with: extra)
    }
}
