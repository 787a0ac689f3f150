/// A conversation's persistent skill state; the server stores it (as JSON) between messages and across restarts.
///
/// ```json
/// {"state": "askSize", "variables": {"pizzaType": "margherita", "pizzaCrust": "thin"},
///  "profile": {"givenName": "Ada"}}
/// ```
///
/// A new conversation starts from `ConversationState()`: no state, no variables, no profile.
public struct ConversationState: JSONConvertible, Codable, Hashable {
    /// The state the conversation waits in (`state`); `nil` before the first message and after the session closed.
    public var state: String?
    /// The skill's variables (`variables`).
    public var variables: JSONObject
    /// The user's profile from the last profile update (`profile`); kept when a session closes.
    public var profile: Profile?
    /// Members this version does not know, written back unchanged (a server may keep its own data here).
    public var extra: JSONObject

    /// Creates a state; the defaults are those of a conversation that has not started.
    public init(
        state: String? = nil, variables: JSONObject = [:], profile: Profile? = nil, extra: JSONObject = [:]
    ) {
        self.state = state
        self.variables = variables
        self.profile = profile
        self.extra = extra
    }

    /// Decodes the JSON form; every member is optional, and unknown members are kept in ``extra``.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        state = try reader.optional("state")
        variables = try reader.optional("variables", default: [:])
        profile = try reader.optional("profile")
        extra = reader.rest
    }

    /// The JSON form: `state` and `profile` when set, `variables` always, then the unknown members.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("state", state)
        builder.set("variables", variables)
        builder.set("profile", profile)
        return builder.finish(with: extra)
    }
}

extension Profile {
    /// This profile with what `update` sets: a member the update leaves out keeps its value; properties and
    /// unknown members are merged, the update's winning.
    public func updated(with update: Profile) -> Profile {
        var merged = self
        if let value = update.givenName { merged.givenName = value }
        if let value = update.surname { merged.surname = value }
        if let value = update.firstName { merged.firstName = value }
        if let value = update.lastName { merged.lastName = value }
        if let value = update.email { merged.email = value }
        if let value = update.languageTag { merged.languageTag = value }
        if let value = update.locale { merged.locale = value }
        if let properties = update.properties {
            var all = merged.properties ?? [:]
            for member in properties { all[member.key] = member.value }
            merged.properties = all
        }
        for member in update.extra { merged.extra[member.key] = member.value }
        return merged
    }
}
