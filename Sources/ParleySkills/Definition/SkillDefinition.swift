/// A dialog definition: the parsed and validated form of a skill file, described in `docs/skills.md`.
///
/// ```json
/// {"name": "Hello", "start": "greeting",
///  "states": {"greeting": {"say": [{"type": "text", "text": "Hi {{profile.name | there}}!"}],
///                          "on": [{"keyword": ["bye"], "say": [{"type": "text", "text": "Bye!"}], "end": true}]}}}
/// ```
///
/// A definition is created from JSON only, through ``init(json:)`` or `init(decoding:)`,
/// which check every rule of the format; an instance is therefore always runnable by ``ScriptedSkill``.
public struct SkillDefinition: JSONConvertible, Codable, Hashable {
    /// The skill's name (`name`).
    public let name: String
    /// What the skill does, for people (`description`).
    public let description: String?
    /// The state a conversation enters on its first message (`start`).
    public let start: String
    /// The variables' values when a conversation starts (`variables`); also declares their names.
    public let variables: JSONObject
    /// The states, in the order of the file (`states`).
    public let states: [State]
    /// Transitions tried in every waiting state after the state's own (`on` at the top level).
    public let transitions: [Transition]
    /// The transition taken when nothing matched and the state has no `otherwise` of its own (`otherwise`).
    public let otherwise: Transition?
    /// Positions in ``states`` by name.
    let stateIndex: [String: Int]

    /// The state called `name`.
    public func state(named name: String) -> State? {
        stateIndex[name].map { states[$0] }
    }

    /// One state of a dialog: what the skill says on entering it and what it does with the next message.
    public struct State: Sendable, Hashable {
        /// The state's name: its key under `states`.
        public let name: String
        /// What the state is for, for people (`description`).
        public let description: String?
        /// The responses said on entering the state, in order; never empty (`say`).
        public let say: Responses
        /// The state to go on to straight after saying ``say``, without waiting for input (`next`).
        public let next: String?
        /// The transitions tried, in order, on the next message (`on`).
        public let transitions: [Transition]
        /// The transition taken when no transition matched (`otherwise`).
        public let otherwise: Transition?
    }

    /// What to do with a message: set variables, say something, then go to a state or end the session.
    public struct Transition: Sendable, Hashable {
        /// What the transition is for, for people (`description`).
        public let description: String?
        /// Which messages the transition takes; `nil` for an `otherwise` transition.
        public let match: Match?
        /// Variables to set, in order, before saying anything (`set`); strings may hold placeholders.
        public let set: JSONObject
        /// Responses said before going on (`say`).
        public let say: Responses
        /// The state to enter, whose responses are said next (`goto`); `nil` stays in the current state.
        public let goto: String?
        /// Whether the session ends after ``say``: the skill sends `sessionClosed` and forgets the state (`end`).
        public let end: Bool
        /// Whether the conversation goes to a live agent after ``say`` (`handOff`): the server queues it for the
        /// agent console, and the skill answers again once an agent hands it back.
        public let handOff: Bool
    }

    /// Which messages a transition takes.
    public enum Match: Sendable, Hashable {
        /// `text`: a text message equal to one of these strings, ignoring surrounding whitespace and, unless
        /// `caseSensitive`, case.
        case text([String], caseSensitive: Bool)
        /// `keyword`: a text message that contains one of these words or phrases as whole words.
        case keyword([String], caseSensitive: Bool)
        /// `regex`: a text message in which this regular expression finds a match; its groups become `match.1`,
        /// `match.name`, ….
        case regex(String, caseSensitive: Bool)
        /// `postback`: a postback (or a form submission's postback) that contains this value: every member of an
        /// object pattern must be present with a matching value; anything else must be equal.
        case postback(JSONValue)
        /// `type`: a message of this payload type, such as `location` or `attachment`.
        case type(PayloadType)
        /// `payload`: a message whose payload contains this object, by the same rule as ``postback(_:)``.
        case payload(JSONObject)
    }
}

// MARK: - JSON form

extension SkillDefinition {
    /// The definition in the file format, with defaults left out.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("name", .string(name))
        if let description { object.append("description", .string(description)) }
        object.append("start", .string(start))
        if !variables.isEmpty { object.append("variables", .object(variables)) }
        object.append("states", .object(JSONObject(states.map { JSONObject.Member($0.name, $0.jsonValue) })))
        if !transitions.isEmpty { object.append("on", .array(transitions.map(\.jsonValue))) }
        if let otherwise { object.append("otherwise", otherwise.jsonValue) }
        return .object(object)
    }
}

extension SkillDefinition.State {
    /// The state in the file format.
    var jsonValue: JSONValue {
        var object = JSONObject()
        if let description { object.append("description", .string(description)) }
        object.append("say", say.jsonValue)
        if let next { object.append("next", .string(next)) }
        if !transitions.isEmpty { object.append("on", .array(transitions.map(\.jsonValue))) }
        if let otherwise { object.append("otherwise", otherwise.jsonValue) }
        return .object(object)
    }
}

extension SkillDefinition.Transition {
    /// The transition in the file format.
    var jsonValue: JSONValue {
        var object = JSONObject()
        if let description { object.append("description", .string(description)) }
        switch match {
        case .text(let texts, let caseSensitive):
            object.append("text", Self.json(texts))
            if caseSensitive { object.append("caseSensitive", true) }
        case .keyword(let words, let caseSensitive):
            object.append("keyword", Self.json(words))
            if caseSensitive { object.append("caseSensitive", true) }
        case .regex(let pattern, let caseSensitive):
            object.append("regex", .string(pattern))
            if caseSensitive { object.append("caseSensitive", true) }
        case .postback(let pattern): object.append("postback", pattern)
        case .type(let type): object.append("type", .string(type.rawValue))
        case .payload(let pattern): object.append("payload", .object(pattern))
        case nil: break
        }
        if !set.isEmpty { object.append("set", .object(set)) }
        if !say.isEmpty { object.append("say", say.jsonValue) }
        if let goto { object.append("goto", .string(goto)) }
        if end { object.append("end", true) }
        if handOff { object.append("handOff", true) }
        return .object(object)
    }

    private static func json(_ strings: [String]) -> JSONValue {
        strings.count == 1 ? .string(strings[0]) : .array(strings.map(JSONValue.string))
    }
}
