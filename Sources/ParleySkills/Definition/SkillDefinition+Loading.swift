extension SkillDefinition {
    /// Decodes and checks a definition.
    ///
    /// Keys the format does not know are errors (a misspelt `goto` would otherwise be silently ignored);
    /// responses are message payloads and keep unknown keys, as everywhere in the wire model.
    /// - Throws: ``ParleyError`` with the JSON path of the problem: `decode.*` for a missing member or a value of
    ///   the wrong type (inside a response too), `skill.*` for a rule of the format (see `docs/skills.md`).
    public init(json: JSONValue) throws(ParleyError) {
        var members = try FieldReader(json)
        try members.rejectUnknownKeys(
            ["name", "description", "start", "variables", "states", "on", "otherwise"], in: "a skill definition")
        name = try members.requiredNotNull("name")
        description = try members.optional("description")
        start = try members.requiredNotNull("start")
        variables = try members.optional("variables") ?? [:]
        for key in variables.keys {
            try Self.checkVariableName(key, at: JSONPath([.key("variables"), .key(key)]))
        }
        let stateObject: JSONObject = try members.requiredNotNull("states")
        guard !stateObject.isEmpty else {
            throw ParleyError(
                .skillInvalidDefinition, "a skill needs at least one state", path: JSONPath([.key("states")]))
        }
        var states: [State] = []
        for member in stateObject {
            do {
                states.append(try State(name: member.key, json: member.value))
            } catch {
                throw error.within(.key("states"), .key(member.key))
            }
        }
        self.states = states
        stateIndex = Dictionary(states.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        transitions = try Transition.list(&members, "on")
        otherwise = try Transition.otherwise(&members)
        try validate()
    }

    /// Checks what spans the whole definition: state names, `next` chains and placeholders.
    private func validate() throws(ParleyError) {
        try checkState(start, at: JSONPath([.key("start")]))
        var declared = Set(variables.keys)
        for (transition, _) in allTransitions { declared.formUnion(transition.set.keys) }

        for state in states {
            let path = JSONPath([.key("states"), .key(state.name)])
            try checkPlaceholders(in: state.say.jsonValue, at: path.appending(.key("say")), declared: declared)
            if let next = state.next {
                try checkState(next, at: path.appending(.key("next")))
                var chain = [state.name]
                var current = next
                while let following = self.state(named: current)?.next {
                    chain.append(current)
                    guard !chain.contains(following) else {
                        throw ParleyError(
                            .skillInvalidDefinition,
                            "\"next\" goes round in a circle: \((chain + [following]).joined(separator: " → "))",
                            path: path.appending(.key("next")))
                    }
                    current = following
                }
            }
        }
        for (transition, path) in allTransitions {
            if let goto = transition.goto { try checkState(goto, at: path.appending(.key("goto"))) }
            try checkPlaceholders(in: transition.say.jsonValue, at: path.appending(.key("say")), declared: declared)
            for member in transition.set {
                try checkPlaceholders(
                    in: member.value, at: path.appending(.key("set"), .key(member.key)), declared: declared)
            }
        }
    }

    /// Every transition with its path, states' first, in file order.
    var allTransitions: [(Transition, JSONPath)] {
        var all: [(Transition, JSONPath)] = []
        for state in states {
            let path = JSONPath([.key("states"), .key(state.name)])
            for (index, transition) in state.transitions.enumerated() {
                all.append((transition, path.appending(.key("on"), .index(index))))
            }
            if let otherwise = state.otherwise { all.append((otherwise, path.appending(.key("otherwise")))) }
        }
        for (index, transition) in transitions.enumerated() {
            all.append((transition, JSONPath([.key("on"), .index(index)])))
        }
        if let otherwise { all.append((otherwise, JSONPath([.key("otherwise")]))) }
        return all
    }

    private func checkState(_ name: String, at path: JSONPath) throws(ParleyError) {
        guard state(named: name) == nil else { return }
        throw ParleyError(
            .skillUnknownState,
            "there is no state \(JSONValue.string(name)); states: \(states.map(\.name).joined(separator: ", "))",
            path: path)
    }

    /// Checks the syntax of every placeholder in the strings of `value` and that each names a known variable.
    private func checkPlaceholders(in value: JSONValue, at path: JSONPath, declared: Set<String>) throws(ParleyError) {
        switch value {
        case .string(let text) where text.contains("{{"):
            let template: Template
            do {
                template = try Template(parsing: text)
            } catch {
                throw error.within(path)
            }
            for placeholder in template.placeholders {
                let root = placeholder.path[0]
                guard !Scope.roots.contains(root), !declared.contains(root) else { continue }
                throw ParleyError(
                    .skillUnknownVariable,
                    "{{\(placeholder.path.joined(separator: "."))}} names no variable: "
                        + "declare \(JSONValue.string(root)) under \"variables\" or set it in a transition; "
                        + "other names are "
                        + Scope.roots.joined(separator: ", "),
                    path: path)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try checkPlaceholders(in: element, at: path.appending(.index(index)), declared: declared)
            }
        case .object(let object):
            for member in object {
                try checkPlaceholders(in: member.value, at: path.appending(.key(member.key)), declared: declared)
            }
        default:
            break
        }
    }

    /// Checks that `name` can be a variable: letters, digits and `_`, not starting with a digit, not a root name.
    static func checkVariableName(_ name: String, at path: JSONPath) throws(ParleyError) {
        let isName =
            name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard isName else {
            throw ParleyError(
                .skillInvalidDefinition,
                "\(JSONValue.string(name)) cannot be a variable name: "
                    + "use letters, digits and _, starting with a letter",
                path: path)
        }
        guard !Scope.roots.contains(name) else {
            throw ParleyError(
                .skillInvalidDefinition,
                "\(JSONValue.string(name)) is reserved for placeholders and cannot be a variable name", path: path)
        }
    }
}

extension SkillDefinition.State {
    /// Decodes the state called `name`.
    init(name: String, json: JSONValue) throws(ParleyError) {
        var members = try FieldReader(json)
        try members.rejectUnknownKeys(["description", "say", "next", "on", "otherwise"], in: "a state")
        self.name = name
        description = try members.optional("description")
        say = try members.requiredNotNull("say")
        guard !say.isEmpty else {
            throw ParleyError(
                .skillInvalidDefinition, "a state must say something on entering it", path: JSONPath([.key("say")]))
        }
        next = try members.optional("next")
        transitions = try SkillDefinition.Transition.list(&members, "on")
        otherwise = try SkillDefinition.Transition.otherwise(&members)
        if next != nil, let waiting = ["on", "otherwise"].first(where: { members.member($0) != nil }) {
            throw ParleyError(
                .skillInvalidDefinition,
                "a state with \"next\" goes on without waiting for a message, so it cannot have \"\(waiting)\"",
                path: JSONPath([.key(waiting)]))
        }
    }
}

extension SkillDefinition.Transition {
    /// The keys that choose a transition's ``SkillDefinition/Match``.
    static let matcherKeys = ["text", "keyword", "regex", "postback", "type", "payload"]

    /// Decodes the transitions of the array `key`, if present.
    static func list(_ members: inout FieldReader, _ key: String) throws(ParleyError) -> [Self] {
        guard let value = members.member(key) else { return [] }
        guard case .array(let elements) = value else {
            throw ParleyError(.typeMismatch, "expected an array, found \(value.typeName)", path: JSONPath([.key(key)]))
        }
        var transitions: [Self] = []
        for (index, element) in elements.enumerated() {
            do {
                transitions.append(try Self(json: element, isOtherwise: false))
            } catch {
                throw error.within(.key(key), .index(index))
            }
        }
        return transitions
    }

    /// Decodes the member `otherwise`, if present.
    static func otherwise(_ members: inout FieldReader) throws(ParleyError) -> Self? {
        guard let value = members.member("otherwise") else { return nil }
        do {
            return try Self(json: value, isOtherwise: true)
        } catch {
            throw error.within(.key("otherwise"))
        }
    }

    /// Decodes a transition; one of `on` has exactly one matcher, an `otherwise` has none.
    init(json: JSONValue, isOtherwise: Bool) throws(ParleyError) {
        var members = try FieldReader(json)
        let common = ["description", "set", "say", "goto", "end", "handOff"]
        if isOtherwise {
            try members.rejectUnknownKeys(common, in: "an \"otherwise\" transition (which matches anything)")
            match = nil
        } else {
            try members.rejectUnknownKeys(Self.matcherKeys + ["caseSensitive"] + common, in: "a transition")
            match = try Self.match(&members)
        }
        description = try members.optional("description")
        set = try members.optional("set") ?? [:]
        for key in set.keys {
            try SkillDefinition.checkVariableName(key, at: JSONPath([.key("set"), .key(key)]))
        }
        say = try members.optional("say") ?? Responses([])
        goto = try members.optional("goto")
        end = try members.optional("end") ?? false
        handOff = try members.optional("handOff") ?? false
        if end, handOff {
            throw ParleyError(
                .skillInvalidDefinition, "a transition that ends the session cannot also hand it to an agent",
                path: JSONPath([.key("handOff")]))
        }
        if end, goto != nil {
            throw ParleyError(
                .skillInvalidDefinition, "a transition that ends the session cannot also go to a state",
                path: JSONPath([.key("goto")]))
        }
        guard !say.isEmpty || goto != nil || end || handOff else {
            throw ParleyError(
                .skillInvalidDefinition,
                "a transition must say something, go to a state (\"goto\") or end the session (\"end\")",
                path: JSONPath())
        }
    }

    /// Reads the one matcher of a transition in `on`.
    private static func match(_ members: inout FieldReader) throws(ParleyError) -> SkillDefinition.Match {
        let present = matcherKeys.filter { members.member($0) != nil }
        guard let key = present.first else {
            throw ParleyError(
                .skillInvalidDefinition,
                "a transition in \"on\" needs one matcher: \(matcherKeys.joined(separator: ", "))", path: JSONPath())
        }
        guard present.count == 1 else {
            throw ParleyError(
                .skillInvalidDefinition,
                "a transition has one matcher, this one has \(present.joined(separator: " and ")); "
                    + "use one transition for each", path: JSONPath([.key(present[1])]))
        }
        let caseSensitive: Bool? = try members.optional("caseSensitive")
        if caseSensitive != nil, !["text", "keyword", "regex"].contains(key) {
            throw ParleyError(
                .skillInvalidDefinition, "\"caseSensitive\" applies to text, keyword and regex matchers only",
                path: JSONPath([.key("caseSensitive")]))
        }
        switch key {
        case "text":
            return .text(try strings(&members, key), caseSensitive: caseSensitive ?? false)
        case "keyword":
            return .keyword(try strings(&members, key), caseSensitive: caseSensitive ?? false)
        case "regex":
            let pattern: String = try members.requiredNotNull(key)
            do {
                _ = try Regex(pattern)
            } catch {
                throw ParleyError(
                    .skillInvalidRegex, "\(JSONValue.string(pattern)) is not a regular expression: \(error)",
                    path: JSONPath([.key(key)]), underlying: error)
            }
            return .regex(pattern, caseSensitive: caseSensitive ?? false)
        case "postback":
            return .postback(try members.requiredNotNull(key))
        case "type":
            return .type(try members.requiredNotNull(key))
        default:
            return .payload(try members.requiredNotNull(key))
        }
    }

    /// A string or a non-empty array of strings, none of them empty.
    private static func strings(_ members: inout FieldReader, _ key: String) throws(ParleyError) -> [String] {
        let strings: [String]
        if case .string(let single)? = members.member(key) {
            strings = [single]
        } else {
            strings = try members.requiredNotNull(key)
        }
        guard !strings.isEmpty else {
            throw ParleyError(
                .skillInvalidDefinition, "\"\(key)\" needs at least one string", path: JSONPath([.key(key)]))
        }
        if let empty = strings.firstIndex(where: { $0.trimmingWhitespace().isEmpty }) {
            throw ParleyError(
                .skillInvalidDefinition, "\"\(key)\" strings cannot be empty",
                path: JSONPath([.key(key)] + (members.member(key)?.arrayValue == nil ? [] : [.index(empty)])))
        }
        return strings
    }
}

extension JSONPath {
    /// The path with `components` added at the end.
    func appending(_ components: Component...) -> JSONPath {
        JSONPath(self.components + components)
    }
}
