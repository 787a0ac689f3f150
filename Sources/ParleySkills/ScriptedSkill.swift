public import Foundation

/// A skill defined by a dialog-definition file (format: `docs/skills.md`).
///
/// ```swift
/// let skill = try ScriptedSkill(contentsOf: URL(fileURLWithPath: "pizza.json"))
/// let context = SkillContext(channelId: "web", userId: "ada")
/// let response = try await skill.respond(to: .message(.text("menu")), in: context)
/// ```
///
/// How a message is answered:
/// 1. A `closeSession` message before the conversation started gets `sessionClosed`.
/// 2. A conversation that has not started (or waits in a state the definition no longer has) enters the
///    ``SkillDefinition/start`` state, and the start state's responses are said.
/// 3. The waiting state's transitions are tried in order, then the definition's own; the first that matches
///    sets its variables, says its responses, then ends the session or enters its `goto` state.
/// 4. Nothing matched: a `closeSession` message ends the session; the first message of a conversation is
///    answered by the start state alone; otherwise the state's `otherwise`, the definition's `otherwise`, or
///    else a "Sorry" text followed by the state's responses again.
///
/// Ending the session sends `sessionClosed` and forgets the state and variables (the profile stays), so the
/// next message starts over. Typing notifications (`status`) and profile updates get no reply.
public struct ScriptedSkill: Skill {
    /// The dialog this skill runs.
    public let definition: SkillDefinition

    /// The text sent when no transition matched and the definition has no `otherwise` for the state.
    public static let notUnderstoodText = "Sorry, I didn't understand that."

    /// The definition's regular expressions and templates, compiled and parsed once.
    private let cache = SkillCache()

    /// Creates a skill that runs `definition`.
    public init(definition: SkillDefinition) {
        self.definition = definition
    }

    /// Loads a skill from the UTF-8 JSON of a definition.
    /// - Throws: ``ParleyError``: `json.*` with line and column when the bytes are not JSON, otherwise what
    ///   ``SkillDefinition/init(json:)`` throws.
    public init(json bytes: some Collection<UInt8>) throws(ParleyError) {
        self.init(definition: try SkillDefinition(decoding: bytes))
    }

    /// Loads a skill from a definition file.
    /// - Throws: ``ParleyError``: ``ParleyError/Code/skillUnreadable`` when the file cannot be read, otherwise
    ///   what ``init(json:)`` throws.
    public init(contentsOf url: URL) throws(ParleyError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ParleyError(
                .skillUnreadable, "cannot read the skill definition \(url.path): \(error.localizedDescription)",
                underlying: error)
        }
        try self.init(json: data)
    }

    /// Answers one input; see the type's documentation for the order of evaluation.
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/skillFailed`` when a response cannot be made (for
    ///   example a placeholder turned a response into an invalid payload); nothing changes then.
    public func respond(to input: SkillInput, in context: SkillContext) async throws(ParleyError) -> SkillResponse {
        var conversation = context.state
        switch input {
        case .profile(let profile):
            let previousLanguage = conversation.profile?.languageTag
            conversation.profile = conversation.profile.map { $0.updated(with: profile) } ?? profile
            if conversation.profile?.languageTag != previousLanguage {
                // A new language starts the conversation over, in that language.
                conversation.state = nil
                conversation.variables = [:]
            }
            return SkillResponse(messages: [], state: conversation)
        case .message(let payload):
            var turn = Turn(definition: definition, conversation: conversation, input: payload, cache: cache)
            try turn.run()
            return SkillResponse(
                messages: turn.replies, state: turn.conversation, handOff: turn.handOff, endsConversation: turn.ended)
        }
    }
}

/// The answer to one message: the interpreter of ``SkillDefinition``.
private struct Turn {
    let definition: SkillDefinition
    var conversation: ConversationState
    let input: MessagePayload
    var replies: [MessagePayload] = []
    /// Whether a transition hands the conversation to an agent.
    var handOff = false
    /// Whether the session ended.
    var ended = false
    /// What placeholders see; `variables` follows ``conversation``.
    var scope: Scope
    let cache: SkillCache

    init(definition: SkillDefinition, conversation: ConversationState, input: MessagePayload, cache: SkillCache) {
        self.definition = definition
        self.cache = cache
        self.conversation = conversation
        self.input = input
        var values = JSONObject()
        if let profile = conversation.profile, case .object(var object) = profile.jsonValue {
            if object["name"] == nil, let name = profile.displayGivenName { object.append("name", .string(name)) }
            values.append("profile", .object(object))
        }
        values.append("input", input.jsonValue)
        switch input.content {
        case .postback(let postback): values.append("postback", postback.postback)
        case .formSubmission(let submission): values["postback"] = submission.postback
        case .location(let location): values.append("location", location.jsonValue)
        default: break
        }
        scope = Scope(variables: conversation.variables, values: values, cache: cache)
    }

    mutating func run() throws(ParleyError) {
        if case .status = input.content { return }
        let isClosing = input.content == .closeSession
        let state: SkillDefinition.State
        var isFirst = false
        if let name = conversation.state, let current = definition.state(named: name) {
            state = current
        } else if isClosing {
            endSession()
            return
        } else {
            conversation.variables = definition.variables
            scope.variables = conversation.variables
            state = try enter(definition.start)
            isFirst = true
        }

        if let (transition, location, captures) = try firstMatch(in: state) {
            try take(transition, at: location, captures: captures)
        } else if isClosing {
            endSession()
        } else if isFirst {
            return  // the start state's responses answer the first message
        } else if let otherwise = state.otherwise {
            try take(otherwise, at: Self.path(of: state).appending(.key("otherwise")), captures: nil)
        } else if let otherwise = definition.otherwise {
            try take(otherwise, at: JSONPath([.key("otherwise")]), captures: nil)
        } else {
            replies.append(.text(ScriptedSkill.notUnderstoodText))
            _ = try enter(state.name)
        }
    }

    /// Enters the state `name` and those its `next` leads to, saying their responses; returns the state that waits.
    private mutating func enter(_ name: String) throws(ParleyError) -> SkillDefinition.State {
        var name = name
        for _ in 0...definition.states.count {
            guard let state = definition.state(named: name) else {
                throw ParleyError(.skillFailed, "the skill has no state \(JSONValue.string(name))")
            }
            conversation.state = name
            try say(state.say, at: Self.path(of: state).appending(.key("say")))
            guard let next = state.next else { return state }
            name = next
        }
        throw ParleyError(.skillFailed, "the \"next\" states of the skill go round in a circle")
    }

    /// The first transition of `state`, then of the definition, that takes the input, with its path and captures.
    private func firstMatch(in state: SkillDefinition.State) throws(ParleyError)
        -> (SkillDefinition.Transition, JSONPath, JSONObject)?
    {
        let candidates =
            state.transitions.enumerated().map { (Self.path(of: state).appending(.key("on"), .index($0)), $1) }
            + definition.transitions.enumerated().map { (JSONPath([.key("on"), .index($0)]), $1) }
        for (path, transition) in candidates {
            guard let match = transition.match else { continue }
            if let captures = try captures(of: match, at: path) { return (transition, path, captures) }
        }
        return nil
    }

    /// What `match` captures from the input, or nil when it does not take the input.
    private func captures(of match: SkillDefinition.Match, at path: JSONPath) throws(ParleyError) -> JSONObject? {
        var typed: String? {
            if case .text(let text) = input.content { return text.text }
            return nil
        }
        switch match {
        case .text(let texts, let caseSensitive):
            guard let typed = typed?.trimmingWhitespace() else { return nil }
            let options: String.CompareOptions = caseSensitive ? [] : .caseInsensitive
            guard texts.contains(where: { typed.compare($0, options: options) == .orderedSame }) else { return nil }
            return ["0": .string(typed)]
        case .keyword(let words, let caseSensitive):
            guard let typed else { return nil }
            let word = words.first { Self.contains(typed, word: $0, caseSensitive: caseSensitive) }
            return word.map { ["0": .string($0)] }
        case .regex(let pattern, let caseSensitive):
            guard let typed else { return nil }
            let regex: Regex<AnyRegexOutput>
            do {
                regex = try cache.regex(pattern, caseSensitive: caseSensitive)
            } catch {
                throw ParleyError(.skillFailed, "invalid regular expression: \(error)", path: path, underlying: error)
            }
            guard let found = typed.firstMatch(of: regex) else { return nil }
            var captures = JSONObject()
            for (index, group) in found.output.enumerated() {
                let value = group.substring.map { JSONValue.string(String($0)) } ?? .null
                captures.append(String(index), value)
                if let name = group.name { captures[name] = value }
            }
            return captures
        case .postback(let pattern):
            guard let postback = scope.values["postback"], Self.contains(postback, pattern) else { return nil }
            return [:]
        case .type(let type):
            return input.type == type ? [:] : nil
        case .payload(let pattern):
            return Self.contains(input.jsonValue, .object(pattern)) ? [:] : nil
        }
    }

    /// Sets the transition's variables, says its responses, then ends the session or enters its `goto` state.
    private mutating func take(_ transition: SkillDefinition.Transition, at path: JSONPath, captures: JSONObject?)
        throws(ParleyError)
    {
        scope.values["match"] = captures.map(JSONValue.object)
        for member in transition.set {
            do {
                conversation.variables[member.key] = try scope.evaluate(member.value)
            } catch {
                throw ParleyError(.skillFailed, error.message, path: path.appending(.key("set"), .key(member.key)))
            }
            scope.variables = conversation.variables
        }
        try say(transition.say, at: path.appending(.key("say")))
        if transition.handOff { handOff = true }
        if transition.end || input.content == .closeSession {
            endSession()
        } else if let goto = transition.goto {
            _ = try enter(goto)
        }
    }

    /// Fills in the placeholders of `responses` and appends them to the replies.
    private mutating func say(_ responses: Responses, at path: JSONPath) throws(ParleyError) {
        let (language, payloads) = responses.payloads(for: conversation.profile?.languageTag)
        let path = language.map { path.appending(.key($0)) } ?? path
        for (index, response) in payloads.enumerated() {
            let json = response.jsonValue
            do {
                let filled = try scope.fill(json)
                replies.append(filled == json ? response : try MessagePayload(json: filled))
            } catch {
                throw ParleyError(
                    .skillFailed, "a response is not a valid payload once filled in: \(error.message)",
                    path: error.within(path.appending(.index(index))).path, underlying: error)
            }
        }
    }

    /// Sends `sessionClosed` and forgets the conversation's state and variables.
    private mutating func endSession() {
        replies.append(MessagePayload(.sessionClosed))
        ended = true
        conversation.state = nil
        conversation.variables = [:]
    }

    private static func path(of state: SkillDefinition.State) -> JSONPath {
        JSONPath([.key("states"), .key(state.name)])
    }

    /// Whether `value` contains `pattern`: every member of an object pattern is present with a value that
    /// contains the member's pattern; any other pattern is equal.
    static func contains(_ value: JSONValue, _ pattern: JSONValue) -> Bool {
        guard case .object(let patternObject) = pattern else { return value == pattern }
        guard case .object(let object) = value else { return false }
        return patternObject.allSatisfy { member in object[member.key].map { contains($0, member.value) } ?? false }
    }

    /// Whether `text` contains `word` (a word or phrase) with no letter, digit or `_` right before or after it.
    static func contains(_ text: String, word: String, caseSensitive: Bool) -> Bool {
        let options: String.CompareOptions = caseSensitive ? [] : .caseInsensitive
        var searchStart = text.startIndex
        while let found = text.range(of: word, options: options, range: searchStart..<text.endIndex) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
            if !isWordCharacter(before), !isWordCharacter(after) { return true }
            searchStart = text.index(after: found.lowerBound)
        }
        return false
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}
