/// A user-profile update (client → server), sent before the first message when the app has a profile.
///
/// ```json
/// {"profile": {"givenName": "First", "surname": "Last", "email": "first.last@example.com",
///              "properties": {"lastOrderedItems": "1 medium pepperoni"}}, "userId": "guest"}
/// ```
public struct ProfileUpdate: JSONConvertible, Codable, Hashable {
    /// The profile fields to set (`profile`).
    public var profile: Profile
    /// The user's id (`userId`); the web SDK leaves it out, the Android SDK sends it.
    public var userId: String?
    /// Facts about the sending SDK (`sdkMetadata`).
    public var sdkMetadata: SDKMetadata?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a profile update.
    public init(profile: Profile, userId: String? = nil, sdkMetadata: SDKMetadata? = nil, extra: JSONObject = [:]) {
        self.profile = profile
        self.userId = userId
        self.sdkMetadata = sdkMetadata
        self.extra = extra
    }

    /// Decodes `{"profile": …, "userId": …}`.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        profile = try reader.required("profile")
        userId = try reader.optional("userId")
        sdkMetadata = try reader.optional("sdkMetadata")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("profile", profile)
        builder.set("userId", userId)
        builder.set("sdkMetadata", sdkMetadata)
        return builder.finish(with: extra)
    }
}

/// A user profile. The iOS SDK documents `givenName`/`surname`, the web and Android SDKs
/// `firstName`/`lastName`; each is kept under the key it arrived with.
public struct Profile: JSONConvertible, Codable, Hashable {
    /// `givenName` (iOS spelling).
    public var givenName: String?
    /// `surname` (iOS spelling).
    public var surname: String?
    /// `firstName` (web and Android spelling).
    public var firstName: String?
    /// `lastName` (web and Android spelling).
    public var lastName: String?
    /// `email`.
    public var email: String?
    /// The user's language as a BCP 47 tag (`languageTag`), such as `fr`.
    public var languageTag: String?
    /// The user's locale (`locale`).
    public var locale: String?
    /// Free-form profile properties the skill can read (`properties`).
    public var properties: JSONObject?
    /// Members this version does not know, written back unchanged.
    public var extra: JSONObject

    /// Creates a profile.
    public init(
        givenName: String? = nil, surname: String? = nil, firstName: String? = nil, lastName: String? = nil,
        email: String? = nil, languageTag: String? = nil, locale: String? = nil, properties: JSONObject? = nil,
        extra: JSONObject = [:]
    ) {
        self.givenName = givenName
        self.surname = surname
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.languageTag = languageTag
        self.locale = locale
        self.properties = properties
        self.extra = extra
    }

    /// The first name under either spelling.
    public var displayGivenName: String? { givenName ?? firstName }

    /// Decodes a profile object.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        givenName = try reader.optional("givenName")
        surname = try reader.optional("surname")
        firstName = try reader.optional("firstName")
        lastName = try reader.optional("lastName")
        email = try reader.optional("email")
        languageTag = try reader.optional("languageTag")
        locale = try reader.optional("locale")
        properties = try reader.optional("properties")
        extra = reader.rest
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("givenName", givenName)
        builder.set("surname", surname)
        builder.set("firstName", firstName)
        builder.set("lastName", lastName)
        builder.set("email", email)
        builder.set("languageTag", languageTag)
        builder.set("locale", locale)
        builder.set("properties", properties)
        return builder.finish(with: extra)
    }
}
