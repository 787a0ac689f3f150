import Foundation
import ParleySkills
import Testing

/// Broken definitions: each fails to load with a stable code and the JSON path of the problem.
@Suite struct ValidationTests {
    struct Broken: CustomTestStringConvertible, Sendable {
        let why: String
        let json: String
        let code: ParleyError.Code
        let path: String
        var testDescription: String { why }
    }

    /// A valid definition with `states.a` set to `state` and the rest of the top level set to `top`.
    static func definition(state: String = #"{"say": [{"type": "text", "text": "hi"}]}"#, top: String = "") -> String {
        #"{"name": "T", "start": "a", "states": {"a": \#(state), "b": {"say": [{"type": "text", "text": "b"}]}}\#(top)}"#
    }

    static let cases: [Broken] = [
        Broken(
            why: "missing start", json: #"{"name": "T", "states": {"a": {"say": [{"type": "text", "text": "hi"}]}}}"#,
            code: .missingField, path: "$.start"),
        Broken(
            why: "a null required member is missing, not mistyped",
            json: #"{"name": "T", "start": null, "states": {"a": {"say": [{"type": "text", "text": "hi"}]}}}"#,
            code: .missingField, path: "$.start"),
        Broken(
            why: "a null say is missing",
            json: definition(state: #"{"say": null}"#),
            code: .missingField, path: "$.states.a.say"),
        Broken(
            why: "start names no state",
            json: #"{"name": "T", "start": "begin", "states": {"a": {"say": [{"type": "text", "text": "hi"}]}}}"#,
            code: .skillUnknownState, path: "$.start"),
        Broken(
            why: "goto names no state",
            json: definition(state: #"{"say": [{"type": "text", "text": "hi"}], "on": [{"text": "x", "goto": "c"}]}"#),
            code: .skillUnknownState, path: "$.states.a.on[0].goto"),
        Broken(
            why: "otherwise goes to no state",
            json: definition(top: #", "otherwise": {"goto": "nowhere"}"#),
            code: .skillUnknownState, path: "$.otherwise.goto"),
        Broken(
            why: "next names no state",
            json: definition(state: #"{"say": [{"type": "text", "text": "hi"}], "next": "z"}"#),
            code: .skillUnknownState, path: "$.states.a.next"),
        Broken(
            why: "invalid regex",
            json: definition(
                state:
                    #"{"say": [{"type": "text", "text": "hi"}], "on": [{"text": "x", "goto": "b"}, {"regex": "(unclosed", "goto": "b"}]}"#
            ),
            code: .skillInvalidRegex, path: "$.states.a.on[1].regex"),
        Broken(
            why: "a response that is not a payload",
            json: definition(state: #"{"say": [{"type": "text", "txt": "hi"}]}"#),
            code: .missingField, path: "$.states.a.say[0].text"),
        Broken(
            why: "a deeply nested response problem",
            json: definition(
                top:
                    #", "on": [{"postback": "p", "say": [{"type": "card", "layout": "horizontal", "cards": [{"title": "t", "actions": [{"type": "call", "label": "Call"}]}]}]}]"#
            ),
            code: .missingField, path: "$.on[0].say[0].cards[0].actions[0].phoneNumber"),
        Broken(
            why: "a response of the wrong JSON type",
            json: definition(state: #"{"say": [{"type": "text", "text": 42}]}"#),
            code: .typeMismatch, path: "$.states.a.say[0].text"),
        Broken(
            why: "say is not a list",
            json: definition(state: #"{"say": {"type": "text", "text": "hi"}}"#),
            code: .typeMismatch, path: "$.states.a.say"),
        Broken(
            why: "a misspelt key in a transition",
            json: definition(state: #"{"say": [{"type": "text", "text": "hi"}], "on": [{"text": "x", "goTo": "b"}]}"#),
            code: .skillUnknownKey, path: "$.states.a.on[0].goTo"),
        Broken(
            why: "an unknown top-level key",
            json: definition(top: #", "stats": {}"#),
            code: .skillUnknownKey, path: "$.stats"),
        Broken(
            why: "a matcher in otherwise",
            json: definition(
                state: #"{"say": [{"type": "text", "text": "hi"}], "otherwise": {"text": "x", "goto": "b"}}"#),
            code: .skillUnknownKey, path: "$.states.a.otherwise.text"),
        Broken(
            why: "a transition without a matcher",
            json: definition(state: #"{"say": [{"type": "text", "text": "hi"}], "on": [{"goto": "b"}]}"#),
            code: .skillInvalidDefinition, path: "$.states.a.on[0]"),
        Broken(
            why: "a transition with two matchers",
            json: definition(
                state: #"{"say": [{"type": "text", "text": "hi"}], "on": [{"text": "x", "keyword": "y", "goto": "b"}]}"#
            ),
            code: .skillInvalidDefinition, path: "$.states.a.on[0].keyword"),
        Broken(
            why: "a transition that does nothing visible",
            json: definition(top: #", "on": [{"text": "x", "set": {"v": 1}}]"#),
            code: .skillInvalidDefinition, path: "$.on[0]"),
        Broken(
            why: "end and goto together",
            json: definition(top: #", "on": [{"text": "x", "end": true, "goto": "b"}]"#),
            code: .skillInvalidDefinition, path: "$.on[0].goto"),
        Broken(
            why: "caseSensitive on a postback matcher",
            json: definition(top: #", "on": [{"postback": "x", "caseSensitive": true, "goto": "b"}]"#),
            code: .skillInvalidDefinition, path: "$.on[0].caseSensitive"),
        Broken(
            why: "an empty keyword",
            json: definition(top: #", "on": [{"keyword": ["pizza", " "], "goto": "b"}]"#),
            code: .skillInvalidDefinition, path: "$.on[0].keyword[1]"),
        Broken(
            why: "an unterminated placeholder",
            json: definition(state: #"{"say": [{"type": "text", "text": "Hi {{profile.name"}]}"#),
            code: .skillInvalidTemplate, path: "$.states.a.say[0].text"),
        Broken(
            why: "an empty placeholder",
            json: definition(state: #"{"say": [{"type": "text", "text": "Hi {{ | there}}"}]}"#),
            code: .skillInvalidTemplate, path: "$.states.a.say[0].text"),
        Broken(
            why: "a placeholder naming no variable",
            json: definition(
                state:
                    #"{"say": [{"type": "text", "text": "Hi", "actions": [{"type": "postback", "label": "{{pizaType}}", "postback": "x"}]}]}"#,
                top: #", "variables": {"pizzaType": null}"#),
            code: .skillUnknownVariable, path: "$.states.a.say[0].actions[0].label"),
        Broken(
            why: "a set value naming no variable",
            json: definition(top: #", "on": [{"text": "x", "set": {"a": "{{b}}"}, "goto": "b"}]"#),
            code: .skillUnknownVariable, path: "$.on[0].set.a"),
        Broken(
            why: "a reserved variable name",
            json: definition(top: #", "variables": {"profile": null}"#),
            code: .skillInvalidDefinition, path: "$.variables.profile"),
        Broken(
            why: "a variable name with a dot",
            json: definition(top: #", "on": [{"text": "x", "set": {"pizza.size": 1}, "goto": "b"}]"#),
            code: .skillInvalidDefinition, path: #"$.on[0].set["pizza.size"]"#),
        Broken(
            why: "no states", json: #"{"name": "T", "start": "a", "states": {}}"#,
            code: .skillInvalidDefinition, path: "$.states"),
        Broken(
            why: "a state that says nothing",
            json: definition(state: #"{"say": []}"#),
            code: .skillInvalidDefinition, path: "$.states.a.say"),
        Broken(
            why: "next with transitions",
            json: definition(
                state: #"{"say": [{"type": "text", "text": "hi"}], "next": "b", "on": [{"text": "x", "goto": "b"}]}"#),
            code: .skillInvalidDefinition, path: "$.states.a.on"),
        Broken(
            why: "next going round in a circle",
            json: #"""
                {"name": "T", "start": "a", "states": {
                  "a": {"say": [{"type": "text", "text": "a"}], "next": "b"},
                  "b": {"say": [{"type": "text", "text": "b"}], "next": "a"}}}
                """#,
            code: .skillInvalidDefinition, path: "$.states.a.next"),
        Broken(
            why: "not JSON", json: "{\"name\": \"T\",\n \"start\": \"a\",, }",
            code: .malformedJSON, path: "$"),
    ]

    /// The JSON of the case `why`.
    static func json(_ why: String) -> String {
        cases.first { $0.why == why }?.json ?? ""
    }

    @Test(arguments: cases) func brokenDefinitionsFailWithCodeAndPath(_ broken: Broken) throws {
        let error = #expect(throws: ParleyError.self) { try ScriptedSkill(json: Array(broken.json.utf8)) }
        #expect(error?.code == broken.code, "\(error?.description ?? "no error")")
        #expect(error?.path?.description ?? "$" == broken.path, "\(error?.description ?? "no error")")
    }

    @Test func messagesSayWhatToDo() throws {
        func message(_ json: String) -> String {
            do {
                _ = try SkillDefinition(decoding: json)
                return "loaded"
            } catch {
                return error.message
            }
        }
        #expect(message(Self.json("start names no state")) == #"there is no state "begin"; states: a"#)
        #expect(
            message(Self.definition(top: #", "on": [{"text": "x", "goto": "b", "ed": true}]"#))
                == #"a transition has no member "ed"; known members: text, keyword, regex, postback, type, payload, caseSensitive, description, set, say, goto, end, handOff"#
        )
        #expect(
            message(Self.definition(top: #", "on": [{"regex": "(a", "goto": "b"}]"#)).hasPrefix(
                #""(a" is not a regular expression: "#))
        #expect(
            message(Self.json("next going round in a circle")) == #""next" goes round in a circle: a → b → a"#)
        let syntaxError = message(Self.json("not JSON"))
        #expect(syntaxError.contains("line 2"), "\(syntaxError)")
    }

    @Test func unreadableFiles() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).json")
        let error = #expect(throws: ParleyError.self) { try ScriptedSkill(contentsOf: missing) }
        #expect(error?.code == .skillUnreadable)
        let text = error?.message ?? ""
        #expect(text.contains(missing.path))
    }

    @Test func filesLoad() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("skill-\(UUID().uuidString).json")
        try Data(ScriptedSkill.pizzaDemoSource().utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let skill = try ScriptedSkill(contentsOf: url)
        #expect(try skill.definition == ScriptedSkill.pizzaDemo().definition)
        var chat = Chat(skill)
        #expect(summary(try await chat.say("hi")).count == 2)
    }
}
